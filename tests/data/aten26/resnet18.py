# make_fx(resnet18) on inputs of shape [(1, 3, 64, 64)], torch 2.6.0+debian; made by tests/tools/dump-aten.py
import torch
import torch.fx
from torch import device

def forward(self, arg0_1):
    _param_constant0 = self._param_constant0
    convolution = torch.ops.aten.convolution.default(arg0_1, _param_constant0, None, [2, 2], [3, 3], [1, 1], False, [0, 0], 1);  arg0_1 = _param_constant0 = None
    empty = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty = None
    _param_constant1 = self._param_constant1
    _param_constant2 = self._param_constant2
    _tensor_constant0 = self._tensor_constant0
    _tensor_constant1 = self._tensor_constant1
    _native_batch_norm_legit_no_training = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution, _param_constant1, _param_constant2, _tensor_constant0, _tensor_constant1, 0.1, 1e-05);  convolution = _param_constant1 = _param_constant2 = _tensor_constant0 = _tensor_constant1 = None
    getitem = _native_batch_norm_legit_no_training[0]
    getitem_1 = _native_batch_norm_legit_no_training[1];  getitem_1 = None
    getitem_2 = _native_batch_norm_legit_no_training[2];  _native_batch_norm_legit_no_training = getitem_2 = None
    relu_ = torch.ops.aten.relu_.default(getitem);  getitem = None
    max_pool2d_with_indices = torch.ops.aten.max_pool2d_with_indices.default(relu_, [3, 3], [2, 2], [1, 1]);  relu_ = None
    getitem_3 = max_pool2d_with_indices[0]
    getitem_4 = max_pool2d_with_indices[1];  max_pool2d_with_indices = getitem_4 = None
    _param_constant3 = self._param_constant3
    convolution_1 = torch.ops.aten.convolution.default(getitem_3, _param_constant3, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  _param_constant3 = None
    empty_1 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_1 = None
    _param_constant4 = self._param_constant4
    _param_constant5 = self._param_constant5
    _tensor_constant2 = self._tensor_constant2
    _tensor_constant3 = self._tensor_constant3
    _native_batch_norm_legit_no_training_1 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_1, _param_constant4, _param_constant5, _tensor_constant2, _tensor_constant3, 0.1, 1e-05);  convolution_1 = _param_constant4 = _param_constant5 = _tensor_constant2 = _tensor_constant3 = None
    getitem_5 = _native_batch_norm_legit_no_training_1[0]
    getitem_6 = _native_batch_norm_legit_no_training_1[1];  getitem_6 = None
    getitem_7 = _native_batch_norm_legit_no_training_1[2];  _native_batch_norm_legit_no_training_1 = getitem_7 = None
    relu__1 = torch.ops.aten.relu_.default(getitem_5);  getitem_5 = None
    _param_constant6 = self._param_constant6
    convolution_2 = torch.ops.aten.convolution.default(relu__1, _param_constant6, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu__1 = _param_constant6 = None
    empty_2 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_2 = None
    _param_constant7 = self._param_constant7
    _param_constant8 = self._param_constant8
    _tensor_constant4 = self._tensor_constant4
    _tensor_constant5 = self._tensor_constant5
    _native_batch_norm_legit_no_training_2 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_2, _param_constant7, _param_constant8, _tensor_constant4, _tensor_constant5, 0.1, 1e-05);  convolution_2 = _param_constant7 = _param_constant8 = _tensor_constant4 = _tensor_constant5 = None
    getitem_8 = _native_batch_norm_legit_no_training_2[0]
    getitem_9 = _native_batch_norm_legit_no_training_2[1];  getitem_9 = None
    getitem_10 = _native_batch_norm_legit_no_training_2[2];  _native_batch_norm_legit_no_training_2 = getitem_10 = None
    add_ = torch.ops.aten.add_.Tensor(getitem_8, getitem_3);  getitem_8 = getitem_3 = None
    relu__2 = torch.ops.aten.relu_.default(add_);  add_ = None
    _param_constant9 = self._param_constant9
    convolution_3 = torch.ops.aten.convolution.default(relu__2, _param_constant9, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  _param_constant9 = None
    empty_3 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_3 = None
    _param_constant10 = self._param_constant10
    _param_constant11 = self._param_constant11
    _tensor_constant6 = self._tensor_constant6
    _tensor_constant7 = self._tensor_constant7
    _native_batch_norm_legit_no_training_3 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_3, _param_constant10, _param_constant11, _tensor_constant6, _tensor_constant7, 0.1, 1e-05);  convolution_3 = _param_constant10 = _param_constant11 = _tensor_constant6 = _tensor_constant7 = None
    getitem_11 = _native_batch_norm_legit_no_training_3[0]
    getitem_12 = _native_batch_norm_legit_no_training_3[1];  getitem_12 = None
    getitem_13 = _native_batch_norm_legit_no_training_3[2];  _native_batch_norm_legit_no_training_3 = getitem_13 = None
    relu__3 = torch.ops.aten.relu_.default(getitem_11);  getitem_11 = None
    _param_constant12 = self._param_constant12
    convolution_4 = torch.ops.aten.convolution.default(relu__3, _param_constant12, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu__3 = _param_constant12 = None
    empty_4 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_4 = None
    _param_constant13 = self._param_constant13
    _param_constant14 = self._param_constant14
    _tensor_constant8 = self._tensor_constant8
    _tensor_constant9 = self._tensor_constant9
    _native_batch_norm_legit_no_training_4 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_4, _param_constant13, _param_constant14, _tensor_constant8, _tensor_constant9, 0.1, 1e-05);  convolution_4 = _param_constant13 = _param_constant14 = _tensor_constant8 = _tensor_constant9 = None
    getitem_14 = _native_batch_norm_legit_no_training_4[0]
    getitem_15 = _native_batch_norm_legit_no_training_4[1];  getitem_15 = None
    getitem_16 = _native_batch_norm_legit_no_training_4[2];  _native_batch_norm_legit_no_training_4 = getitem_16 = None
    add__1 = torch.ops.aten.add_.Tensor(getitem_14, relu__2);  getitem_14 = relu__2 = None
    relu__4 = torch.ops.aten.relu_.default(add__1);  add__1 = None
    _param_constant15 = self._param_constant15
    convolution_5 = torch.ops.aten.convolution.default(relu__4, _param_constant15, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1);  _param_constant15 = None
    empty_5 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_5 = None
    _param_constant16 = self._param_constant16
    _param_constant17 = self._param_constant17
    _tensor_constant10 = self._tensor_constant10
    _tensor_constant11 = self._tensor_constant11
    _native_batch_norm_legit_no_training_5 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_5, _param_constant16, _param_constant17, _tensor_constant10, _tensor_constant11, 0.1, 1e-05);  convolution_5 = _param_constant16 = _param_constant17 = _tensor_constant10 = _tensor_constant11 = None
    getitem_17 = _native_batch_norm_legit_no_training_5[0]
    getitem_18 = _native_batch_norm_legit_no_training_5[1];  getitem_18 = None
    getitem_19 = _native_batch_norm_legit_no_training_5[2];  _native_batch_norm_legit_no_training_5 = getitem_19 = None
    relu__5 = torch.ops.aten.relu_.default(getitem_17);  getitem_17 = None
    _param_constant18 = self._param_constant18
    convolution_6 = torch.ops.aten.convolution.default(relu__5, _param_constant18, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu__5 = _param_constant18 = None
    empty_6 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_6 = None
    _param_constant19 = self._param_constant19
    _param_constant20 = self._param_constant20
    _tensor_constant12 = self._tensor_constant12
    _tensor_constant13 = self._tensor_constant13
    _native_batch_norm_legit_no_training_6 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_6, _param_constant19, _param_constant20, _tensor_constant12, _tensor_constant13, 0.1, 1e-05);  convolution_6 = _param_constant19 = _param_constant20 = _tensor_constant12 = _tensor_constant13 = None
    getitem_20 = _native_batch_norm_legit_no_training_6[0]
    getitem_21 = _native_batch_norm_legit_no_training_6[1];  getitem_21 = None
    getitem_22 = _native_batch_norm_legit_no_training_6[2];  _native_batch_norm_legit_no_training_6 = getitem_22 = None
    _param_constant21 = self._param_constant21
    convolution_7 = torch.ops.aten.convolution.default(relu__4, _param_constant21, None, [2, 2], [0, 0], [1, 1], False, [0, 0], 1);  relu__4 = _param_constant21 = None
    empty_7 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_7 = None
    _param_constant22 = self._param_constant22
    _param_constant23 = self._param_constant23
    _tensor_constant14 = self._tensor_constant14
    _tensor_constant15 = self._tensor_constant15
    _native_batch_norm_legit_no_training_7 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_7, _param_constant22, _param_constant23, _tensor_constant14, _tensor_constant15, 0.1, 1e-05);  convolution_7 = _param_constant22 = _param_constant23 = _tensor_constant14 = _tensor_constant15 = None
    getitem_23 = _native_batch_norm_legit_no_training_7[0]
    getitem_24 = _native_batch_norm_legit_no_training_7[1];  getitem_24 = None
    getitem_25 = _native_batch_norm_legit_no_training_7[2];  _native_batch_norm_legit_no_training_7 = getitem_25 = None
    add__2 = torch.ops.aten.add_.Tensor(getitem_20, getitem_23);  getitem_20 = getitem_23 = None
    relu__6 = torch.ops.aten.relu_.default(add__2);  add__2 = None
    _param_constant24 = self._param_constant24
    convolution_8 = torch.ops.aten.convolution.default(relu__6, _param_constant24, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  _param_constant24 = None
    empty_8 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_8 = None
    _param_constant25 = self._param_constant25
    _param_constant26 = self._param_constant26
    _tensor_constant16 = self._tensor_constant16
    _tensor_constant17 = self._tensor_constant17
    _native_batch_norm_legit_no_training_8 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_8, _param_constant25, _param_constant26, _tensor_constant16, _tensor_constant17, 0.1, 1e-05);  convolution_8 = _param_constant25 = _param_constant26 = _tensor_constant16 = _tensor_constant17 = None
    getitem_26 = _native_batch_norm_legit_no_training_8[0]
    getitem_27 = _native_batch_norm_legit_no_training_8[1];  getitem_27 = None
    getitem_28 = _native_batch_norm_legit_no_training_8[2];  _native_batch_norm_legit_no_training_8 = getitem_28 = None
    relu__7 = torch.ops.aten.relu_.default(getitem_26);  getitem_26 = None
    _param_constant27 = self._param_constant27
    convolution_9 = torch.ops.aten.convolution.default(relu__7, _param_constant27, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu__7 = _param_constant27 = None
    empty_9 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_9 = None
    _param_constant28 = self._param_constant28
    _param_constant29 = self._param_constant29
    _tensor_constant18 = self._tensor_constant18
    _tensor_constant19 = self._tensor_constant19
    _native_batch_norm_legit_no_training_9 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_9, _param_constant28, _param_constant29, _tensor_constant18, _tensor_constant19, 0.1, 1e-05);  convolution_9 = _param_constant28 = _param_constant29 = _tensor_constant18 = _tensor_constant19 = None
    getitem_29 = _native_batch_norm_legit_no_training_9[0]
    getitem_30 = _native_batch_norm_legit_no_training_9[1];  getitem_30 = None
    getitem_31 = _native_batch_norm_legit_no_training_9[2];  _native_batch_norm_legit_no_training_9 = getitem_31 = None
    add__3 = torch.ops.aten.add_.Tensor(getitem_29, relu__6);  getitem_29 = relu__6 = None
    relu__8 = torch.ops.aten.relu_.default(add__3);  add__3 = None
    _param_constant30 = self._param_constant30
    convolution_10 = torch.ops.aten.convolution.default(relu__8, _param_constant30, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1);  _param_constant30 = None
    empty_10 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_10 = None
    _param_constant31 = self._param_constant31
    _param_constant32 = self._param_constant32
    _tensor_constant20 = self._tensor_constant20
    _tensor_constant21 = self._tensor_constant21
    _native_batch_norm_legit_no_training_10 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_10, _param_constant31, _param_constant32, _tensor_constant20, _tensor_constant21, 0.1, 1e-05);  convolution_10 = _param_constant31 = _param_constant32 = _tensor_constant20 = _tensor_constant21 = None
    getitem_32 = _native_batch_norm_legit_no_training_10[0]
    getitem_33 = _native_batch_norm_legit_no_training_10[1];  getitem_33 = None
    getitem_34 = _native_batch_norm_legit_no_training_10[2];  _native_batch_norm_legit_no_training_10 = getitem_34 = None
    relu__9 = torch.ops.aten.relu_.default(getitem_32);  getitem_32 = None
    _param_constant33 = self._param_constant33
    convolution_11 = torch.ops.aten.convolution.default(relu__9, _param_constant33, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu__9 = _param_constant33 = None
    empty_11 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_11 = None
    _param_constant34 = self._param_constant34
    _param_constant35 = self._param_constant35
    _tensor_constant22 = self._tensor_constant22
    _tensor_constant23 = self._tensor_constant23
    _native_batch_norm_legit_no_training_11 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_11, _param_constant34, _param_constant35, _tensor_constant22, _tensor_constant23, 0.1, 1e-05);  convolution_11 = _param_constant34 = _param_constant35 = _tensor_constant22 = _tensor_constant23 = None
    getitem_35 = _native_batch_norm_legit_no_training_11[0]
    getitem_36 = _native_batch_norm_legit_no_training_11[1];  getitem_36 = None
    getitem_37 = _native_batch_norm_legit_no_training_11[2];  _native_batch_norm_legit_no_training_11 = getitem_37 = None
    _param_constant36 = self._param_constant36
    convolution_12 = torch.ops.aten.convolution.default(relu__8, _param_constant36, None, [2, 2], [0, 0], [1, 1], False, [0, 0], 1);  relu__8 = _param_constant36 = None
    empty_12 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_12 = None
    _param_constant37 = self._param_constant37
    _param_constant38 = self._param_constant38
    _tensor_constant24 = self._tensor_constant24
    _tensor_constant25 = self._tensor_constant25
    _native_batch_norm_legit_no_training_12 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_12, _param_constant37, _param_constant38, _tensor_constant24, _tensor_constant25, 0.1, 1e-05);  convolution_12 = _param_constant37 = _param_constant38 = _tensor_constant24 = _tensor_constant25 = None
    getitem_38 = _native_batch_norm_legit_no_training_12[0]
    getitem_39 = _native_batch_norm_legit_no_training_12[1];  getitem_39 = None
    getitem_40 = _native_batch_norm_legit_no_training_12[2];  _native_batch_norm_legit_no_training_12 = getitem_40 = None
    add__4 = torch.ops.aten.add_.Tensor(getitem_35, getitem_38);  getitem_35 = getitem_38 = None
    relu__10 = torch.ops.aten.relu_.default(add__4);  add__4 = None
    _param_constant39 = self._param_constant39
    convolution_13 = torch.ops.aten.convolution.default(relu__10, _param_constant39, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  _param_constant39 = None
    empty_13 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_13 = None
    _param_constant40 = self._param_constant40
    _param_constant41 = self._param_constant41
    _tensor_constant26 = self._tensor_constant26
    _tensor_constant27 = self._tensor_constant27
    _native_batch_norm_legit_no_training_13 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_13, _param_constant40, _param_constant41, _tensor_constant26, _tensor_constant27, 0.1, 1e-05);  convolution_13 = _param_constant40 = _param_constant41 = _tensor_constant26 = _tensor_constant27 = None
    getitem_41 = _native_batch_norm_legit_no_training_13[0]
    getitem_42 = _native_batch_norm_legit_no_training_13[1];  getitem_42 = None
    getitem_43 = _native_batch_norm_legit_no_training_13[2];  _native_batch_norm_legit_no_training_13 = getitem_43 = None
    relu__11 = torch.ops.aten.relu_.default(getitem_41);  getitem_41 = None
    _param_constant42 = self._param_constant42
    convolution_14 = torch.ops.aten.convolution.default(relu__11, _param_constant42, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu__11 = _param_constant42 = None
    empty_14 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_14 = None
    _param_constant43 = self._param_constant43
    _param_constant44 = self._param_constant44
    _tensor_constant28 = self._tensor_constant28
    _tensor_constant29 = self._tensor_constant29
    _native_batch_norm_legit_no_training_14 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_14, _param_constant43, _param_constant44, _tensor_constant28, _tensor_constant29, 0.1, 1e-05);  convolution_14 = _param_constant43 = _param_constant44 = _tensor_constant28 = _tensor_constant29 = None
    getitem_44 = _native_batch_norm_legit_no_training_14[0]
    getitem_45 = _native_batch_norm_legit_no_training_14[1];  getitem_45 = None
    getitem_46 = _native_batch_norm_legit_no_training_14[2];  _native_batch_norm_legit_no_training_14 = getitem_46 = None
    add__5 = torch.ops.aten.add_.Tensor(getitem_44, relu__10);  getitem_44 = relu__10 = None
    relu__12 = torch.ops.aten.relu_.default(add__5);  add__5 = None
    _param_constant45 = self._param_constant45
    convolution_15 = torch.ops.aten.convolution.default(relu__12, _param_constant45, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1);  _param_constant45 = None
    empty_15 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_15 = None
    _param_constant46 = self._param_constant46
    _param_constant47 = self._param_constant47
    _tensor_constant30 = self._tensor_constant30
    _tensor_constant31 = self._tensor_constant31
    _native_batch_norm_legit_no_training_15 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_15, _param_constant46, _param_constant47, _tensor_constant30, _tensor_constant31, 0.1, 1e-05);  convolution_15 = _param_constant46 = _param_constant47 = _tensor_constant30 = _tensor_constant31 = None
    getitem_47 = _native_batch_norm_legit_no_training_15[0]
    getitem_48 = _native_batch_norm_legit_no_training_15[1];  getitem_48 = None
    getitem_49 = _native_batch_norm_legit_no_training_15[2];  _native_batch_norm_legit_no_training_15 = getitem_49 = None
    relu__13 = torch.ops.aten.relu_.default(getitem_47);  getitem_47 = None
    _param_constant48 = self._param_constant48
    convolution_16 = torch.ops.aten.convolution.default(relu__13, _param_constant48, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu__13 = _param_constant48 = None
    empty_16 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_16 = None
    _param_constant49 = self._param_constant49
    _param_constant50 = self._param_constant50
    _tensor_constant32 = self._tensor_constant32
    _tensor_constant33 = self._tensor_constant33
    _native_batch_norm_legit_no_training_16 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_16, _param_constant49, _param_constant50, _tensor_constant32, _tensor_constant33, 0.1, 1e-05);  convolution_16 = _param_constant49 = _param_constant50 = _tensor_constant32 = _tensor_constant33 = None
    getitem_50 = _native_batch_norm_legit_no_training_16[0]
    getitem_51 = _native_batch_norm_legit_no_training_16[1];  getitem_51 = None
    getitem_52 = _native_batch_norm_legit_no_training_16[2];  _native_batch_norm_legit_no_training_16 = getitem_52 = None
    _param_constant51 = self._param_constant51
    convolution_17 = torch.ops.aten.convolution.default(relu__12, _param_constant51, None, [2, 2], [0, 0], [1, 1], False, [0, 0], 1);  relu__12 = _param_constant51 = None
    empty_17 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_17 = None
    _param_constant52 = self._param_constant52
    _param_constant53 = self._param_constant53
    _tensor_constant34 = self._tensor_constant34
    _tensor_constant35 = self._tensor_constant35
    _native_batch_norm_legit_no_training_17 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_17, _param_constant52, _param_constant53, _tensor_constant34, _tensor_constant35, 0.1, 1e-05);  convolution_17 = _param_constant52 = _param_constant53 = _tensor_constant34 = _tensor_constant35 = None
    getitem_53 = _native_batch_norm_legit_no_training_17[0]
    getitem_54 = _native_batch_norm_legit_no_training_17[1];  getitem_54 = None
    getitem_55 = _native_batch_norm_legit_no_training_17[2];  _native_batch_norm_legit_no_training_17 = getitem_55 = None
    add__6 = torch.ops.aten.add_.Tensor(getitem_50, getitem_53);  getitem_50 = getitem_53 = None
    relu__14 = torch.ops.aten.relu_.default(add__6);  add__6 = None
    _param_constant54 = self._param_constant54
    convolution_18 = torch.ops.aten.convolution.default(relu__14, _param_constant54, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  _param_constant54 = None
    empty_18 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_18 = None
    _param_constant55 = self._param_constant55
    _param_constant56 = self._param_constant56
    _tensor_constant36 = self._tensor_constant36
    _tensor_constant37 = self._tensor_constant37
    _native_batch_norm_legit_no_training_18 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_18, _param_constant55, _param_constant56, _tensor_constant36, _tensor_constant37, 0.1, 1e-05);  convolution_18 = _param_constant55 = _param_constant56 = _tensor_constant36 = _tensor_constant37 = None
    getitem_56 = _native_batch_norm_legit_no_training_18[0]
    getitem_57 = _native_batch_norm_legit_no_training_18[1];  getitem_57 = None
    getitem_58 = _native_batch_norm_legit_no_training_18[2];  _native_batch_norm_legit_no_training_18 = getitem_58 = None
    relu__15 = torch.ops.aten.relu_.default(getitem_56);  getitem_56 = None
    _param_constant57 = self._param_constant57
    convolution_19 = torch.ops.aten.convolution.default(relu__15, _param_constant57, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu__15 = _param_constant57 = None
    empty_19 = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'));  empty_19 = None
    _param_constant58 = self._param_constant58
    _param_constant59 = self._param_constant59
    _tensor_constant38 = self._tensor_constant38
    _tensor_constant39 = self._tensor_constant39
    _native_batch_norm_legit_no_training_19 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_19, _param_constant58, _param_constant59, _tensor_constant38, _tensor_constant39, 0.1, 1e-05);  convolution_19 = _param_constant58 = _param_constant59 = _tensor_constant38 = _tensor_constant39 = None
    getitem_59 = _native_batch_norm_legit_no_training_19[0]
    getitem_60 = _native_batch_norm_legit_no_training_19[1];  getitem_60 = None
    getitem_61 = _native_batch_norm_legit_no_training_19[2];  _native_batch_norm_legit_no_training_19 = getitem_61 = None
    add__7 = torch.ops.aten.add_.Tensor(getitem_59, relu__14);  getitem_59 = relu__14 = None
    relu__16 = torch.ops.aten.relu_.default(add__7);  add__7 = None
    mean = torch.ops.aten.mean.dim(relu__16, [-1, -2], True);  relu__16 = None
    view = torch.ops.aten.view.default(mean, [1, 512]);  mean = None
    _param_constant60 = self._param_constant60
    t = torch.ops.aten.t.default(_param_constant60);  _param_constant60 = None
    _param_constant61 = self._param_constant61
    addmm = torch.ops.aten.addmm.default(_param_constant61, view, t);  _param_constant61 = view = t = None
    return addmm
