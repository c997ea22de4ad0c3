import torch
from dataclasses import dataclass, field


@dataclass
class Options:
    b: int
    a: int = field(default=1, init=False)
    c: list = field(default_factory=lambda: [1, 2], init=False)
    d: int = field(default=5, repr=False, compare=False)
    e: int = field(default=6, hash=None, metadata={"unit": "px"})


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.o = Options(3)

    def forward(self, x):
        return (
            x + self.o.a + self.o.b,
            self.o.c,
            str(self.o),
            Options(3) == Options(3, 9),
            Options(3, e=1) == Options(3),
        )
