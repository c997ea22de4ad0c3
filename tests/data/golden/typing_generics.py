from typing import Any, Dict, List, Optional, Sequence, Set, Tuple, Union
import typing
import torch


class M(torch.nn.Module):
    def forward(self, a: Optional[torch.Tensor], b: Union[int, str, None], c: Tuple[int, ...],
                d: Tuple[()], e: List[List[int]], f: typing.List, g: list, h: List[int],
                i: Any, j: Sequence[int], k: Optional[Union[int, float]], l: Set[str],
                m: Dict[str, List[torch.Tensor]], n: Union[torch.Tensor], o: typing.Tuple,
                p: Optional[typing.Tuple[torch.Tensor, int]], q: Union[None, int]) -> Optional[torch.Tensor]:
        return a
