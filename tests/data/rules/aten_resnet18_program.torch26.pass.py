# A torch.fx pass written by Graft from aten_program_rules.py, for torch 2.6.0.
# run(gm) applies the rules of RULES in order, each as one torch.fx.replace_pattern call,
# in passes until one replaces nothing (at most 4),
# then removes dead code (gm.graph.eliminate_dead_code()).
import torch
import torch.fx


aten = torch.ops.aten


def conv_relu(x, w, b, stride, padding):
    y = aten.convolution.default(x, w, b, stride, padding, [1, 1], False, [0, 0], 1)
    return aten.relu.default(y)


def conv_relu_inplace(x, w, b, stride, padding):
    y = aten.convolution.default(x, w, b, stride, padding, [1, 1], False, [0, 0], 1)
    return aten.relu_.default(y)


def add_relu(a, b):
    return aten.relu.default(aten.add.Tensor(a, b))


def add_relu_fused(a, b):
    return aten._add_relu.Tensor(a, b)


def conv_bn(x, w, stride, padding, bn_w, bn_b, mean, var):
    y = aten.convolution.default(x, w, None, stride, padding, [1, 1], False, [0, 0], 1)
    bn = aten._native_batch_norm_legit_no_training.default(y, bn_w, bn_b, mean, var, 0.1, 1e-05)
    return bn[0], bn[1], bn[2]


def conv_bn_folded(x, w, stride, padding, bn_w, bn_b, mean, var):
    scale = aten.mul.Tensor(bn_w, aten.rsqrt.default(aten.add.Tensor(var, 1e-05)))
    w2 = aten.mul.Tensor(w, aten.view.default(scale, [-1, 1, 1, 1]))
    b2 = aten.sub.Tensor(bn_b, aten.mul.Tensor(mean, scale))
    y = aten.convolution.default(x, w2, b2, stride, padding, [1, 1], False, [0, 0], 1)
    return y, aten.new_empty.default(mean, [0]), aten.new_empty.default(mean, [0])


def addmm_linear(b, x, w):
    return aten.addmm.default(b, x, aten.permute.default(w, [1, 0]))


def linear(b, x, w):
    return aten.linear.default(x, w, b)


RULES = [
    (conv_relu, conv_relu_inplace),
    (add_relu, add_relu_fused),
    (conv_bn, conv_bn_folded),
    (addmm_linear, linear),
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
