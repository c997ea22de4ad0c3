import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = torch.nn.TransformerEncoderLayer(8, 2, 16, 0.0, "gelu")
        self.enc2 = torch.nn.TransformerEncoderLayer(8, 2, 16, activation=torch.nn.GELU())
        self.dec = torch.nn.TransformerDecoderLayer(8, 2, 16, activation="relu", batch_first=True)
        self.attn = torch.nn.MultiheadAttention(8, 2, 0.1, False, True, True)

    def forward(self, x, m):
        h = self.enc.self_attn.out_proj(x)
        kids = [n for n, _ in self.enc2.named_children()]
        bufs = [n for n, _ in self.named_buffers()]
        ps = [n for n, _ in self.attn.named_parameters()]
        for layer in [self.enc.linear1, self.enc.linear2]:
            h = layer(h) if layer.in_features == 8 else h
        return (h, self.enc.activation_relu_or_gelu, self.enc2.activation_relu_or_gelu, kids, bufs, ps,
                self.dec.multihead_attn.out_proj.bias, self.attn.bias_k + self.attn.bias_v,
                self.attn.in_proj_bias, self.attn.out_proj.bias, self.enc2.activation(x),
                self.dec.norm3.eps, self.enc.dropout.p, len(list(self.modules())))
