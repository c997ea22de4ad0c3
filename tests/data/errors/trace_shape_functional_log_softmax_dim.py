import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # the dim checked
        t = torch.ones(3, 4)
        return x + F.log_softmax(t, 2)
