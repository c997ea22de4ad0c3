import math
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.big = 10 ** 20

    def forward(self, x):
        a = (2 ** 64 + 1, -(2 ** 63), 2 ** 100 // 3, -(2 ** 100) // 3, 2 ** 100 % 7, 2 ** 100 / 3, 1 << 100, ~(2 ** 70))
        b = (2 ** 100 > 1e30, 2 ** 100 == 2.0 ** 100, abs(-(2 ** 70)), int(2 ** 80), float(2 ** 80), str(3 ** 50))
        c = ((2 ** 64) & (2 ** 64 + 5), 2 ** -70, 10 ** 20 - 10 ** 20, max(2 ** 70, 3), divmod(2 ** 70, 3), round(2 ** 70))
        return x * self.big, x + 2 ** 64, a, b, c
