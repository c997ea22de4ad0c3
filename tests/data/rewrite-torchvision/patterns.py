# Pattern / replacement pairs for the rewrite-torchvision suite: each NAME.args case names a
# model of ../torchvision and one pair of this file (--pattern patterns.py:P --replacement R).
# No model class here: the models are the gm.code dumps of ../torchvision.
import torch
import torch.fx
import torch.nn.functional as F
from torchvision.ops.stochastic_depth import stochastic_depth as torchvision_ops_stochastic_depth_stochastic_depth
torch.fx._symbolic_trace.wrap("torchvision_ops_stochastic_depth_stochastic_depth")


# the classifier's flatten as a view
def flatten1(x):
    return torch.flatten(x, 1)


def flatten1_view(x):
    return x.view(x.size(0), -1)


# global average pooling followed by flatten -> one mean
def pool_flatten(x):
    return torch.flatten(F.adaptive_avg_pool2d(x, (1, 1)), 1)


def pool_flatten_mean(x):
    return x.mean([2, 3])


# and back: a mean over the spatial dimensions -> pooling + flatten
def mean23(x):
    return x.mean([2, 3])


def mean23_pool(x):
    return torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)


# a residual sum as a torch function
def add(a, b):
    return a + b


def add_fn(a, b):
    return torch.add(a, b)


# the in-place functional relu (googlenet, inception, densenet)
def relu_inplace(x):
    return F.relu(x, inplace=True)


def relu_out_of_place(x):
    return torch.relu(x)


# the concatenation of two values along the channels
def cat2(a, b):
    return torch.cat([a, b], 1)


def cat2_concat(a, b):
    return torch.concat((a, b), dim=1)


# shufflenet's block output: torch.cat((a, b), dim=1)
def cat2_dim(a, b):
    return torch.cat([a, b], dim=1)


def cat2_dim_stack(a, b):
    return torch.stack([a, b], dim=1).flatten(1, 2)


# shufflenet's channel_shuffle (groups=2): size / view / transpose / contiguous / view
def channel_shuffle(x):
    size = x.size()
    batch = size[0]
    channels = size[1]
    height = size[2]
    width = size[3]
    per_group = channels // 2
    v = x.view(batch, 2, per_group, height, width)
    t = torch.transpose(v, 1, 2).contiguous()
    return t.view(batch, -1, height, width)


def channel_shuffle_op(x):
    return torch.channel_shuffle(x, 2)


# vit's patch sequence: reshape(...).permute(0, 2, 1)
def permute021(x):
    return x.permute(0, 2, 1)


def permute021_transpose(x):
    return x.transpose(1, 2)


# convnext / swin: channels-last permute as a torch function
def permute_nhwc(x):
    return torch.permute(x, [0, 2, 3, 1])


def permute_nhwc_method(x):
    return x.permute(0, 2, 3, 1)


# maxvit's attention softmax (F.softmax traces with all its keyword arguments)
def softmax_last(x):
    return F.softmax(x, dim=-1)


def softmax_last_method(x):
    return x.softmax(-1)


# maxvit's grid partition swap
def swapaxes_23(x):
    return torch.swapaxes(x, -2, -3)


def swapaxes_23_transpose(x):
    return x.transpose(-3, -2)


# stochastic depth in eval mode is the identity: drop it from the residual sum
def stochastic_depth_add(x, y, p):
    return torchvision_ops_stochastic_depth_stochastic_depth(x, p, 'row', False) + y


def stochastic_depth_add_removed(x, y, p):
    return x + y


# dropout removal (identity replacement) on a call_module with vit's path
class VitEncoderDropout(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.Module()
        self.encoder.dropout = torch.nn.Dropout(0.0)

    def forward(self, x):
        return self.encoder.dropout(x)


def identity(x):
    return x


# resnet's first residual: operator.add feeding the block's relu module (path layer1.0.relu)
class ResnetBlock(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.relu = torch.nn.ReLU(inplace=True)


class Layer1Block0AddRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = torch.nn.Sequential(ResnetBlock())

    def forward(self, a, b):
        return self.layer1[0].relu(a + b)


def add_relu_fused(a, b):
    return F.relu(a + b, inplace=True)


# a pattern over two module calls with torchvision paths (resnet's stem)
class ResnetStem(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.relu = torch.nn.ReLU(inplace=True)
        self.maxpool = torch.nn.MaxPool2d(3, 2, 1)

    def forward(self, x):
        return self.maxpool(self.relu(x))


def stem_functional(x):
    return F.max_pool2d(torch.relu(x), 3, 2, 1)
