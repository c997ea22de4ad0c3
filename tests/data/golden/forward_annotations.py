import torch
import torch.nn as nn


class Annotated(nn.Module):
    def forward(self, x: torch.Tensor, n: int = 3, scale: float = 2.0, name: str = "a", flag: bool = False) -> torch.Tensor:
        return x * n * scale
