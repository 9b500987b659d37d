"""The judge <-> worker channel: length-prefixed frames over two pipes.

The judge (trusted) sends commands to the worker (the process that holds the user's
code) as pickles, because they carry tensors shared through torch's multiprocessing
reductions (CUDA IPC handles on a GPU, shared-memory files on the CPU). The worker
answers with JSON only: the judge never unpickles anything the worker wrote, so a
reply can be wrong or garbage but can never run code in the judge. Big data (outputs)
travels through buffers the judge allocated and shared, never through a reply.
"""

from __future__ import annotations

import io
import json
import os
import struct
from typing import Any

from studio.drills.harness.wire import finite

HEADER = struct.Struct("<Q")
MAX_REPLY_BYTES = 16 << 20      # a reply is metadata; more than this is a protocol error


class ChannelClosed(Exception):
    """The other side closed its end (it exited or was killed)."""


class ProtocolError(Exception):
    """The worker sent something that is not a well-formed reply."""


def write_frame(fd: int, payload: bytes) -> None:
    data = HEADER.pack(len(payload)) + payload
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def read_exact(fd: int, size: int) -> bytes:
    parts, need = [], size
    while need:
        chunk = os.read(fd, min(need, 1 << 20))
        if not chunk:
            raise ChannelClosed("the channel closed")
        parts.append(chunk)
        need -= len(chunk)
    return b"".join(parts)


def send_command(fd: int, command: dict[str, Any]) -> None:
    """Judge side: pickle a command (tensors inside are shared, not copied)."""
    from multiprocessing.reduction import ForkingPickler

    import torch.multiprocessing  # noqa: F401  (registers the tensor reductions)

    buffer = io.BytesIO()
    ForkingPickler(buffer).dump(command)
    write_frame(fd, buffer.getvalue())


def receive_command(fd: int) -> dict[str, Any]:
    """Worker side: the next command from the judge."""
    import pickle

    (size,) = HEADER.unpack(read_exact(fd, HEADER.size))
    return pickle.loads(read_exact(fd, size))


def send_reply(fd: int, reply: dict[str, Any]) -> None:
    """Worker side: a JSON reply (non-finite floats become null)."""
    write_frame(fd, json.dumps(finite(reply), default=str).encode("utf-8"))


def decode_reply(frame: bytes) -> dict[str, Any]:
    """Judge side: parse one reply frame; ProtocolError for anything but a JSON object."""
    try:
        reply = json.loads(frame.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ProtocolError(f"unreadable reply from the solution's process: {exc}") from None
    if not isinstance(reply, dict):
        raise ProtocolError("the solution's process sent a reply that is not an object")
    return reply


class FrameReader:
    """Judge side: collects reply frames from a non-blocking read loop, with a size cap."""

    def __init__(self) -> None:
        self.buffer = b""

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        self.buffer += data
        replies = []
        while len(self.buffer) >= HEADER.size:
            (size,) = HEADER.unpack_from(self.buffer)
            if size > MAX_REPLY_BYTES:
                raise ProtocolError(f"the solution's process sent a {size}-byte reply")
            if len(self.buffer) < HEADER.size + size:
                break
            frame = self.buffer[HEADER.size:HEADER.size + size]
            self.buffer = self.buffer[HEADER.size + size:]
            replies.append(decode_reply(frame))
        return replies

