import torch
import torch.nn as nn


# A forward that reads its parameters long after binding many names, with
# names deleted and bound again between the reads: the tracer's recent
# lookups are checked by the string found at a position, which a `del`
# moves (the keys after it shift) and a rebinding puts at the end.
class M(nn.Module):
    def forward(self, x, w1, w2):
        a0 = x + w1
        a1 = a0 * w2
        a2 = a1 - w1
        a3 = a2 + w2
        a4 = a3 * w1
        a5 = a4 - w2
        a6 = a5 + w1
        a7 = a6 * w2
        a8 = a7 - w1
        a9 = a8 + w2
        del a0
        b0 = a9 * w1
        del a1, a2
        b1 = b0 + w2
        w1 = b1 - w1
        b2 = w1 * w2
        del a3
        b3 = b2 + w1
        a0 = b3 - w2
        b4 = a0 * w1
        del w2
        w2 = b4 + x
        b5 = w2 - w1
        return b5 + a9 + w1 + w2
