import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        # A transposed mask, made contiguous where a view needs it.
        self.register_buffer("mask", torch.ones(4, 4).tril().t().contiguous().view(1, 16))

    def forward(self, x):
        t = torch.ones(2, 3, 4).permute(2, 0, 1)
        a = t.reshape(4, 6)  # a copy: the strides do not allow a view
        b = t.view(4, 2, 3, 1)  # splits and adds a 1: a view
        c = torch.ones(2, 3).t() + torch.ones(3, 2)  # laid out as the first
        d = torch.ones(4, 6)[::2, 1:].narrow(1, 0, 2)
        e = torch.ones(3, 1).expand(3, 4).exp()
        f = torch.zeros_like(torch.ones(2, 3, 4)[:, 1:, ::2])
        return (
            x + self.mask,
            t.stride(),
            t.is_contiguous(),
            a.stride(),
            b.stride(),
            c.stride(),
            d.stride(),
            d.shape,
            e.stride(),
            f.stride(),
            torch.ones(1, 3).t().stride(),
            torch.ones(2, 6).unflatten(1, (2, -1)).stride(),
            torch.ones(2, 3)[None, :, None].stride(),
        )
