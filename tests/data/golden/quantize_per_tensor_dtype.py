import torch


class M(torch.nn.Module):
    def forward(self, x, s, z):
        q = torch.quantize_per_tensor(x, 0.1, 0, torch.quint8)
        c = torch.quantize_per_channel(x, s, z, 0, torch.qint8)
        return q.dequantize() + c.dequantize()
