/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-module-checks.c: the checks of values that torch.nn's
 * layer constructors make, run when a file builds a layer
 * (`nn.Linear(4, -1)`, `nn.Dropout(1.5)`, `nn.Conv2d(3, 16, 3,
 * groups=5)`).  Python binds the arguments first (the generated tables,
 * graft-tracer-torch.c); then each layer's `__init__` raises, before it
 * returns, the exceptions written here: its own ValueErrors and asserts,
 * and torch.empty's RuntimeError for a negative size of a parameter or
 * buffer it makes, in the order it makes them.  The checks are Python,
 * written for Graft from what each torch raises (the oracles' texts): a
 * part both torches share and one per torch, picked by the dialect's
 * torch as an index, as the generated tables are.  A check that Graft
 * cannot run to its end on the values given (a value it does not model)
 * leaves the layer as it was: only a Python exception is reported, at the
 * constructor's call, where an `except` may catch it.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"
#include "graft-py-parser.h"
#include "graft-source.h"

#include <string.h>

/* What both torches check.  `_empty(*shape)` is torch.empty's negative
 * size error, for sizes that are ints (what else torch.empty refuses is
 * left to the tracer's own torch.empty, outside these checks). */
static const char checks_common[] =
    "import torch\n"
    "\n"
    "def _type_name(x):\n"
    "    if isinstance(x, torch.Tensor):\n"
    "        return 'Tensor'\n"
    "    if isinstance(x, torch.dtype):\n"
    "        return 'torch.dtype'\n"
    "    if isinstance(x, torch.device):\n"
    "        return 'torch.device'\n"
    "    return type(x).__name__\n"
    "\n"
    "def _invalid_sizes(first, dtype, device, packed):\n"
    "    text = ('empty() received an invalid combination of arguments - got ({}, dtype={}, '\n"
    "            'device={}), but expected one of:'.format(\n"
    "                'tuple' if packed else _type_name(first), _type_name(dtype),\n"
    "                _type_name(device)))\n"
    "    raise TypeError(text)\n"
    "\n"
    /* torch.empty(size, dtype=, device=): its parser takes the first size
     * for one of its forms only if it is an int (not a bool); the later
     * ones may be any int.  @packed: the sizes were given as one tuple
     * (`torch.empty((out, in))`), as the layers' weights are. */
    "def _empty(*shape, device=None, dtype=None, grad=False, packed=False):\n"
    "    negative = False\n"
    "    for i, d in enumerate(shape):\n"
    /* A size of a layer: what the rest lets pass, in fewer steps. */
    "        if isinstance(d, int) and not isinstance(d, bool) and 0 <= d < 4611686018427387904:\n"
    "            continue\n"
    "        if isinstance(d, torch.Tensor):\n"
    "            return\n"
    "        if i == 0 and (isinstance(d, bool) or not isinstance(d, int)):\n"
    "            _invalid_sizes(d, dtype, device, packed)\n"
    "        if not isinstance(d, int):\n"
    "            _size_element(i + 1, _type_name(d))\n"
    /* Compared with a small int first: an int beyond 64 bits is slow. */
    "        if d < 0:\n"
    "            negative = True\n"
    "        if d > 4611686018427387904 or d < -4611686018427387904:\n"
    "            if d >= 9223372036854775808 or d < -9223372036854775808:\n"
    "                _size_overflow(i + 1)\n"
    "    if negative:\n"
    "        for d in shape:\n"
    "            if d < 0:\n"
    "                text = 'Trying to create tensor with negative dimension {}: {}'.format(\n"
    "                    d, list(shape))\n"
    "                raise RuntimeError(text)\n"
    "    _device(device)\n"
    "    if grad and dtype in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32,\n"
    "                          torch.int64):\n"
    "        raise RuntimeError('Only Tensors of floating point and complex dtype can require '\n"
    "                           'gradients')\n"
    "\n"
    /* A parameter: made by torch.empty, then nn.Parameter requires its
     * gradient, which an integer or bool dtype cannot have. */
    "def _param(*shape, device=None, dtype=None, packed=False):\n"
    "    _empty(*shape, device=device, dtype=dtype, grad=True, packed=packed)\n"
    "\n"
    /* torch.empty's parse of a device string: a name of letters, an
     * optional index without leading zeros; then the name one of the
     * torch's device types (_DEVICE_TYPES, per torch). */
    "def _device(device):\n"
    "    if not isinstance(device, str):\n"
    "        return\n"
    "    if device == '':\n"
    "        raise RuntimeError('Device string must not be empty')\n"
    "    name = ''\n"
    "    index = None\n"
    "    for c in device:\n"
    "        if index is not None:\n"
    "            index = index + c\n"
    "        elif c == ':':\n"
    "            index = ''\n"
    "        else:\n"
    "            name = name + c\n"
    "    good = name != ''\n"
    "    for c in name:\n"
    "        if c not in 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_':\n"
    "            good = False\n"
    "    if index is not None:\n"
    "        if index == '' or (index[0] == '0' and index != '0'):\n"
    "            good = False\n"
    "        for c in index:\n"
    "            if c not in '0123456789':\n"
    "                good = False\n"
    "    if not good:\n"
    "        text = \"Invalid device string: '{}'\".format(device)\n"
    "        raise RuntimeError(text)\n"
    "    if name not in _DEVICE_TYPES:\n"
    "        text = 'Expected one of {} device type at start of device string: {}'.format(\n"
    "            ', '.join(_DEVICE_TYPES), name)\n"
    "        raise RuntimeError(text)\n"
    /* A torch built for the CPU makes no tensor on a CUDA device (nor, in
     * 2.6, an XPU one): _lazy_init's AssertionError (_NOT_COMPILED, per
     * torch).  The other types' errors are not modelled. */
    "    if name in _NOT_COMPILED:\n"
    "        text = 'Torch not compiled with {} enabled'.format(_NOT_COMPILED[name])\n"
    "        raise AssertionError(text)\n"
    "\n"
    "def _tuple(n, x):\n"
    "    if isinstance(x, (tuple, list)):\n"
    "        return tuple(x)\n"
    "    return tuple([x] * n)\n"
    "\n"
    "def Linear(in_features, out_features, bias=True, device=None, dtype=None):\n"
    "    _param(out_features, in_features, device=device, dtype=dtype, packed=True)\n"
    "    if bias:\n"
    "        _param(out_features, device=device, dtype=dtype)\n"
    "\n"
    "def Bilinear(in1_features, in2_features, out_features, bias=True, device=None, "
    "dtype=None):\n"
    "    _param(out_features, in1_features, in2_features, device=device, dtype=dtype,\n"
    "           packed=True)\n"
    "    if bias:\n"
    "        _param(out_features, device=device, dtype=dtype)\n"
    "\n"
    "def _conv(n, transposed, in_channels, out_channels, kernel_size, stride, padding, "
    "dilation,\n"
    "          groups, bias, padding_mode, device=None, dtype=None):\n"
    "    if transposed:\n"
    "        padding = _tuple(n, padding)\n"
    "    if groups <= 0:\n"
    "        raise ValueError('groups must be a positive integer')\n"
    "    if in_channels % groups != 0:\n"
    "        raise ValueError('in_channels must be divisible by groups')\n"
    "    if out_channels % groups != 0:\n"
    "        raise ValueError('out_channels must be divisible by groups')\n"
    "    if isinstance(padding, str):\n"
    "        if padding != 'same' and padding != 'valid':\n"
    /* torch formats a set here: its order changes with Python's string
     * hashing, from one run to the next. */
    "            text = \"Invalid padding string '{}', should be one of {}\".format(\n"
    "                padding, \"{'same', 'valid'}\")\n"
    "            raise ValueError(text)\n"
    "        if padding == 'same' and any(s != 1 for s in _tuple(n, stride)):\n"
    "            raise ValueError(\"padding='same' is not supported for strided "
    "convolutions\")\n"
    "    if padding_mode not in ('zeros', 'reflect', 'replicate', 'circular'):\n"
    "        text = \"padding_mode must be one of {}, but got padding_mode='{}'\".format(\n"
    "            \"{'zeros', 'reflect', 'replicate', 'circular'}\", padding_mode)\n"
    "        raise ValueError(text)\n"
    "    kernel_size = _tuple(n, kernel_size)\n"
    "    if transposed:\n"
    "        _param(in_channels, out_channels // groups, *kernel_size, device=device, "
    "dtype=dtype,\n"
    "               packed=True)\n"
    "    else:\n"
    "        _param(out_channels, in_channels // groups, *kernel_size, device=device, "
    "dtype=dtype,\n"
    "               packed=True)\n"
    "    if bias:\n"
    "        _param(out_channels, device=device, dtype=dtype)\n"
    "\n"
    "def Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, "
    "groups=1,\n"
    "           bias=True, padding_mode='zeros', device=None, dtype=None):\n"
    "    _conv(1, False, in_channels, out_channels, kernel_size, stride, padding, dilation, "
    "groups,\n"
    "          bias, padding_mode, device, dtype)\n"
    "\n"
    "def Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, "
    "groups=1,\n"
    "           bias=True, padding_mode='zeros', device=None, dtype=None):\n"
    "    _conv(2, False, in_channels, out_channels, kernel_size, stride, padding, dilation, "
    "groups,\n"
    "          bias, padding_mode, device, dtype)\n"
    "\n"
    "def Conv3d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, "
    "groups=1,\n"
    "           bias=True, padding_mode='zeros', device=None, dtype=None):\n"
    "    _conv(3, False, in_channels, out_channels, kernel_size, stride, padding, dilation, "
    "groups,\n"
    "          bias, padding_mode, device, dtype)\n"
    "\n"
    "def _conv_transpose(n, in_channels, out_channels, kernel_size, stride, padding, groups, "
    "bias,\n"
    "                    dilation, padding_mode, device=None, dtype=None):\n"
    "    if padding_mode != 'zeros':\n"
    "        text = 'Only \"zeros\" padding mode is supported for ConvTranspose{}d'.format(n)\n"
    "        raise ValueError(text)\n"
    "    _conv(n, True, in_channels, out_channels, kernel_size, stride, padding, dilation, "
    "groups,\n"
    "          bias, padding_mode, device, dtype)\n"
    "\n"
    "def ConvTranspose1d(in_channels, out_channels, kernel_size, stride=1, padding=0,\n"
    "                    output_padding=0, groups=1, bias=True, dilation=1, "
    "padding_mode='zeros',\n"
    "                    device=None, dtype=None):\n"
    "    _conv_transpose(1, in_channels, out_channels, kernel_size, stride, padding, groups, "
    "bias,\n"
    "                    dilation, padding_mode, device, dtype)\n"
    "\n"
    "def ConvTranspose2d(in_channels, out_channels, kernel_size, stride=1, padding=0,\n"
    "                    output_padding=0, groups=1, bias=True, dilation=1, "
    "padding_mode='zeros',\n"
    "                    device=None, dtype=None):\n"
    "    _conv_transpose(2, in_channels, out_channels, kernel_size, stride, padding, groups, "
    "bias,\n"
    "                    dilation, padding_mode, device, dtype)\n"
    "\n"
    "def ConvTranspose3d(in_channels, out_channels, kernel_size, stride=1, padding=0,\n"
    "                    output_padding=0, groups=1, bias=True, dilation=1, "
    "padding_mode='zeros',\n"
    "                    device=None, dtype=None):\n"
    "    _conv_transpose(3, in_channels, out_channels, kernel_size, stride, padding, groups, "
    "bias,\n"
    "                    dilation, padding_mode, device, dtype)\n"
    "\n"
    "def _unflatten_sizes(sizes, kinds, what, kind):\n"
    "    if not isinstance(sizes, kinds):\n"
    "        text = 'unflattened_size must be a tuple of {}, but found type {}'.format(\n"
    "            what, type(sizes).__name__)\n"
    "        raise TypeError(text)\n"
    "    for i, d in enumerate(sizes):\n"
    "        if not isinstance(d, kind):\n"
    "            text = ('unflattened_size must be tuple of {}, but found element of type {} '\n"
    "                    'at pos {}'.format(what, type(d).__name__, i))\n"
    "            raise TypeError(text)\n"
    "\n"
    "def Unflatten(dim, unflattened_size):\n"
    "    if isinstance(dim, int):\n"
    "        _unflatten_sizes(unflattened_size, (tuple, list), 'ints', int)\n"
    "    elif isinstance(dim, str):\n"
    "        _unflatten_sizes(unflattened_size, tuple, 'tuples', tuple)\n"
    "    else:\n"
    "        raise TypeError('invalid argument type for dim parameter')\n"
    "\n"
    "def _DropoutNd(p=0.5, inplace=False):\n"
    "    if p < 0 or p > 1:\n"
    "        text = 'dropout probability has to be between 0 and 1, but got {}'.format(p)\n"
    "        raise ValueError(text)\n"
    "\n"
    "Dropout = _DropoutNd\n"
    "Dropout1d = _DropoutNd\n"
    "Dropout2d = _DropoutNd\n"
    "Dropout3d = _DropoutNd\n"
    "AlphaDropout = _DropoutNd\n"
    "FeatureAlphaDropout = _DropoutNd\n"
    "\n"
    "def _NormBase(num_features, eps=1e-05, momentum=0.1, affine=True, "
    "track_running_stats=True,\n"
    "              device=None, dtype=None):\n"
    "    if affine:\n"
    "        _param(num_features, device=device, dtype=dtype)\n"
    "    if track_running_stats:\n"
    "        _empty(num_features, device=device)\n"
    "\n"
    "BatchNorm1d = _NormBase\n"
    "BatchNorm2d = _NormBase\n"
    "BatchNorm3d = _NormBase\n"
    "\n"
    "def _InstanceNorm(num_features, eps=1e-05, momentum=0.1, affine=False,\n"
    "                  track_running_stats=False, device=None, dtype=None):\n"
    "    _NormBase(num_features, eps, momentum, affine, track_running_stats, device, dtype)\n"
    "\n"
    "InstanceNorm1d = _InstanceNorm\n"
    "InstanceNorm2d = _InstanceNorm\n"
    "InstanceNorm3d = _InstanceNorm\n"
    "\n"
    "def GroupNorm(num_groups, num_channels, eps=1e-05, affine=True, device=None, "
    "dtype=None):\n"
    "    if isinstance(num_groups, int) and num_groups == 0:\n"
    "        raise ZeroDivisionError('integer modulo by zero')\n"
    "    if num_channels % num_groups != 0:\n"
    "        raise ValueError('num_channels must be divisible by num_groups')\n"
    "    if affine:\n"
    "        _param(num_channels, device=device, dtype=dtype)\n"
    "\n"
    "def _padding_idx(num_embeddings, padding_idx, text):\n"
    "    if padding_idx is not None:\n"
    "        if padding_idx > 0:\n"
    "            if not padding_idx < num_embeddings:\n"
    "                raise AssertionError(text)\n"
    "        elif padding_idx < 0:\n"
    "            if not padding_idx >= -num_embeddings:\n"
    "                raise AssertionError(text)\n"
    "\n"
    "def _embedding_weight(num_embeddings, embedding_dim, _weight):\n"
    "    if list(_weight.shape) != [num_embeddings, embedding_dim]:\n"
    "        raise AssertionError('Shape of weight does not match num_embeddings and "
    "embedding_dim')\n"
    "\n"
    "def Embedding(num_embeddings, embedding_dim, padding_idx=None, max_norm=None, "
    "norm_type=2.0,\n"
    "              scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, "
    "device=None,\n"
    "              dtype=None):\n"
    "    _padding_idx(num_embeddings, padding_idx, 'Padding_idx must be within "
    "num_embeddings')\n"
    "    if _weight is None:\n"
    "        _param(num_embeddings, embedding_dim, device=device, dtype=dtype, "
    "packed=True)\n"
    "    else:\n"
    "        _embedding_weight(num_embeddings, embedding_dim, _weight)\n"
    "\n"
    "def EmbeddingBag(num_embeddings, embedding_dim, max_norm=None, norm_type=2.0,\n"
    "                 scale_grad_by_freq=False, mode='mean', sparse=False, _weight=None,\n"
    "                 include_last_offset=False, padding_idx=None, device=None, dtype=None):\n"
    "    _padding_idx(num_embeddings, padding_idx, 'padding_idx must be within "
    "num_embeddings')\n"
    "    if _weight is None:\n"
    "        _param(num_embeddings, embedding_dim, device=device, dtype=dtype, "
    "packed=True)\n"
    "    else:\n"
    "        _embedding_weight(num_embeddings, embedding_dim, _weight)\n"
    "\n"
    "def LayerNorm(normalized_shape, eps=1e-05, elementwise_affine=True, bias=True, "
    "device=None,\n"
    "              dtype=None):\n"
    "    if isinstance(normalized_shape, int):\n"
    "        normalized_shape = (normalized_shape,)\n"
    "    if isinstance(normalized_shape, str):\n"
    "        normalized_shape = tuple(normalized_shape)\n"
    "    if not isinstance(normalized_shape, (tuple, list)):\n"
    "        return\n"
    "    if elementwise_affine:\n"
    "        _param(*normalized_shape, device=device, dtype=dtype, packed=True)\n"
    "\n"
    "def PReLU(num_parameters=1, init=0.25, device=None, dtype=None):\n"
    "    _param(num_parameters, device=device, dtype=dtype)\n"
    "\n"
    "def Hardtanh(min_val=-1.0, max_val=1.0, inplace=False, min_value=None, "
    "max_value=None):\n"
    "    if min_value is not None:\n"
    "        min_val = min_value\n"
    "    if max_value is not None:\n"
    "        max_val = max_value\n"
    "    if not max_val > min_val:\n"
    "        raise AssertionError()\n"
    "\n"
    /* What MultiheadAttention makes after its own first check. */
    "def _attention(embed_dim, num_heads, bias, add_bias_kv, kdim, vdim):\n"
    "    kdim = kdim if kdim is not None else embed_dim\n"
    "    vdim = vdim if vdim is not None else embed_dim\n"
    "    if isinstance(num_heads, int) and num_heads == 0:\n"
    "        raise ZeroDivisionError('integer division or modulo by zero')\n"
    "    if embed_dim // num_heads * num_heads != embed_dim:\n"
    "        raise AssertionError('embed_dim must be divisible by num_heads')\n"
    "    if kdim == embed_dim and vdim == embed_dim:\n"
    "        _empty(3 * embed_dim, embed_dim)\n"
    "    else:\n"
    "        _empty(embed_dim, embed_dim)\n"
    "        _empty(embed_dim, kdim)\n"
    "        _empty(embed_dim, vdim)\n"
    "    if bias:\n"
    "        _empty(3 * embed_dim)\n"
    "    Linear(embed_dim, embed_dim, bias)\n"
    "    if add_bias_kv:\n"
    "        _empty(1, 1, embed_dim)\n"
    "\n"
    "def _activation(activation):\n"
    "    if isinstance(activation, str) and activation != 'relu' and activation != 'gelu':\n"
    "        text = 'activation should be relu/gelu, not {}'.format(activation)\n"
    "        raise RuntimeError(text)\n"
    "\n"
    "def _transformer_layer(d_model, nhead, dim_feedforward, dropout, activation, "
    "layer_norm_eps,\n"
    "                       bias, n):\n"
    "    for i in range(n - 1):\n"
    "        MultiheadAttention(d_model, nhead, dropout, bias)\n"
    "    Linear(d_model, dim_feedforward, bias)\n"
    "    _DropoutNd(dropout)\n"
    "    Linear(dim_feedforward, d_model, bias)\n"
    "    for i in range(n):\n"
    "        LayerNorm(d_model, layer_norm_eps, True, bias)\n"
    "    for i in range(n):\n"
    "        _DropoutNd(dropout)\n"
    "    _activation(activation)\n"
    "\n"
    "def TransformerEncoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1,\n"
    "                            activation='relu', layer_norm_eps=1e-05, batch_first=False,\n"
    "                            norm_first=False, bias=True, device=None, dtype=None):\n"
    "    _transformer_layer(d_model, nhead, dim_feedforward, dropout, activation, "
    "layer_norm_eps,\n"
    "                       bias, 2)\n"
    "\n"
    "def TransformerDecoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1,\n"
    "                            activation='relu', layer_norm_eps=1e-05, batch_first=False,\n"
    "                            norm_first=False, bias=True, device=None, dtype=None):\n"
    "    _transformer_layer(d_model, nhead, dim_feedforward, dropout, activation, "
    "layer_norm_eps,\n"
    "                       bias, 3)\n"
    "\n"
    "def Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,\n"
    "                dim_feedforward=2048, dropout=0.1, activation='relu', "
    "custom_encoder=None,\n"
    "                custom_decoder=None, layer_norm_eps=1e-05, batch_first=False, "
    "norm_first=False,\n"
    "                bias=True, device=None, dtype=None):\n"
    "    if custom_encoder is None:\n"
    "        TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,\n"
    "                                layer_norm_eps, batch_first, norm_first, bias)\n"
    "        LayerNorm(d_model, layer_norm_eps, True, bias)\n"
    "    if custom_decoder is None:\n"
    "        TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,\n"
    "                                layer_norm_eps, batch_first, norm_first, bias)\n"
    "        LayerNorm(d_model, layer_norm_eps, True, bias)\n"
    "\n"
    /* A class, so that a TypeError of its arguments names
     * `RNNBase.__init__()` as Python does (RNN's are bound here only). */
    "class RNNBase:\n"
    "    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,\n"
    "                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,\n"
    "                 device=None, dtype=None):\n"
    "        float(dropout)\n"
    "        if (not isinstance(dropout, (int, float)) or isinstance(dropout, bool) or\n"
    "                dropout < 0 or dropout > 1):\n"
    "            raise ValueError('dropout should be a number in range [0, 1] representing '\n"
    "                             'the probability of an element being zeroed')\n"
    "        _rnn_sizes(hidden_size, num_layers)\n"
    "        if proj_size < 0:\n"
    "            raise ValueError('proj_size should be a positive integer or zero to disable '\n"
    "                             'projections')\n"
    "        if proj_size >= hidden_size:\n"
    "            raise ValueError('proj_size has to be smaller than hidden_size')\n"
    "        gates = 4 if mode == 'LSTM' else 3 if mode == 'GRU' else 1\n"
    "        directions = 2 if bidirectional else 1\n"
    "        real_hidden_size = proj_size if proj_size > 0 else hidden_size\n"
    "        for layer in range(num_layers):\n"
    "            for direction in range(directions):\n"
    "                if layer == 0:\n"
    "                    _empty(gates * hidden_size, input_size)\n"
    "                else:\n"
    "                    _empty(gates * hidden_size, real_hidden_size * directions)\n"
    "                _empty(gates * hidden_size, real_hidden_size)\n"
    "                _empty(gates * hidden_size)\n"
    "                if proj_size > 0:\n"
    "                    _empty(proj_size, hidden_size)\n"
    "        _rnn_no_layers(num_layers)\n"
    "\n"
    "def LSTM(*args, **kwargs):\n"
    "    RNNBase('LSTM', *args, **kwargs)\n"
    "\n"
    "def GRU(*args, **kwargs):\n"
    "    if 'proj_size' in kwargs:\n"
    "        raise ValueError('proj_size argument is only supported for LSTM, not RNN or GRU')\n"
    "    RNNBase('GRU', *args, **kwargs)\n"
    "\n";

/* torch 2.6's own: MultiheadAttention's and RNNBase's first checks, and
 * RNN's fourth positional argument, its nonlinearity. */
static const char checks_2_6[] =
    "def _size_element(pos, name):\n"
    "    text = ('empty(): argument \\'size\\' failed to unpack the object at pos {} with error '\n"
    "            '\"type must be tuple of ints,but got {}\"'.format(pos, name))\n"
    "    raise TypeError(text)\n"
    "\n"
    "def _size_overflow(pos):\n"
    "    text = ('empty(): argument \\'size\\' failed to unpack the object at pos {} with error '\n"
    "            '\"Overflow when unpacking long\"'.format(pos))\n"
    "    raise TypeError(text)\n"
    "\n"
    "_DEVICE_TYPES = ('cpu', 'cuda', 'ipu', 'xpu', 'mkldnn', 'opengl', 'opencl', 'ideep', 'hip',\n"
    "                 've', 'fpga', 'maia', 'xla', 'lazy', 'vulkan', 'mps', 'meta', 'hpu', "
    "'mtia',\n"
    "                 'privateuseone')\n"
    "_NOT_COMPILED = {'cuda': 'CUDA', 'xpu': 'XPU'}\n"
    "\n"
    "def MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,\n"
    "                       add_zero_attn=False, kdim=None, vdim=None, batch_first=False,\n"
    "                       device=None, dtype=None):\n"
    "    if embed_dim <= 0 or num_heads <= 0:\n"
    "        text = ('embed_dim and num_heads must be greater than 0, got embed_dim={} '\n"
    "                'and num_heads={} instead'.format(embed_dim, num_heads))\n"
    "        raise ValueError(text)\n"
    "    _attention(embed_dim, num_heads, bias, add_bias_kv, kdim, vdim)\n"
    "\n"
    "def _rnn_sizes(hidden_size, num_layers):\n"
    "    if not isinstance(hidden_size, int):\n"
    "        text = 'hidden_size should be of type int, got: {}'.format(\n"
    "            type(hidden_size).__name__)\n"
    "        raise TypeError(text)\n"
    "    if hidden_size <= 0:\n"
    "        raise ValueError('hidden_size must be greater than zero')\n"
    "    if num_layers <= 0:\n"
    "        raise ValueError('num_layers must be greater than zero')\n"
    "\n"
    "def _rnn_no_layers(num_layers):\n"
    "    pass\n"
    "\n"
    "def RNN(*args, **kwargs):\n"
    "    if 'proj_size' in kwargs:\n"
    "        raise ValueError('proj_size argument is only supported for LSTM, not RNN or GRU')\n"
    "    if len(args) > 3:\n"
    "        nonlinearity = args[3]\n"
    "        args = args[:3] + args[4:]\n"
    "    else:\n"
    "        nonlinearity = kwargs.pop('nonlinearity', 'tanh')\n"
    "    if nonlinearity != 'tanh' and nonlinearity != 'relu':\n"
    "        text = \"Unknown nonlinearity '{}'. Select from 'tanh' or 'relu'.\".format(\n"
    "            nonlinearity)\n"
    "        raise ValueError(text)\n"
    "    RNNBase('RNN', *args, **kwargs)\n";

/* torch 1.13.1's: no first check of MultiheadAttention (an embed_dim of
 * 0 fails in its xavier_uniform_), none of RNNBase's sizes (no layers
 * fail in flatten_parameters), the nonlinearity a keyword only. */
static const char checks_1_13[] =
    "def _size_element(pos, name):\n"
    "    text = (\"empty(): argument 'size' must be tuple of SymInts, but found element of \"\n"
    "            'type {} at pos {}'.format(name, pos))\n"
    "    raise TypeError(text)\n"
    "\n"
    /* torch 1.13.1 names an int beyond 64 bits as it names a float. */
    "def _size_overflow(pos):\n"
    "    _size_element(pos, 'int')\n"
    "\n"
    "_DEVICE_TYPES = ('cpu', 'cuda', 'ipu', 'xpu', 'mkldnn', 'opengl', 'opencl', 'ideep', 'hip',\n"
    "                 've', 'fpga', 'ort', 'xla', 'lazy', 'vulkan', 'mps', 'meta', 'hpu',\n"
    "                 'privateuseone')\n"
    "_NOT_COMPILED = {'cuda': 'CUDA'}\n"
    "\n"
    "def MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,\n"
    "                       add_zero_attn=False, kdim=None, vdim=None, batch_first=False,\n"
    "                       device=None, dtype=None):\n"
    "    _attention(embed_dim, num_heads, bias, add_bias_kv, kdim, vdim)\n"
    "    if isinstance(embed_dim, int) and embed_dim == 0:\n"
    "        raise ZeroDivisionError('float division by zero')\n"
    "\n"
    "def _rnn_sizes(hidden_size, num_layers):\n"
    "    pass\n"
    "\n"
    "def _rnn_no_layers(num_layers):\n"
    "    if isinstance(num_layers, int) and num_layers <= 0:\n"
    "        raise IndexError('list index out of range')\n"
    "\n"
    "def RNN(*args, **kwargs):\n"
    "    if 'proj_size' in kwargs:\n"
    "        raise ValueError('proj_size argument is only supported for LSTM, not RNN or GRU')\n"
    "    nonlinearity = kwargs.pop('nonlinearity', 'tanh')\n"
    "    if nonlinearity != 'tanh' and nonlinearity != 'relu':\n"
    "        text = \"Unknown nonlinearity '{}'\".format(nonlinearity)\n"
    "        raise ValueError(text)\n"
    "    RNNBase('RNN', *args, **kwargs)\n";

/* Indexed by GraftTorch. */
static const char *const checks_of_torch[] = {
  [GRAFT_TORCH_2_6] = checks_2_6,
  [GRAFT_TORCH_1_13] = checks_1_13,
};

/* The checks of one torch cut into their top-level statements (a def,
 * a class, `Dropout = _DropoutNd`, the import), each named by what it
 * binds.  A tracer parses and runs only those a layer it builds needs:
 * the statement binding the layer's name, and before it those binding a
 * name its text reads, and so on (the whole text costs more to parse
 * than a small model's trace). */
typedef struct
{
  const char *text;  /* the whole text, which the pieces are in */
  GHashTable *named; /* name -> Piece *, both kept until the process ends */
} Pieces;

typedef struct
{
  gsize start, len; /* in Pieces.text */
} Piece;

/* The name a top-level statement binds, `def _conv(` -> `_conv`. */
static char *
piece_name (const char *line)
{
  const char *p = line;

  if (g_str_has_prefix (p, "def "))
    p += strlen ("def ");
  else if (g_str_has_prefix (p, "class "))
    p += strlen ("class ");
  else if (g_str_has_prefix (p, "import "))
    p += strlen ("import ");
  for (line = p; g_ascii_isalnum (*p) || *p == '_'; p++)
    ;
  g_assert (p > line);
  return g_strndup (line, p - line);
}

/* Once per process and torch. */
static gpointer
cut_checks (gpointer data)
{
  GraftTorch  torch = GPOINTER_TO_UINT (data);
  Pieces     *pieces = g_new0 (Pieces, 1);
  const char *text = g_strconcat (checks_common, checks_of_torch[torch], NULL);
  const char *line = text;
  Piece      *piece = NULL;

  pieces->text = text;
  pieces->named = g_hash_table_new (g_str_hash, g_str_equal);
  for (; *line != '\0'; line = strchr (line, '\n') + 1)
    {
      /* A line at column 0 begins a statement (continuation lines are
       * indented). */
      if (*line != ' ' && *line != '\n')
        {
          char *name = piece_name (line);

          if (piece != NULL)
            piece->len = line - text - piece->start;
          piece = g_new0 (Piece, 1);
          piece->start = line - text;
          g_assert (!g_hash_table_contains (pieces->named, name));
          g_hash_table_insert (pieces->named, name, piece);
        }
      g_assert (strchr (line, '\n') != NULL);
    }
  if (piece != NULL)
    piece->len = line - text - piece->start;
  return pieces;
}

/* Runs in the checks' frame the statement binding @name; nothing when the
 * checks have no statement of that name or it has run already.  The
 * names its text reads are bound when they are read
 * (_graft_tracer_check_define()): the helpers that only make an error's
 * text (`_type_name`, `_size_overflow`) are never parsed while the
 * values pass. */
static void
define_check (Tracer       *t,
              const Pieces *pieces,
              const char   *name)
{
  const Piece *piece;
  const char  *text;
  gpointer     key, value;

  /* The map is asked with the table's string, which lives as long as
   * the process (Tracer.map_recent knows keys by their address). */
  if (!g_hash_table_lookup_extended (pieces->named, name, &key, &value) ||
      _graft_strmap_get (&t->nn_checks->vars, key) != NULL)
    return;
  piece = value;
  /* While its own run is pending: a name read again is not run twice. */
  _graft_strmap_set (&t->nn_checks->vars, key, _graft_value_none ());
  text = pieces->text + piece->start;
  {
    g_autoptr (GraftSource) source =
        graft_source_new ("<graft torch.nn checks>", text, (gssize) piece->len);
    g_autoptr (GError) error = NULL;
    GraftPyModule         *module = graft_py_parse (source, &error);
    const GraftPyStmtList *body;

    g_assert (module != NULL);
    g_ptr_array_add (t->parsed, module);
    body = graft_py_module_get_body (module);
    for (guint i = 0; i < body->len; i++)
      if (_graft_tracer_exec_stmt (t, t->nn_checks, body->items[i], NULL) == FLOW_ERROR)
        g_assert_not_reached ();
  }
}

static const Pieces *
pieces_of (Tracer *t)
{
  static GOnce cut[GRAFT_N_TORCHES] = { G_ONCE_INIT, G_ONCE_INIT };
  GraftTorch   torch = t->dialect->torch;

  return g_once (&cut[torch], cut_checks, GUINT_TO_POINTER (torch));
}

/* The check of the layer @name, or %NULL when Graft has none. */
static Value *
check_of (Tracer     *t,
          const char *name)
{
  const Pieces *pieces = pieces_of (t);
  gboolean      tracing = t->tracing;
  GError       *saved = t->error;

  if (!g_hash_table_contains (pieces->named, name))
    return NULL;
  if (t->nn_checks == NULL)
    t->nn_checks = _graft_tracer_frame_new (t, NULL, NULL);
  t->tracing = FALSE;
  t->error = NULL;
  define_check (t, pieces, name);
  t->tracing = tracing;
  t->error = saved;
  return _graft_strmap_get (&t->nn_checks->vars, name);
}

/**
 * _graft_tracer_check_define:
 * @name: a name the checks' text reads that is neither bound yet nor a
 *   builtin (no statement of the checks binds a builtin's name)
 *
 * Runs the checks' statement binding @name, as a name of the checks is
 * read the first time.  What it made (a function, its defaults) lives on:
 * it counts as put into the tracer's lasting tables (Tracer.n_kept), so
 * the check at work keeps its scratch.
 *
 * Returns: (nullable): the value bound, or %NULL when the checks bind no
 *   @name
 */
Value *
_graft_tracer_check_define (Tracer     *t,
                            const char *name)
{
  const Pieces *pieces = pieces_of (t);

  if (!g_hash_table_contains (pieces->named, name))
    return NULL;
  define_check (t, pieces, name);
  t->n_kept++;
  return _graft_strmap_get (&t->nn_checks->vars, name);
}

/* `str(e)` with the class, as Python prints an exception the checks
 * raised (`ValueError: ...`, `AssertionError`), or %NULL when it is the
 * tracer's own text. */
static char *
raised_text (Tracer *t)
{
  Value *args = t->raised_args;

  if (args == NULL || args->kind != VAL_TUPLE)
    return NULL;
  if (args->seq.items->len == 0)
    return g_strdup (t->raised);
  if (args->seq.items->len == 1 && ((Value *) args->seq.items->pdata[0])->kind == VAL_STR)
    return g_strdup_printf ("%s: %s", t->raised,
                            ((Value *) args->seq.items->pdata[0])->str.s);
  return NULL;
}

/**
 * _graft_tracer_check_nn_values:
 * @name: the class, `Linear`
 * @args: (nullable): the positional arguments, bound already
 * @kwargs: (nullable): the keyword arguments
 * @at: the call, where an exception is placed
 *
 * Runs the checks torch's `__init__` of @name makes of its values.
 *
 * Returns: %FALSE with the tracer's error set (a Python exception, which
 *   `except` may catch) when torch raises; %TRUE when it does not, when
 *   Graft has no check of @name, or cannot run it on these values
 */
gboolean
_graft_tracer_check_nn_values (Tracer            *t,
                               const char        *name,
                               PtrVec            *args,
                               StrMap            *kwargs,
                               const GraftPyExpr *at)
{
  Value           *check;
  gboolean         tracing = t->tracing;
  g_autofree char *text = NULL;
  const char      *raised;
  Value           *raised_args;
  Value           *done;
  ArenaMark        mark;
  guint            n_kept, n_indexes;

  if (t->error != NULL)
    return TRUE;
  check = check_of (t, name);
  if (check == NULL || check->kind != VAL_FUNCTION)
    return TRUE;
  mark = _graft_tracer_mark (t);
  n_kept = t->n_kept;
  n_indexes = t->map_indexes->len;
  t->tracing = FALSE;
  done = _graft_tracer_call_function (t, check->fn, NULL, args, kwargs, at);
  t->tracing = tracing;
  if (done != NULL)
    {
      /* A check that passes leaves nothing anyone reads: it runs no code
       * of the file (no method of a value given is called), assigns no
       * global nor attribute and changes no argument, so what it made
       * (its frames, their maps' indexes, tuples, numbers) is given
       * back, blocks of the arena it began included, unless it put
       * something into the tracer's lasting tables on the way. */
      if (t->n_kept == n_kept)
        {
          _graft_tracer_release_blocks (t, mark);
          g_ptr_array_set_size (t->map_indexes, n_indexes);
        }
      return TRUE;
    }
  raised = t->raised;
  raised_args = t->raised_args;
  if (raised != NULL && t->error != NULL)
    text = g_str_has_prefix (t->error->message, raised) &&
                   t->error->message[strlen (raised)] == ':'
               ? g_strdup (t->error->message)
               : raised_text (t);
  g_clear_error (&t->error);
  t->raised = NULL;
  t->raised_args = NULL;
  /* Not a Python exception: a value the check could not use. */
  if (text == NULL)
    return TRUE;
  graft_set_error_at_offset (&t->error, t->source, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                             "%s", text);
  t->error_start = at->start;
  t->error_end = at->end;
  t->error_span_of = t->error;
  t->raised = raised;
  t->raised_args = raised_args;
  return FALSE;
}
