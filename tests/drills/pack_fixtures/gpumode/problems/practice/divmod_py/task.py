# Test fixture (written for ML Infra Studio).
import torch

input_t = tuple[torch.Tensor, torch.Tensor]
output_t = tuple[torch.Tensor, torch.Tensor]
