# A torch.fx pass written by Graft from aten_resnet18_rules.py, for torch 2.6.0.
# run(gm) applies the rules of RULES in order, each as one torch.fx.replace_pattern call,
# in passes until one replaces nothing (at most 4),
# then removes dead code (gm.graph.eliminate_dead_code()).
import torch
import torch.fx


aten = torch.ops.aten


def add_relu(a, b):
    return aten.relu.default(aten.add.Tensor(a, b))


def add_relu_fused(a, b):
    return aten._add_relu.Tensor(a, b)


def relu_inplace(x):
    return aten.relu_.default(x)


def relu_out_of_place(x):
    return aten.relu.default(x)


def add_inplace(a, b):
    return aten.add_.Tensor(a, b)


def add_out_of_place(a, b):
    return aten.add.Tensor(a, b)


def conv3x3_bn(x, w, bn_w, bn_b, mean, var):
    y = aten.convolution.default(x, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
    bn = aten.native_batch_norm.default(y, bn_w, bn_b, mean, var, False, 0.1, 1e-05)
    return bn[0], bn[1], bn[2]


def conv3x3_bn_folded(x, w, bn_w, bn_b, mean, var):
    scale = aten.mul.Tensor(bn_w, aten.rsqrt.default(aten.add.Tensor(var, 1e-05)))
    w2 = aten.mul.Tensor(w, aten.view.default(scale, [-1, 1, 1, 1]))
    b2 = aten.sub.Tensor(bn_b, aten.mul.Tensor(mean, scale))
    y = aten.convolution.default(x, w2, b2, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
    return y, aten.new_empty.default(mean, [0]), aten.new_empty.default(mean, [0])


RULES = [
    (add_relu, add_relu_fused),
    (relu_inplace, relu_out_of_place),
    (add_inplace, add_out_of_place),
    (conv3x3_bn, conv3x3_bn_folded),
]


def _replace(gm, pattern, replacement):
    try:
        return len(torch.fx.replace_pattern(gm, pattern, replacement))
    except KeyError:
        # torch.fx raises KeyError when an operation of the pattern never occurs
        # in the graph: that is no match.
        return 0


def run(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    rules = RULES
    for _ in range(4):
        replaced = 0
        for pattern, replacement in rules:
            replaced += _replace(gm, pattern, replacement)
        if replaced == 0:
            break
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return gm
