import torch


class ShapeError(ValueError):
    pass


class M(torch.nn.Module):
    def forward(self, x):
        out = []
        try:
            err = ShapeError("bad", 2)
            raise err
        except ValueError as e:
            out.append((str(e), repr(e), e.args, type(e).__name__))
        errs = [KeyError("k"), IndexError(), RuntimeError(1.5, None)]
        for err in errs:
            try:
                raise err
            except LookupError as e:
                out.append(("lookup", str(e), repr(e)))
            except Exception as e:
                out.append(("other", str(e), isinstance(e, RuntimeError)))
        made = ValueError("m")
        out.append((str(made), repr(made), isinstance(made, Exception)))
        return x + len(out), out
