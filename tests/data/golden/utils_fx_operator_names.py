import operator
from operator import getitem

import torch
import torch.fx
import torch.nn as nn
import torch.nn.utils.rnn
from torch.fx import Proxy, symbolic_trace
from torch.nn.utils import clip_grad_norm_, parametrize


class M(nn.Module):
    def forward(self, x):
        has = (hasattr(torch.nn.utils, "weight_norm"), hasattr(nn.utils.rnn, "pad_sequence"),
               hasattr(torch.fx, "Tracer"), hasattr(operator, "matmul"))
        lacks = (hasattr(torch.nn.utils, "weight_normm"), hasattr(nn.utils.rnn, "pad_sequnce"),
                 hasattr(torch.fx, "Tracerr"), hasattr(operator, "matmull"))
        # Names of one torch only: 2.6's nn.utils.get_total_norm and fx's config.
        only = (hasattr(nn.utils, "get_total_norm"), hasattr(torch.fx, "config"),
                getattr(nn.utils, "fuse_conv_bn_weights", None) is not None)
        try:
            y = operator.mull(x, 2)
        except AttributeError as e:
            y = operator.mul(x, 3)
        return getitem([y, x], 0), has, lacks, only
