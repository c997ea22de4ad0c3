import torch


class M(torch.nn.Module):
    def forward(self, a: list[int], b: dict[str, torch.Tensor], c: tuple[int, int], d: tuple, e: "torch.Tensor", f: int | None) -> tuple[torch.Tensor, torch.Tensor]:
        return a, b
