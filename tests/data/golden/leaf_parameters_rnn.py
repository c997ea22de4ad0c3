import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.lstm = nn.LSTM(3, 3)

    def forward(self, x):
        for p in self.parameters():
            x = x + p
        return x
