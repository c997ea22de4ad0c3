import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = torch.nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, batch_first=True)
        self.dec = torch.nn.TransformerDecoderLayer(16, 2, 24, norm_first=True)

    def forward(self, x, m):
        y = self.enc(x)
        names = [n for n, _ in self.named_parameters()]
        mods = [n for n, _ in self.named_modules()]
        return (y, self.enc.norm_first, self.enc.self_attn.batch_first, self.enc.linear1.out_features,
                self.enc.self_attn(x, x, x), self.enc.norm1(x), self.enc.dropout.p, self.enc.activation_relu_or_gelu,
                self.dec.norm_first, self.dec.multihead_attn.num_heads, self.enc.linear2.weight + 1,
                names, mods)
