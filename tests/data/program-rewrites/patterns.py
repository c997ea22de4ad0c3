# Pattern / replacement pairs over aten ops for the program-rewrites suite: each NAME.args case
# names a program of ../programs and one pair of this file (paths relative to tests/data).
# The functions are traced by torch.fx.symbolic_trace: a torch.ops.aten call records a
# call_function node whose target is that OpOverload, as in the programs.
# On torch 2.6 a pattern placeholder also matches a literal (a list, a number, None), so the
# sizes, strides and scales that differ from call to call are parameters here.
import torch

aten = torch.ops.aten


# conv followed by eval-mode batch norm (the core form) -> one convolution with folded
# weights.  After torch.export.load, the batch norm node has a getitem for each of its three
# outputs (two of them unused); a match may not leave a node used outside it, so the
# pattern takes all three getitems, and the replacement returns three values.
def conv_bn(x, w, stride, padding, bn_w, bn_b, mean, var):
    y = aten.convolution.default(x, w, None, stride, padding, [1, 1], False, [0, 0], 1)
    bn = aten._native_batch_norm_legit_no_training.default(y, bn_w, bn_b, mean, var, 0.1, 1e-05)
    return bn[0], bn[1], bn[2]


def conv_bn_folded(x, w, stride, padding, bn_w, bn_b, mean, var):
    scale = aten.mul.Tensor(bn_w, aten.rsqrt.default(aten.add.Tensor(var, 1e-05)))
    w2 = aten.mul.Tensor(w, aten.view.default(scale, [-1, 1, 1, 1]))
    b2 = aten.sub.Tensor(bn_b, aten.mul.Tensor(mean, scale))
    y = aten.convolution.default(x, w2, b2, stride, padding, [1, 1], False, [0, 0], 1)
    return y, mean, var


# the same with the 3x3 stride-1 convolutions' literals written out: only those match
def conv3x3_bn(x, w, bn_w, bn_b, mean, var):
    y = aten.convolution.default(x, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
    bn = aten._native_batch_norm_legit_no_training.default(y, bn_w, bn_b, mean, var, 0.1, 1e-05)
    return bn[0], bn[1], bn[2]


def conv3x3_bn_folded(x, w, bn_w, bn_b, mean, var):
    return conv_bn_folded(x, w, [1, 1], [1, 1], bn_w, bn_b, mean, var)


# the pattern as one would first write it, returning the normalized output only: it matches
# nothing in a loaded program, whose unused batch-norm outputs still have getitem nodes
def conv_bn_out0(x, w, stride, padding, bn_w, bn_b, mean, var):
    y = aten.convolution.default(x, w, None, stride, padding, [1, 1], False, [0, 0], 1)
    bn = aten._native_batch_norm_legit_no_training.default(y, bn_w, bn_b, mean, var, 0.1, 1e-05)
    return bn[0]


def conv_bn_out0_folded(x, w, stride, padding, bn_w, bn_b, mean, var):
    return conv_bn_folded(x, w, stride, padding, bn_w, bn_b, mean, var)[0]


# the bias-add-matmul form of the core IR -> linear, and back
def addmm_linear(b, x, w):
    return aten.addmm.default(b, x, aten.permute.default(w, [1, 0]))


def addmm_linear_replacement(b, x, w):
    return aten.linear.default(x, w, b)


def linear_addmm(x, w, b):
    return aten.linear.default(x, w, b)


def linear_addmm_replacement(x, w, b):
    return aten.addmm.default(b, x, aten.t.default(w))


# relu of a residual add -> a clamp of it
def relu_add(a, b):
    return aten.relu.default(aten.add.Tensor(a, b))


def relu_add_clamp(a, b):
    return aten.clamp_min.default(aten.add.Tensor(a, b), 0)


# a view followed by a permute -> reshape, then permute
def view_permute(x, size, dims):
    return aten.permute.default(aten.view.default(x, size), dims)


def reshape_permute(x, size, dims):
    return aten.permute.default(aten.reshape.default(x, size), dims)


# ShuffleNet's channel shuffle: view, transpose, contiguous, view -> one permute in between
def channel_shuffle(x, split, merged):
    y = aten.transpose.int(aten.view.default(x, split), 1, 2)
    return aten.view.default(aten.contiguous.default(y), merged)


def channel_shuffle_permute(x, split, merged):
    y = aten.permute.default(aten.view.default(x, split), [0, 2, 1, 3, 4])
    return aten.reshape.default(y, merged)


# exact GELU -> its erf formula; exact GELU -> the tanh approximation
def gelu(x):
    return aten.gelu.default(x)


def gelu_erf(x):
    inner = aten.erf.default(aten.mul.Tensor(x, 0.7071067811865476))
    return aten.mul.Tensor(aten.mul.Tensor(x, 0.5), aten.add.Tensor(inner, 1))


def gelu_tanh(x):
    return aten.gelu.default(x, approximate="tanh")


# MobileNetV3's hardswish, as run_decompositions() spells it -> the op
def hardswish_decomposed(x):
    y = aten.clamp.default(aten.clamp.default(aten.add.Tensor(x, 3), 0), None, 6)
    return aten.div.Tensor(aten.mul.Tensor(x, y), 6)


def hardswish(x):
    return aten.hardswish.default(x)


# hand-written attention -> scaled_dot_product_attention
def softmax_attention(q, k, v, scale):
    s = aten.mul.Tensor(aten.matmul.default(q, aten.transpose.int(k, -2, -1)), scale)
    return aten.matmul.default(aten.softmax.int(s, -1), v)


def sdpa(q, k, v, scale):
    return aten.scaled_dot_product_attention.default(q, k, v, scale=scale)


# eval-mode dropout -> nothing (with --ignore-literals: whatever its probability)
def dropout(x):
    return aten.dropout.default(x, 0.5, False)


def identity(x):
    return x


# chunk into three -> three slices (a pattern with several outputs)
def chunk3(x):
    c = aten.chunk.default(x, 3, 1)
    return c[0], c[1], c[2]


def chunk3_slices(x):
    return (aten.slice.Tensor(x, 1, 0, 2), aten.slice.Tensor(x, 1, 2, 4),
            aten.slice.Tensor(x, 1, 4, 6))


# a view to a size computed from a symbolic batch, then linear -> reshape, then linear
def view_linear(x, size, w, b):
    return aten.linear.default(aten.view.default(x, size), w, b)


def reshape_linear(x, size, w, b):
    return aten.linear.default(aten.reshape.default(x, size), w, b)


# times two -> a sum (with --dce: what is left unused after it goes, but an unused call of
# an overload that writes to its argument, `add_.Tensor` on a buffer, stays in torch 2.6)
def scale2(x):
    return aten.mul.Tensor(x, 2)


def scale2_sum(x):
    return aten.add.Tensor(x, x)


# the batch size of a program read (`sym_size_int_1`, made `sym_size_int` by torch's namespace):
# a new `sym_size.int` node is named as torch names it (docs/programs.md)
def sym_size(x):
    return aten.sym_size.int(x, 0)


def sym_size_neg(x):
    return aten.neg.default(aten.sym_size.int(x, 0))


def sym_size_twice(x):
    return aten.add(aten.sym_size.int(x, 0), aten.sym_size.int(x, 0))


# the view takes a new batch size while the program's node stays: two nodes named
# `sym_size_int_1`, the code renaming the second
def view_size(x, s):
    return aten.view.default(x, [s, -1, 4])


def view_size_new(x, s):
    return aten.view.default(x, [aten.sym_size.int(x, 0), -1, 4])
