import torch


class ConfigError(ValueError):
    pass


class DeepError(ConfigError):
    pass


def check(n):
    if n > 2:
        raise DeepError("too many")
    return n


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 3

    def forward(self, x):
        try:
            check(self.n)
            y = x + 1
        except ValueError:
            y = x - 1
        try:
            check(self.n)
        except ConfigError as e:
            y = y * 2
        try:
            raise DeepError("a")
        except (KeyError, Exception):
            y = y / 2
        return y
