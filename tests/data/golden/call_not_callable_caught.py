import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, code=3):
        super().__init__()
        try:
            __name__().__init__(code)
        except Exception as e:
            code = type(e).__name__
        self.code = code

    def forward(self, x):
        names = []
        for f in ("relu", 2, (1, 2), None, [x]):
            try:
                f(x)
            except TypeError as e:
                names.append(type(e).__name__)
        return x + len(names), self.code
