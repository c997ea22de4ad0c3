import torch.nn as nn
k = 2


class M(nn.Module):
    def forward(self, x):
        match 1:
            case k:
                pass
        global k
        return x * k
