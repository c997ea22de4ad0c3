import torch
import torch.nn.functional as F
import torch.nn.init
from torch import nn
from torch.nn import BatchNorm1d, functional
from torch.nn.modules import Linear
from torch.nn.modules.dropout import Dropout


class TorchModuleNames(nn.Module):
    # Names of torch, torch.nn, torch.nn.functional, torch.nn.init and
    # torch.special reached by every route still work; hasattr(), getattr()
    # with a default and `except AttributeError` ask the names of the
    # dialect's torch: a made-up name is not there, RMSNorm and rms_norm
    # only in torch 2.x, F._scaled_dot_product_attention only in 1.13.
    def __init__(self):
        super().__init__()
        self.fc = Linear(4, 4)
        self.bn = BatchNorm1d(4)
        self.act = torch.nn.modules.ReLU()
        self.drop = Dropout(0.25)
        nn.init.kaiming_normal_(self.fc.weight)
        torch.nn.init.zeros_(self.fc.bias)
        try:
            self.extra = nn.BatchNorm4d(4)
        except AttributeError:
            self.extra = nn.Identity()
        self.flags = (
            hasattr(nn, "RMSNorm"),
            hasattr(F, "rms_norm"),
            hasattr(F, "_scaled_dot_product_attention"),
            hasattr(nn, "Linearr"),
            hasattr(torch, "foobar"),
            getattr(nn.init, "made_up_", None) is None,
        )

    def forward(self, x):
        y = self.act(self.bn(self.fc(x)))
        y = functional.gelu(y) + F.silu(y) + torch.special.expit(y)
        y = self.drop(self.extra(y))
        scale = getattr(F, "softmax")(y, dim=-1)
        return y * scale, self.flags
