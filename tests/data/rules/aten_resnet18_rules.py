# Inference lowering of resnet18 as make_fx records it (../aten/resnet18.py: in-place relu_ and
# add_, eval-mode native_batch_norm with its three outputs), in four rules over aten ops.
# Run with --fixpoint 4 --dce (case aten_resnet18).
# What it pins:
# - rule 1 only matches what rules 2 and 3 make, so it replaces nothing in pass 1 and every
#   residual relu in pass 2; pass 3 replaces nothing and ends the loop;
# - some patterns' ops are absent when their rule runs (relu.default in pass 1, relu_ and add_
#   from pass 2): 0 matches, where torch 1.13.1 alone raises KeyError;
# - rule 4 has three outputs and spells out its literals (torch 1.13.1's placeholders never
#   match a literal), so only the 13 stride-1 3x3 convolutions fold; its replacement makes two
#   empty tensors that nothing reads (the eval-mode batch norm's saved statistics), which
#   --dce removes with the unused getitems (the max pool's indices, the saved statistics of
#   the seven batch norms that rule 4 does not fold).  They read `mean`, not the
#   convolution: a dead reader of a node keeps a later pattern from matching through it,
#   since --dce only runs after the last pass.
import torch

aten = torch.ops.aten


# 1. relu of a residual sum -> the fused add-relu kernel
def add_relu(a, b):
    return aten.relu.default(aten.add.Tensor(a, b))


def add_relu_fused(a, b):
    return aten._add_relu.Tensor(a, b)


# 2. and 3. in-place ops -> their out-of-place forms
def relu_inplace(x):
    return aten.relu_.default(x)


def relu_out_of_place(x):
    return aten.relu.default(x)


def add_inplace(a, b):
    return aten.add_.Tensor(a, b)


def add_out_of_place(a, b):
    return aten.add.Tensor(a, b)


# 4. a 3x3 stride-1 convolution followed by eval-mode batch norm -> one convolution with the
# batch norm folded into its weight and bias
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
