from typing import Dict

import torch


class M(torch.nn.Module):
    def forward(self, x: torch.Tensor, d: Dict[str, torch.Tensor],
                d: Dict[str, torch.Tensor]) -> torch.Tensor:
        return x + d["a"]
