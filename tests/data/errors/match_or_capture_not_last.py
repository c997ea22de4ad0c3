import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        match 3:
            case 1 | y:
                pass
            case 2:
                pass
        return x
