# A head assembled from eight blocks that each end in a relu, with the blocks' bodies stripped:
# what is left is a chain of relus, which collapse_rules.py folds pairwise, one level per pass.
import torch


class StackedActivations(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 16)

    def forward(self, x):
        y = self.fc(x)
        for _ in range(8):
            y = torch.relu(y)
        return y.sum(1)
