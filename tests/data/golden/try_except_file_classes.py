import torch


class ShapeError(ValueError):
    pass


class RankError(ShapeError, KeyError):
    pass


class Other(Exception):
    pass


def need(n):
    if n < 3:
        raise RankError("rank")
    return n


class M(torch.nn.Module):
    def forward(self, x):
        out = []
        for n in range(5):
            try:
                need(n)
                out.append(n)
            except LookupError as e:
                out.append((type(e).__name__, isinstance(e, ValueError), isinstance(e, ShapeError),
                            isinstance(e, Other), isinstance(e, IndexError)))
        try:
            try:
                need(0)
            except Other:
                out.append("other")
        except ShapeError:
            out.append("shape")
        try:
            raise Other
        except (ShapeError, Other) as e:
            out.append(type(e).__name__)
        return x + len(out), out
