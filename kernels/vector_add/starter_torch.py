"""Vector add in PyTorch: your solution (the warm-up drill; see the statement).

Run it:  studio-drill run vector_add path/to/this_file.py --lang torch
"""

import torch


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Return x + y as a new tensor (1-D, same length and dtype). Do not modify the inputs."""
    raise NotImplementedError("add: one line of torch")
