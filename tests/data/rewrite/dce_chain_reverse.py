# graft-args: --dce
# Dead code goes from the last node back: the unused chain neg -> sigmoid -> relu goes
# whole (each erasure leaves the node before it unused), the replacement's unused copy
# (`dead`) goes, the unused argument stays.
import torch


class M(torch.nn.Module):
    def forward(self, x, unused):
        a = torch.neg(x)
        b = torch.sigmoid(a)
        c = torch.relu(b)
        d = torch.relu(torch.neg(x))
        e = torch.relu(torch.neg(d))
        return e


def pattern(p):
    return torch.relu(torch.neg(p))


def replacement(p):
    n = torch.neg(p)
    dead = torch.sigmoid(torch.exp(n))
    return torch.tanh(n)
