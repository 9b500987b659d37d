"""Benchmark sweeps that look like real models (#21), for the memory-bound row-wise drills.

The shapes a drill's reference solution must win at, by where they occur:

- `model_rows`: the activations of a transformer layer, tokens x hidden. Tokens 1 (one
  decode step) to 16384 (a long prefill); hidden 512 (small models) to 16384 (70B-class).
- `LONG_ROWS`: few, long rows (1024 x 32768, 256 x 131072): one program per row leaves
  most of the GPU idle unless a row is split over several programs.
- `vocab_rows`: cross-entropy over real vocabularies: Llama-2 / Mistral (32000), GPT-2
  (50257), Llama-3 (128256), Qwen2 (152064), Gemma (256000).
- `attention_rows`: softmax over attention scores, one row per query: [heads x seq, seq]
  for seq 128 to 8192.

bench/peers.py times these; drill.yaml's `bench.shapes` holds the part the app's bench runs.
No torch here: the GUI and the tests read these lists without a GPU.
"""

from __future__ import annotations

TOKENS = (1, 16, 128, 1024, 4096, 16384)
HIDDEN = (512, 1024, 2048, 4096, 8192, 16384)
LONG_ROWS = ((1024, 32768), (256, 131072))
VOCABS = {"llama2": 32000, "gpt2": 50257, "llama3": 128256, "qwen2": 152064, "gemma": 256000}
VOCAB_TOKENS = 4096
ATTENTION_SEQS = (128, 256, 512, 1024, 2048, 4096, 8192)
ATTENTION_HEADS = 16                 # rows = heads x seq: one (batch, head)'s queries each

# drill -> the sweeps it is timed on
ROW_DRILLS = ("softmax", "layernorm", "rmsnorm", "softmax_backward", "row_sum", "bias_gelu", "swiglu")
DRILL_SWEEPS: dict[str, tuple[str, ...]] = {
    **{d: ("model_rows", "long_rows") for d in ROW_DRILLS},
    "softmax": ("model_rows", "long_rows", "attention_rows"),
    "softmax_backward": ("model_rows", "long_rows", "attention_rows"),
    "cross_entropy": ("vocab_rows",),
}


def model_rows() -> list[list[int]]:
    return [[t, h] for t in TOKENS for h in HIDDEN]


def long_rows() -> list[list[int]]:
    return [list(s) for s in LONG_ROWS]


def vocab_rows(tokens: int = VOCAB_TOKENS) -> list[list[int]]:
    return [[tokens, v] for v in VOCABS.values()]


def attention_rows(heads: int = ATTENTION_HEADS) -> list[list[int]]:
    return [[heads * s, s] for s in ATTENTION_SEQS]


SWEEPS = {"model_rows": model_rows, "long_rows": long_rows, "vocab_rows": vocab_rows,
          "attention_rows": attention_rows}


def sweep(drill_id: str) -> list[tuple[str, list[int]]]:
    """(sweep name, shape) for every point of a drill's model-like sweeps, without repeats."""
    seen, points = set(), []
    for name in DRILL_SWEEPS.get(drill_id, ()):
        for shape in SWEEPS[name]():
            if tuple(shape) not in seen:
                seen.add(tuple(shape))
                points.append((name, shape))
    return points


def elements(shape: list[int]) -> int:
    n = 1
    for v in shape:
        n *= v
    return n
