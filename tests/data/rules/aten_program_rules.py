# Inference lowering of resnet18 as torch.export saves it (../programs/resnet18.pt2, torch 2.6
# only: out-of-place relu and add, _native_batch_norm_legit_no_training with a getitem for each
# of its three outputs), in four rules over aten ops.  Run with --fixpoint 4 --dce (case
# aten_resnet18_program).
# What it pins:
# - rule 1 matches a relu that reads a convolution, which only exists once rule 3 has folded
#   the batch norm in between: 0 matches in pass 1, the nine conv-bn-relu chains in pass 2;
# - rule 3 has three outputs and takes stride and padding as parameters (on torch 2.6 a
#   placeholder also matches a literal), so all 20 convolutions fold; its replacement makes two
#   empty tensors that nothing reads, which --dce removes with the program's unused
#   max-pool indices.  They read `mean`: were they to read the new convolution, rule 1 could
#   never match it (a node read outside a match cannot be inside it, and --dce only runs
#   after the last pass);
# - rules 2 and 4 fire in pass 1 only; pass 3 replaces nothing and ends the loop.
import torch

aten = torch.ops.aten


# 1. a convolution whose only reader is a relu -> the relu runs in place on its output
def conv_relu(x, w, b, stride, padding):
    y = aten.convolution.default(x, w, b, stride, padding, [1, 1], False, [0, 0], 1)
    return aten.relu.default(y)


def conv_relu_inplace(x, w, b, stride, padding):
    y = aten.convolution.default(x, w, b, stride, padding, [1, 1], False, [0, 0], 1)
    return aten.relu_.default(y)


# 2. relu of a residual sum -> the fused add-relu kernel
def add_relu(a, b):
    return aten.relu.default(aten.add.Tensor(a, b))


def add_relu_fused(a, b):
    return aten._add_relu.Tensor(a, b)


# 3. convolution followed by eval-mode batch norm -> one convolution with the batch norm
# folded into its weight and bias
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


# 4. the classifier's bias-add-matmul with a transposed weight -> linear
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
