import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.tag = f"{__name__}.{type(self).__name__}"

    def forward(self, x):
        return x, __name__, self.tag, M.__module__ if False else len(__name__)


if __name__ == "__main__":
    M()(torch.ones(2))
