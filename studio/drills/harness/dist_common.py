"""What the distributed judge (dist.py) and its ranks (dist_rank.py) share.

Tensors travel between them as raw bytes in a file of the run's scratch folder, described
by a JSON list (dtype, shape, offset, nbytes): no pickle in either direction, so the judge
never unpickles anything a rank wrote. A rank's "current op" lives in a small status file
that the rank rewrites in place before and after every torch.distributed call; the judge
reads it when a case times out, to say which rank was waiting on what.
"""

from __future__ import annotations

import json
import os
from typing import Any

STATUS_BYTES = 2048

# nccl-tests' bus bandwidth factors (doc/PERFORMANCE.md): busbw = algbw x factor(n), where
# algbw = S / t and S is the per-rank buffer for all-reduce and the total buffer (n x chunk)
# for all-gather, reduce-scatter and all-to-all.
COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all")


def bus_factor(collective: str | None, world_size: int) -> float | None:
    n = world_size
    if collective == "all_reduce":
        return 2.0 * (n - 1) / n
    if collective in ("all_gather", "reduce_scatter", "all_to_all"):
        return (n - 1) / n
    return None


def bus_factor_text(collective: str | None) -> str:
    return {"all_reduce": "2(n-1)/n", "all_gather": "(n-1)/n", "reduce_scatter": "(n-1)/n",
            "all_to_all": "(n-1)/n"}.get(collective or "", "")


def write_values(path: str, values: list[Any]) -> list[dict[str, Any]]:
    """Tensors (any device) and plain scalars -> one raw file at path + its JSON description."""
    import torch

    meta: list[dict[str, Any]] = []
    offset = 0
    with open(path, "wb") as handle:
        for value in values:
            if isinstance(value, torch.Tensor):
                t = value.detach().to("cpu").contiguous()
                data = t.view(torch.uint8).numpy().tobytes() if t.numel() else b""
                handle.write(data)
                meta.append({"t": "tensor", "dtype": str(t.dtype).removeprefix("torch."),
                             "shape": list(t.shape), "offset": offset, "nbytes": len(data),
                             "grad": bool(value.requires_grad)})
                offset += len(data)
            elif value is None or isinstance(value, (bool, int, float, str)):
                meta.append({"t": "value", "v": value})
            else:
                meta.append({"t": "other", "type": type(value).__name__})
    return meta


def read_values(path: str, meta: list[dict[str, Any]], device: Any = "cpu") -> list[Any]:
    """The inverse of write_values; a malformed description raises ValueError."""
    import torch

    with open(path, "rb") as handle:
        blob = handle.read()
    values: list[Any] = []
    for item in meta:
        if not isinstance(item, dict):
            raise ValueError("malformed value description")
        if item.get("t") == "value":
            values.append(item.get("v"))
            continue
        if item.get("t") != "tensor":
            values.append(_Unreadable(str(item.get("type"))))
            continue
        dtype = getattr(torch, str(item.get("dtype")), None)
        if not isinstance(dtype, torch.dtype):
            raise ValueError(f"unknown dtype {item.get('dtype')!r}")
        shape = [int(s) for s in item.get("shape") or []]
        offset, nbytes = int(item["offset"]), int(item["nbytes"])
        count = 1
        for s in shape:
            count *= s
        if nbytes != count * torch.empty((), dtype=dtype).element_size() or offset + nbytes > len(blob):
            raise ValueError("tensor bytes do not match its shape")
        if nbytes == 0:
            t = torch.empty(shape, dtype=dtype)
        else:
            t = torch.frombuffer(bytearray(blob[offset:offset + nbytes]), dtype=dtype).reshape(shape)
        values.append(t.to(device))
    return values


class _Unreadable:
    """An output that was not a tensor (the judge names its type)."""

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name


def read_status(path: str) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as handle:
            raw = handle.read(STATUS_BYTES).rstrip(b" \x00\n")
        return json.loads(raw) if raw else None
    except (OSError, ValueError):
        return None


class StatusFile:
    """A fixed-size file rewritten in place (pwrite, no truncation): one JSON object."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        os.ftruncate(self.fd, STATUS_BYTES)

    def write(self, record: dict[str, Any]) -> None:
        data = json.dumps(record, default=str).encode("utf-8")
        if len(data) > STATUS_BYTES - 1:
            record = {**record, "op": str(record.get("op", ""))[:STATUS_BYTES // 2] + "..."}
            data = json.dumps(record, default=str).encode("utf-8")[:STATUS_BYTES - 1]
        os.pwrite(self.fd, data.ljust(STATUS_BYTES), 0)
