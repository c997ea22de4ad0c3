import torch
import torch.nn as nn
import torch.nn.functional as F


class Activations(nn.Module):
    def forward(self, x):
        x = F.relu(x)
        x = F.relu(x, inplace=True)
        x = F.gelu(x)
        x = F.leaky_relu(x, 0.2)
        x = F.elu(x)
        x = F.hardtanh(x, -2.0, 2.0)
        x = F.silu(x)
        x = F.sigmoid(x)
        x = F.tanh(x)
        x = F.logsigmoid(x)
        x = F.softplus(x)
        x = F.relu6(x)
        x = F.hardswish(x)
        return x
