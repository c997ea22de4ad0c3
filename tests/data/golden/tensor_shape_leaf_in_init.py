import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.emb = nn.Embedding(10, 6)
        self.n = self.fc.weight.shape[0] + self.emb.weight.size(1)
        self.out = nn.Linear(self.fc.in_features, self.emb.embedding_dim)
        self.register_buffer("w0", self.fc.weight.detach().clone().t())

    def forward(self, x):
        return self.out(x) * self.n, self.w0.shape, self.fc.weight.dtype if False else 0
