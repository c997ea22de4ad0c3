import torch
import torch.nn as nn
import torch.nn.functional as F


class SoftmaxDropout(nn.Module):
    def forward(self, x):
        a = F.softmax(x, 1)
        b = F.softmax(x, dim=-1)
        c = F.log_softmax(x, dim=1, dtype=torch.float64)
        d = F.dropout(x)
        e = F.dropout(x, 0.2, False)
        f = F.dropout(x, p=0.1, training=self.training)
        return a, b, c, d, e, f
