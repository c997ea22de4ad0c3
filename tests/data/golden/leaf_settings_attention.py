import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = torch.nn.MultiheadAttention(16, 4, batch_first=True)
        self.attn2 = torch.nn.MultiheadAttention(16, 2, kdim=8, vdim=8, bias=False)

    def forward(self, x, k):
        y, w = self.attn(x, x, x)
        names = [n for n, _ in self.named_parameters()]
        mods = [n for n, _ in self.named_modules()]
        return (y, self.attn.embed_dim, self.attn.num_heads, self.attn.head_dim, self.attn.batch_first,
                self.attn.dropout, self.attn._qkv_same_embed_dim, self.attn2._qkv_same_embed_dim,
                self.attn.out_proj.weight + 1, self.attn.in_proj_bias, self.attn2.in_proj_weight,
                self.attn2.q_proj_weight, self.attn2.in_proj_bias, self.attn2.bias_k, self.attn.add_zero_attn,
                self.attn.kdim, self.attn2.vdim, names, mods, self.attn.out_proj.in_features)
