import torch.nn as nn


class Net(nn.Module):
    def __init__(self, width=4):
        super().__init__()
        self.fc = nn.Linear(width, width)
        # a builder's habit: type.__call__ wants None back
        return self

    def forward(self, x):
        return self.fc(x)
