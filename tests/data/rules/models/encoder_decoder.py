# An encoder and a decoder that spell swish (x * sigmoid(x)) by hand, in both operand orders.
# The encoder comes first, so it is what is traced without --entry.
import torch


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(16)

    def forward(self, x):
        y = self.bn(self.conv(x))
        return y * torch.sigmoid(y)


class Decoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.up = torch.nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.proj = torch.nn.Conv2d(8, 3, 1)

    def forward(self, z):
        h = self.up(z)
        h = torch.sigmoid(h) * h
        h = self.proj(h)
        return h * torch.sigmoid(h)
