import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # the output size as given, None the input's
        t = torch.ones(1, 2, 4, 5)
        return x + F.adaptive_avg_pool2d(t, (3, None)).flatten(1).view(31)
