# make_fx(small_conv) on inputs of shape [(1, 3, 8, 8)], torch 2.6.0+debian; made by tests/tools/dump-aten.py
import torch
import torch.fx
from torch import device

def forward(self, arg0_1):
    _param_constant0 = self._param_constant0
    _param_constant1 = self._param_constant1
    convolution = torch.ops.aten.convolution.default(arg0_1, _param_constant0, _param_constant1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  arg0_1 = _param_constant0 = _param_constant1 = None
    empty = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty = None
    _param_constant2 = self._param_constant2
    _param_constant3 = self._param_constant3
    _tensor_constant0 = self._tensor_constant0
    _tensor_constant1 = self._tensor_constant1
    _native_batch_norm_legit_no_training = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution, _param_constant2, _param_constant3, _tensor_constant0, _tensor_constant1, 0.1, 1e-05);  convolution = _param_constant2 = _param_constant3 = _tensor_constant0 = _tensor_constant1 = None
    getitem = _native_batch_norm_legit_no_training[0]
    getitem_1 = _native_batch_norm_legit_no_training[1];  getitem_1 = None
    getitem_2 = _native_batch_norm_legit_no_training[2];  _native_batch_norm_legit_no_training = getitem_2 = None
    relu = torch.ops.aten.relu.default(getitem);  getitem = None
    max_pool2d_with_indices = torch.ops.aten.max_pool2d_with_indices.default(relu, [2, 2]);  relu = None
    getitem_3 = max_pool2d_with_indices[0]
    getitem_4 = max_pool2d_with_indices[1];  max_pool2d_with_indices = getitem_4 = None
    mean = torch.ops.aten.mean.dim(getitem_3, [2, 3]);  getitem_3 = None
    mul = torch.ops.aten.mul.Tensor(mean, 0.5);  mean = None
    _param_constant4 = self._param_constant4
    t = torch.ops.aten.t.default(_param_constant4);  _param_constant4 = None
    _param_constant5 = self._param_constant5
    addmm = torch.ops.aten.addmm.default(_param_constant5, mul, t);  _param_constant5 = mul = t = None
    return addmm
