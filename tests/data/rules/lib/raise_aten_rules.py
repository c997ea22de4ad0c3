# A rules file kept in its own folder (lib/), away from both the input (../aten/mlp.py) and the
# folder the command runs in: --rules names it by its path, and nothing in it depends on
# where it is.  Case rules_elsewhere.
# It raises make_fx's decomposed ops back to the ops a user wrote: the bias-add-matmul with a
# transposed weight to linear (twice), the internal _softmax to softmax.
import torch

aten = torch.ops.aten


def addmm_t(b, x, w):
    return aten.addmm.default(b, x, aten.t.default(w))


def linear(b, x, w):
    return aten.linear.default(x, w, b)


def internal_softmax(x):
    return aten._softmax.default(x, -1, False)


def softmax(x):
    return aten.softmax.int(x, -1)


RULES = [
    (addmm_t, linear),
    (internal_softmax, softmax),
]
