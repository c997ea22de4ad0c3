# A program's batch size (sym_size_int_1, which torch's namespace holds as sym_size_int):
# chained rules that make sym_size.int nodes get torch's names: the first's copy is named
# sym_size_int_1 while the node it replaces still is (then erased), the third's sym_size_int_2
# (docs/programs.md).
import torch
aten = torch.ops.aten
def sym_size(x):
    return aten.sym_size.int(x, 0)
def sym_size_neg(x):
    return aten.neg.default(aten.sym_size.int(x, 0))
def neg(s):
    return aten.neg.default(s)
def neg_size(s):
    return aten.mul(s, -1)
def view_size(x, s):
    return aten.view.default(x, [s, -1, 4])
def view_size_new(x, s):
    return aten.view.default(x, [aten.sym_size.int(x, 0), -1, 4])
RULES = [
    (sym_size, sym_size_neg),
    (neg, neg_size),
    (view_size, view_size_new),
]
