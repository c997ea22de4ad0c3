import torch
import torch.nn as nn


# nn.Module.get_submodule(), get_parameter() and get_buffer(): a dotted
# path walked by hasattr() and getattr(), as torch.nn.Module has them.
class GetSubmoduleCase(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.seq = nn.Sequential(nn.ReLU(), nn.Linear(4, 4))
        self.heads = nn.ModuleDict({"a": nn.Tanh()})
        self.w = nn.Parameter(torch.zeros(4))
        # outside forward, get_parameter() gives the Parameter itself
        self.w_is_parameter = isinstance(self.get_parameter("w"), nn.Parameter)

    def forward(self, x):
        a = self.get_submodule("block.lin")(x)
        b = self.get_submodule("block")(a)
        c = self.get_submodule(target="seq.1")(b)
        seq = self.get_submodule("seq")
        d = seq[0](c) + seq.get_submodule("0")(x)
        e = self.get_submodule("").heads["a"](d)
        f = self.get_submodule("heads.a")(e) + self.get_buffer("block.scale")
        return f + self.block.get_buffer("scale") + self.w, self.w_is_parameter


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("scale", torch.ones(4))

    def forward(self, x):
        return self.lin(x) * self.scale
