import torch


class ShapeError(ValueError):
    pass


class Custom(Exception):
    def __init__(self, n):
        super().__init__("n=%d" % n)


def check(n):
    if n > 1:
        raise ShapeError("rank", n)
    return n


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = {"scale": 2}

    def forward(self, x):
        msgs = []
        try:
            s = self.cfg["shift"]
        except KeyError as e:
            msgs.append((str(e), repr(e), e.args, f"{e}"))
        try:
            v = [1, 2][7]
        except IndexError as e:
            msgs.append((str(e), repr(e)))
        try:
            v = "ab"[7]
        except LookupError as e:
            msgs.append(str(e))
        try:
            check(3)
        except ValueError as e:
            msgs.append((str(e), repr(e), e.args))
        try:
            raise RuntimeError("boom")
        except RuntimeError as e:
            msgs.append("caught: %s" % e)
        try:
            try:
                raise ShapeError
            except ShapeError:
                raise
        except Exception as e:
            msgs.append((str(e), repr(e), e.args))
        try:
            raise TypeError("a", 1, None)
        except TypeError as e:
            msgs.append(str(e))
        return x + len(msgs), msgs
