import math
import torch


class M(torch.nn.Module):
    def forward(self, x):
        strings = ('été'[::-1], 'été'[1], 'aé'[-1:], 'a\x00b'.upper(), len('a\x00b'.lower()))
        rounding = (round(2.675, 2), round(True, 2), round(True), round(1234.5, -2), round(1350, -2),
                    round(-1250, -2), round(0.045, 2), round(-0.04, 1))
        floats = (-math.inf // 0.3, 7.5 % -2, -5 // math.inf, 0.0 // -3.0, (-8) ** 0.5, (-2.0) ** 1.5)
        maths = (math.fsum([0.1] * 10), math.fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]),
                 math.hypot(1.1, 2.3), math.hypot(0.1, 0.2, 0.3), math.copysign(1, -0.0), math.degrees(1),
                 math.radians(90), pow(3, 5, -7), pow(2, 100, 1000000007), float.fromhex('0x1.8p1'),
                 float.fromhex(' -0x1p-1074 '))
        device = (repr(torch.device('cuda:1')), torch.device('cuda', 0).index, torch.device('cuda:1').type)
        return x * len(strings), strings, rounding, floats, maths, device
