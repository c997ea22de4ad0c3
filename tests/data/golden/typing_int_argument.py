from typing import List
import torch


class M(torch.nn.Module):
    def forward(self, x: List[3]):
        return x
