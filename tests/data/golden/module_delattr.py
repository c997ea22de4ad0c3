import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = 3
        self.fc = torch.nn.Linear(2, 2)
        self.extra = torch.nn.ReLU()
        self.register_buffer("b", torch.ones(2))
        del self.a
        del self.extra
        del self.b

    def forward(self, x):
        return self.fc(x), hasattr(self, "a"), hasattr(self, "extra"), hasattr(self, "b")
