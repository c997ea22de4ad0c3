"""ViT front end: patch embedding, class token, position embedding."""
import torch
from torch import nn, Tensor


class TinyViT(nn.Module):
    def __init__(self, num_classes: int = 10, embed_dim: int = 48) -> None:
        super().__init__()
        self.patch_embed = PatchEmbed(embed_dim=embed_dim)
        n = self.patch_embed.num_patches
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, n + 1, embed_dim))
        self.pos_drop = nn.Dropout(p=0.1)
        self.norm = nn.LayerNorm(embed_dim, eps=1e-6)
        self.head = nn.Linear(embed_dim, num_classes)

    def forward_features(self, x: Tensor) -> Tensor:
        x = self.patch_embed(x)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1)
        x = self.pos_drop(x + self.pos_embed)
        return self.norm(x)

    def forward(self, x: Tensor) -> Tensor:
        x = self.forward_features(x)
        return self.head(x[:, 0])


class PatchEmbed(nn.Module):
    """Image to patch tokens with a strided convolution."""

    def __init__(self, img_size: int = 32, patch_size: int = 8, in_chans: int = 3, embed_dim: int = 48) -> None:
        super().__init__()
        self.num_patches = (img_size // patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x: Tensor) -> Tensor:
        x = self.proj(x)  # B, C, H', W'
        return x.flatten(2).transpose(1, 2)  # B, N, C
