import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        t = torch.ones(1, 2, 3, 4)
        up = F.interpolate(t, scale_factor=1.5, mode="bilinear", align_corners=False)
        padded = F.pad(torch.ones(3, 4), (1, 2, 0, 1), value=0.5)
        probs = F.softmax(torch.ones(3, 4).t(), dim=-1)
        unit = F.normalize(torch.ones(2, 3), dim=0)
        gate = F.sigmoid(torch.ones(2, 3, dtype=torch.long))
        x = x * up.shape[-1] + padded.view(-1).shape[0]
        x = x + probs.view(12).sum() + unit.view(6).sum()
        if gate.dtype == torch.float32:
            x = x + F.tanh(torch.ones(4)).view(2, 2).shape[1]
        return x
