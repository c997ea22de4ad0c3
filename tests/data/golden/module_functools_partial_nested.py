import torch
import torch.nn as nn
import torch.nn.functional as F
from functools import partial


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        norm_layer = partial(LayerNorm2d, eps=1e-6)
        self.norm = norm_layer(8)
        bn = partial(nn.BatchNorm2d, eps=0.001, momentum=0.01)
        self.bn = bn(8)
        # a partial of a partial is flattened: func is nn.Conv2d, args (8, 8)
        p2 = partial(partial(nn.Conv2d, 8), 8, bias=False)
        self.conv = p2(3, padding=1)
        self.info = (p2.func is nn.Conv2d, p2.args, p2.keywords)

    def forward(self, x):
        return self.conv(self.bn(self.norm(x))), self.info


class LayerNorm2d(nn.LayerNorm):
    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)


