"""Patterns over the real_* models of ../golden (models27): attention
scores, softmax, GELU MLPs, residual adds, RMS normalisation."""
import torch
import torch.nn.functional as F


def scores_scaled(q, k, scale):
    return torch.matmul(q, k.transpose(-2, -1)) * scale


def scores_prescaled(q, k, scale):
    return torch.matmul(q * scale, k.transpose(-2, -1))


def softmax_last(x):
    return F.softmax(x, dim=-1)


def softmax_last_method(x):
    return x.softmax(-1)


def matmul_op(a, b):
    return a @ b


def matmul_fn(a, b):
    return torch.matmul(a, b)


def masked_neg_inf(x, mask):
    return x.masked_fill(mask, float("-inf"))


def masked_neg_inf_where(x, mask):
    return torch.where(mask, torch.full_like(x, float("-inf")), x)


def rms(x, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)


def rms_sqrt(x, eps):
    return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps)


def cat_skip(a, b):
    return torch.cat((a, b), dim=1)


def cat_skip_list(a, b):
    return torch.cat([b, a], 1).flip(1)


def sigmoid_gate(x, g):
    return x * torch.sigmoid(g)


def sigmoid_gate_silu(x, g):
    return x * F.silu(g) / g


def interp_nearest(x, size):
    return F.interpolate(x, size=size, mode="nearest")


def interp_nearest_exact(x, size):
    return F.interpolate(x, size=size, mode="nearest-exact")


def permute_last(x):
    return x.permute(0, 2, 3, 1)


def permute_last_movedim(x):
    return x.movedim(1, -1)
