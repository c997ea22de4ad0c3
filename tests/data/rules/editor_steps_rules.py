# Four rules for graft-editor's stepping test (tests/ui/test-rules.c) on
# torchvision's resnet18 as torch.fx traces it (../torchvision/resnet18.py).
# Rule 2 turns each residual `+` into a subtraction of the negation, which
# rule 1 folds into torch.add in the second pass; rules 3 and 4 take the
# flatten before the classifier through its method form to a reshape, rule 4
# matching what rule 3 made in the same pass.
import torch


def sub_neg(a, b):
    return torch.sub(a, torch.neg(b))


def torch_add(a, b):
    return torch.add(a, b)


def add_op(a, b):
    return a + b


def sub_of_neg(a, b):
    return torch.sub(a, torch.neg(b))


def flatten_fn(x):
    return torch.flatten(x, 1)


def flatten_method(x):
    return x.flatten(1)


def method_flatten(x):
    return x.flatten(1)


def reshape_rows(x):
    return x.reshape(x.size(0), -1)


RULES = [
    (sub_neg, torch_add),
    (add_op, sub_of_neg),
    (flatten_fn, flatten_method),
    (method_flatten, reshape_rows),
]
