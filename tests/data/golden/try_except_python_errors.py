import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = {"scale": 2}

    def forward(self, x):
        try:
            s = self.cfg["shift"]
        except KeyError:
            s = 0
        items = [1, 2]
        try:
            v = items[5]
        except IndexError:
            v = -1
        a = 3
        try:
            q2 = 7 % 0
        except ArithmeticError:
            a = 6
        try:
            lst = [1, 2]
            lst[4] = 3
        except LookupError:
            a = a + 1
        try:
            lst.pop(7)
        except Exception:
            a = a + 1
        try:
            z = {(1, "a"): 2}[(1, "b")]
        except KeyError:
            a = a + 1
        try:
            q = 1 / 0
        except ZeroDivisionError:
            q = 4
        try:
            i = [1][2]
        except IndexError:
            i = 5
        return x * self.cfg["scale"] + s + v + a + q + i
