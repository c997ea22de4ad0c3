import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = C1(4, 4, 3, padding=1, padding_mode='reflect')
        self.c3 = C3(2, 2, 1, groups=2)
        self.cr = CR(3, 3, (3, 5), padding='same', dilation=2, padding_mode='circular')
        self.r6 = R6()
        self.ht = HT(-2.0, 2.0)
        self.e = E(0.5)
        self.sp = SP(2, 10)
        self.ls = LS(1)
        self.mi = MI()
        self.hs = HS()
        self.hg = HG()
        self.mp = MP1(3, 1, 1)
        self.ap = AP1(5)

    def forward(self, x, y, z):
        a = self.ap(self.mp(self.c1(x)))
        b = self.c3(y)
        c = self.hg(self.hs(self.mi(self.ls(self.sp(self.e(self.ht(self.r6(self.cr(z)))))))))
        return a, b, c


class C1(nn.Conv1d):
    pass


class C3(nn.Conv3d):
    pass


class CR(nn.Conv2d):
    def forward(self, x):
        return super().forward(x).relu()


class R6(nn.ReLU6):
    pass


class HT(nn.Hardtanh):
    pass


class E(nn.ELU):
    pass


class SP(nn.Softplus):
    pass


class LS(nn.LogSoftmax):
    pass


class MI(nn.Mish):
    pass


class HS(nn.Hardswish):
    pass


class HG(nn.Hardsigmoid):
    pass


class MP1(nn.MaxPool1d):
    pass


class AP1(nn.AdaptiveAvgPool1d):
    pass


class UnusedBN(nn.BatchNorm2d):
    pass
