import torch
import torch.nn as nn


class MyConv(nn.Conv2d):
    pass


class MyLN(nn.LayerNorm):
    pass


class MyGELU(nn.GELU):
    pass


class MySoftmax(nn.Softmax):
    pass


class MyEmb(nn.Embedding):
    pass


class MyLeaky(nn.LeakyReLU):
    pass


class MySiLU(nn.SiLU):
    pass


class MyFlat(nn.Flatten):
    pass


class MyMax(nn.MaxPool2d):
    pass


class MyAvg(nn.AdaptiveAvgPool2d):
    pass


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = MyConv(3, 8, 3, stride=2, padding=1)
        self.conv2 = MyConv(8, 8, (3, 1), bias=False, padding='same')
        self.ln = MyLN([8, 4])
        self.ln2 = MyLN(4, elementwise_affine=False, eps=1e-6)
        self.act = MyGELU(approximate='tanh')
        self.sm = MySoftmax(dim=-1)
        self.emb = MyEmb(10, 4, padding_idx=0)
        self.lk = MyLeaky(0.2)
        self.silu = MySiLU()
        self.fl = MyFlat(1)
        self.mp = MyMax(2)
        self.ap = MyAvg((1, 1))

    def forward(self, x, idx):
        y = self.conv2(self.conv(x))
        y = self.ln2(self.ln(self.act(y)))
        return self.fl(self.ap(self.mp(self.silu(self.lk(self.sm(y)))))), self.emb(idx)
