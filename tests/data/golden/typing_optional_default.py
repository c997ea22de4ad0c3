from typing import Dict, List, Optional, Tuple, Union
import typing
import torch


class M(torch.nn.Module):
    def forward(self, x: torch.Tensor, y: Optional[torch.Tensor], z: List[torch.Tensor],
                d: Dict[str, torch.Tensor], u: Union[torch.Tensor, int],
                t: typing.Tuple[int, ...], o: typing.Optional[int] = None) -> Tuple[torch.Tensor, torch.Tensor]:
        return x.relu(), y + x
