import typing
from typing import Type, FrozenSet, Mapping, Iterable, Sequence, Tuple, List
import torch


class M(torch.nn.Module):
    def forward(self, a: typing.Sequence, b: Type[int], c: type[int], d: FrozenSet[int], e: Mapping[str, int],
                f: Iterable[torch.Tensor], g: typing.Iterator[int], h: Tuple[torch.Size, torch.device], i: typing.Dict,
                j: tuple[()], k: set[int], l: frozenset[str], m: typing.Deque[int], n: float, o: bool, p: complex,
                q: typing.Union[int, typing.Union[str, float]], r: typing.Optional[typing.Optional[int]],
                s: List["torch.Tensor"], t: dict, u: typing.Set, v: typing.Tuple[int, str, ...] = None) -> None:
        return a
