import torch
import torch.nn as nn


# Suffixes of 19 digits and more: torch counts on from them with Python
# integers (torch 2.x from each base's count, torch 1.x from the candidate's
# own number), and leading zeros go as int() drops them.
class NamingHugeSuffixes(nn.Module):
    def __init__(self):
        super().__init__()
        self.add_5 = nn.ReLU()
        self.mul_99999999999999999999 = nn.ReLU()
        self.layers = nn.ModuleDict({"relu_123456789012345678901234567890": nn.ReLU()})

    def forward(self, add_1000000000000000000, add_1000000000000000001, add_001000000000000000003,
                sub_999999999999999999999999999999999999999999999999999999999999, mul_0099, x_007):
        a = add_1000000000000000000 + 1
        b = a + add_1000000000000000001
        c = b + add_001000000000000000003
        d = c - sub_999999999999999999999999999999999999999999999999999999999999
        e = d - 1
        f = self.add_5(e)
        g = f + 1
        h = self.mul_99999999999999999999(g) * mul_0099
        i = h * x_007
        j = self.layers["relu_123456789012345678901234567890"](i)
        k = self.layers["relu_123456789012345678901234567890"](j)
        return k - self.mul_99999999999999999999(k) * 2
