import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        return torch.einsum('ij,jk->ik', [x, y]) + torch.einsum('ij,jk->ik', x, y)
