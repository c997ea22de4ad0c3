import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, (3, 5), stride=2, padding=1, groups=1)
        self.bn = nn.BatchNorm2d(8, eps=1e-3, momentum=None)
        self.ln = nn.LayerNorm([4, 4])
        self.emb = nn.Embedding(10, 3, padding_idx=0)
        self.drop = nn.Dropout(0.25)
        self.act = nn.ReLU(inplace=True)
        self.pool = nn.MaxPool2d(2)
        self.gn = nn.GroupNorm(2, 8)
        self.fc = nn.Linear(4, 5)

    def forward(self, x):
        s = (self.conv.stride, self.conv.padding, self.conv.kernel_size, self.conv.in_channels,
             self.conv.out_channels, self.conv.groups, self.conv.dilation, self.conv.padding_mode)
        t = (self.bn.num_features, self.bn.eps, self.bn.momentum, self.bn.affine, self.bn.track_running_stats)
        u = (self.ln.normalized_shape, self.ln.eps, self.ln.elementwise_affine)
        v = (self.emb.num_embeddings, self.emb.embedding_dim, self.emb.padding_idx)
        w = (self.drop.p, self.act.inplace, self.pool.kernel_size, self.pool.stride, self.gn.num_groups, self.gn.eps)
        return x * self.fc.in_features, s, t, u, v, w, self.training, self.fc.training
