# An MLP whose two dropouts have different probabilities (in eval mode, training=False).
import torch
import torch.nn.functional as F


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(32, 64)
        self.fc2 = torch.nn.Linear(64, 64)
        self.fc3 = torch.nn.Linear(64, 10)

    def forward(self, x):
        x = torch.flatten(x, 1)
        x = F.dropout(F.relu(self.fc1(x)), p=0.1, training=False)
        x = F.dropout(F.relu(self.fc2(x)), p=0.25, training=False)
        return self.fc3(x)
