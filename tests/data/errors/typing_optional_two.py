from typing import Optional
import torch


class M(torch.nn.Module):
    def forward(self, x: Optional[int, str]):
        return x
