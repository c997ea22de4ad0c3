# make_fx(mlp) on inputs of shape [(2, 8)], torch 2.6.0+debian; made by tests/tools/dump-aten.py
import torch
import torch.fx

def forward(self, arg0_1):
    _param_constant0 = self._param_constant0
    t = torch.ops.aten.t.default(_param_constant0);  _param_constant0 = None
    _param_constant1 = self._param_constant1
    addmm = torch.ops.aten.addmm.default(_param_constant1, arg0_1, t);  _param_constant1 = arg0_1 = t = None
    relu = torch.ops.aten.relu.default(addmm);  addmm = None
    _param_constant2 = self._param_constant2
    t_1 = torch.ops.aten.t.default(_param_constant2);  _param_constant2 = None
    _param_constant3 = self._param_constant3
    addmm_1 = torch.ops.aten.addmm.default(_param_constant3, relu, t_1);  _param_constant3 = relu = t_1 = None
    _softmax = torch.ops.aten._softmax.default(addmm_1, -1, False);  addmm_1 = None
    return _softmax
