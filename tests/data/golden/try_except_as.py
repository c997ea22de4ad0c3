import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ps = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(4))])

    def forward(self, x):
        names = []
        try:
            if x.sum() > 0:
                x = x + 1
        except Exception as e:
            x = x * 2
            names.append(type(e).__name__)
            names.append(str(type(e)))
        try:
            raise KeyError("k")
        except LookupError as err:
            x = x - 1
            names.append(type(err).__name__)
            names.append(type(err) is KeyError)
            names.append(isinstance(err, KeyError))
        try:
            try:
                next(iter(self.ps))
                next(iter([]))
            except StopIteration as stop:
                names.append(type(stop).__name__)
                raise
        except StopIteration:
            x = x + 5
        try:
            try:
                len(x)
            except RuntimeError as r:
                raise r
        except RuntimeError as r2:
            names.append(type(r2).__name__)
        e = 3
        try:
            raise ValueError()
        except ValueError as e:
            pass
        return x, names
