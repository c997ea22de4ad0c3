# torchvision 0.21.0 models.swin_t(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx
from torchvision.models.swin_transformer import _get_relative_position_bias as torchvision_models_swin_transformer__get_relative_position_bias
from torchvision.models.swin_transformer import _patch_merging_pad as torchvision_models_swin_transformer__patch_merging_pad
from torchvision.models.swin_transformer import shifted_window_attention as torchvision_models_swin_transformer_shifted_window_attention
from torchvision.ops.stochastic_depth import stochastic_depth as torchvision_ops_stochastic_depth_stochastic_depth
torch.fx._symbolic_trace.wrap("torchvision_models_swin_transformer__get_relative_position_bias")
torch.fx._symbolic_trace.wrap("torchvision_models_swin_transformer_shifted_window_attention")
torch.fx._symbolic_trace.wrap("torchvision_ops_stochastic_depth_stochastic_depth")
torch.fx._symbolic_trace.wrap("torchvision_models_swin_transformer__patch_merging_pad")

def forward(self, x):
    features_0_0 = getattr(getattr(self.features, "0"), "0")(x);  x = None
    permute = torch.permute(features_0_0, [0, 2, 3, 1]);  features_0_0 = None
    features_0_2 = getattr(getattr(self.features, "0"), "2")(permute);  permute = None
    features_1_0_norm1 = getattr(getattr(self.features, "1"), "0").norm1(features_0_2)
    features_1_0_attn_relative_position_bias_table = getattr(getattr(self.features, "1"), "0").attn.relative_position_bias_table
    features_1_0_attn_relative_position_index = getattr(getattr(self.features, "1"), "0").attn.relative_position_index
    _get_relative_position_bias = torchvision_models_swin_transformer__get_relative_position_bias(features_1_0_attn_relative_position_bias_table, features_1_0_attn_relative_position_index, [7, 7]);  features_1_0_attn_relative_position_bias_table = features_1_0_attn_relative_position_index = None
    features_1_0_attn_qkv_weight = getattr(getattr(self.features, "1"), "0").attn.qkv.weight
    features_1_0_attn_proj_weight = getattr(getattr(self.features, "1"), "0").attn.proj.weight
    features_1_0_attn_qkv_bias = getattr(getattr(self.features, "1"), "0").attn.qkv.bias
    features_1_0_attn_proj_bias = getattr(getattr(self.features, "1"), "0").attn.proj.bias
    shifted_window_attention = torchvision_models_swin_transformer_shifted_window_attention(features_1_0_norm1, features_1_0_attn_qkv_weight, features_1_0_attn_proj_weight, _get_relative_position_bias, [7, 7], 3, shift_size = [0, 0], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_1_0_attn_qkv_bias, proj_bias = features_1_0_attn_proj_bias, training = False);  features_1_0_norm1 = features_1_0_attn_qkv_weight = features_1_0_attn_proj_weight = _get_relative_position_bias = features_1_0_attn_qkv_bias = features_1_0_attn_proj_bias = None
    stochastic_depth = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention, 0.0, 'row', False);  shifted_window_attention = None
    add = features_0_2 + stochastic_depth;  features_0_2 = stochastic_depth = None
    features_1_0_norm2 = getattr(getattr(self.features, "1"), "0").norm2(add)
    features_1_0_mlp_0 = getattr(getattr(getattr(self.features, "1"), "0").mlp, "0")(features_1_0_norm2);  features_1_0_norm2 = None
    features_1_0_mlp_1 = getattr(getattr(getattr(self.features, "1"), "0").mlp, "1")(features_1_0_mlp_0);  features_1_0_mlp_0 = None
    features_1_0_mlp_2 = getattr(getattr(getattr(self.features, "1"), "0").mlp, "2")(features_1_0_mlp_1);  features_1_0_mlp_1 = None
    features_1_0_mlp_3 = getattr(getattr(getattr(self.features, "1"), "0").mlp, "3")(features_1_0_mlp_2);  features_1_0_mlp_2 = None
    features_1_0_mlp_4 = getattr(getattr(getattr(self.features, "1"), "0").mlp, "4")(features_1_0_mlp_3);  features_1_0_mlp_3 = None
    stochastic_depth_1 = torchvision_ops_stochastic_depth_stochastic_depth(features_1_0_mlp_4, 0.0, 'row', False);  features_1_0_mlp_4 = None
    add_1 = add + stochastic_depth_1;  add = stochastic_depth_1 = None
    features_1_1_norm1 = getattr(getattr(self.features, "1"), "1").norm1(add_1)
    features_1_1_attn_relative_position_bias_table = getattr(getattr(self.features, "1"), "1").attn.relative_position_bias_table
    features_1_1_attn_relative_position_index = getattr(getattr(self.features, "1"), "1").attn.relative_position_index
    _get_relative_position_bias_1 = torchvision_models_swin_transformer__get_relative_position_bias(features_1_1_attn_relative_position_bias_table, features_1_1_attn_relative_position_index, [7, 7]);  features_1_1_attn_relative_position_bias_table = features_1_1_attn_relative_position_index = None
    features_1_1_attn_qkv_weight = getattr(getattr(self.features, "1"), "1").attn.qkv.weight
    features_1_1_attn_proj_weight = getattr(getattr(self.features, "1"), "1").attn.proj.weight
    features_1_1_attn_qkv_bias = getattr(getattr(self.features, "1"), "1").attn.qkv.bias
    features_1_1_attn_proj_bias = getattr(getattr(self.features, "1"), "1").attn.proj.bias
    shifted_window_attention_1 = torchvision_models_swin_transformer_shifted_window_attention(features_1_1_norm1, features_1_1_attn_qkv_weight, features_1_1_attn_proj_weight, _get_relative_position_bias_1, [7, 7], 3, shift_size = [3, 3], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_1_1_attn_qkv_bias, proj_bias = features_1_1_attn_proj_bias, training = False);  features_1_1_norm1 = features_1_1_attn_qkv_weight = features_1_1_attn_proj_weight = _get_relative_position_bias_1 = features_1_1_attn_qkv_bias = features_1_1_attn_proj_bias = None
    stochastic_depth_2 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_1, 0.018181818181818184, 'row', False);  shifted_window_attention_1 = None
    add_2 = add_1 + stochastic_depth_2;  add_1 = stochastic_depth_2 = None
    features_1_1_norm2 = getattr(getattr(self.features, "1"), "1").norm2(add_2)
    features_1_1_mlp_0 = getattr(getattr(getattr(self.features, "1"), "1").mlp, "0")(features_1_1_norm2);  features_1_1_norm2 = None
    features_1_1_mlp_1 = getattr(getattr(getattr(self.features, "1"), "1").mlp, "1")(features_1_1_mlp_0);  features_1_1_mlp_0 = None
    features_1_1_mlp_2 = getattr(getattr(getattr(self.features, "1"), "1").mlp, "2")(features_1_1_mlp_1);  features_1_1_mlp_1 = None
    features_1_1_mlp_3 = getattr(getattr(getattr(self.features, "1"), "1").mlp, "3")(features_1_1_mlp_2);  features_1_1_mlp_2 = None
    features_1_1_mlp_4 = getattr(getattr(getattr(self.features, "1"), "1").mlp, "4")(features_1_1_mlp_3);  features_1_1_mlp_3 = None
    stochastic_depth_3 = torchvision_ops_stochastic_depth_stochastic_depth(features_1_1_mlp_4, 0.018181818181818184, 'row', False);  features_1_1_mlp_4 = None
    add_3 = add_2 + stochastic_depth_3;  add_2 = stochastic_depth_3 = None
    _patch_merging_pad = torchvision_models_swin_transformer__patch_merging_pad(add_3);  add_3 = None
    features_2_norm = getattr(self.features, "2").norm(_patch_merging_pad);  _patch_merging_pad = None
    features_2_reduction = getattr(self.features, "2").reduction(features_2_norm);  features_2_norm = None
    features_3_0_norm1 = getattr(getattr(self.features, "3"), "0").norm1(features_2_reduction)
    features_3_0_attn_relative_position_bias_table = getattr(getattr(self.features, "3"), "0").attn.relative_position_bias_table
    features_3_0_attn_relative_position_index = getattr(getattr(self.features, "3"), "0").attn.relative_position_index
    _get_relative_position_bias_2 = torchvision_models_swin_transformer__get_relative_position_bias(features_3_0_attn_relative_position_bias_table, features_3_0_attn_relative_position_index, [7, 7]);  features_3_0_attn_relative_position_bias_table = features_3_0_attn_relative_position_index = None
    features_3_0_attn_qkv_weight = getattr(getattr(self.features, "3"), "0").attn.qkv.weight
    features_3_0_attn_proj_weight = getattr(getattr(self.features, "3"), "0").attn.proj.weight
    features_3_0_attn_qkv_bias = getattr(getattr(self.features, "3"), "0").attn.qkv.bias
    features_3_0_attn_proj_bias = getattr(getattr(self.features, "3"), "0").attn.proj.bias
    shifted_window_attention_2 = torchvision_models_swin_transformer_shifted_window_attention(features_3_0_norm1, features_3_0_attn_qkv_weight, features_3_0_attn_proj_weight, _get_relative_position_bias_2, [7, 7], 6, shift_size = [0, 0], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_3_0_attn_qkv_bias, proj_bias = features_3_0_attn_proj_bias, training = False);  features_3_0_norm1 = features_3_0_attn_qkv_weight = features_3_0_attn_proj_weight = _get_relative_position_bias_2 = features_3_0_attn_qkv_bias = features_3_0_attn_proj_bias = None
    stochastic_depth_4 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_2, 0.03636363636363637, 'row', False);  shifted_window_attention_2 = None
    add_4 = features_2_reduction + stochastic_depth_4;  features_2_reduction = stochastic_depth_4 = None
    features_3_0_norm2 = getattr(getattr(self.features, "3"), "0").norm2(add_4)
    features_3_0_mlp_0 = getattr(getattr(getattr(self.features, "3"), "0").mlp, "0")(features_3_0_norm2);  features_3_0_norm2 = None
    features_3_0_mlp_1 = getattr(getattr(getattr(self.features, "3"), "0").mlp, "1")(features_3_0_mlp_0);  features_3_0_mlp_0 = None
    features_3_0_mlp_2 = getattr(getattr(getattr(self.features, "3"), "0").mlp, "2")(features_3_0_mlp_1);  features_3_0_mlp_1 = None
    features_3_0_mlp_3 = getattr(getattr(getattr(self.features, "3"), "0").mlp, "3")(features_3_0_mlp_2);  features_3_0_mlp_2 = None
    features_3_0_mlp_4 = getattr(getattr(getattr(self.features, "3"), "0").mlp, "4")(features_3_0_mlp_3);  features_3_0_mlp_3 = None
    stochastic_depth_5 = torchvision_ops_stochastic_depth_stochastic_depth(features_3_0_mlp_4, 0.03636363636363637, 'row', False);  features_3_0_mlp_4 = None
    add_5 = add_4 + stochastic_depth_5;  add_4 = stochastic_depth_5 = None
    features_3_1_norm1 = getattr(getattr(self.features, "3"), "1").norm1(add_5)
    features_3_1_attn_relative_position_bias_table = getattr(getattr(self.features, "3"), "1").attn.relative_position_bias_table
    features_3_1_attn_relative_position_index = getattr(getattr(self.features, "3"), "1").attn.relative_position_index
    _get_relative_position_bias_3 = torchvision_models_swin_transformer__get_relative_position_bias(features_3_1_attn_relative_position_bias_table, features_3_1_attn_relative_position_index, [7, 7]);  features_3_1_attn_relative_position_bias_table = features_3_1_attn_relative_position_index = None
    features_3_1_attn_qkv_weight = getattr(getattr(self.features, "3"), "1").attn.qkv.weight
    features_3_1_attn_proj_weight = getattr(getattr(self.features, "3"), "1").attn.proj.weight
    features_3_1_attn_qkv_bias = getattr(getattr(self.features, "3"), "1").attn.qkv.bias
    features_3_1_attn_proj_bias = getattr(getattr(self.features, "3"), "1").attn.proj.bias
    shifted_window_attention_3 = torchvision_models_swin_transformer_shifted_window_attention(features_3_1_norm1, features_3_1_attn_qkv_weight, features_3_1_attn_proj_weight, _get_relative_position_bias_3, [7, 7], 6, shift_size = [3, 3], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_3_1_attn_qkv_bias, proj_bias = features_3_1_attn_proj_bias, training = False);  features_3_1_norm1 = features_3_1_attn_qkv_weight = features_3_1_attn_proj_weight = _get_relative_position_bias_3 = features_3_1_attn_qkv_bias = features_3_1_attn_proj_bias = None
    stochastic_depth_6 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_3, 0.05454545454545456, 'row', False);  shifted_window_attention_3 = None
    add_6 = add_5 + stochastic_depth_6;  add_5 = stochastic_depth_6 = None
    features_3_1_norm2 = getattr(getattr(self.features, "3"), "1").norm2(add_6)
    features_3_1_mlp_0 = getattr(getattr(getattr(self.features, "3"), "1").mlp, "0")(features_3_1_norm2);  features_3_1_norm2 = None
    features_3_1_mlp_1 = getattr(getattr(getattr(self.features, "3"), "1").mlp, "1")(features_3_1_mlp_0);  features_3_1_mlp_0 = None
    features_3_1_mlp_2 = getattr(getattr(getattr(self.features, "3"), "1").mlp, "2")(features_3_1_mlp_1);  features_3_1_mlp_1 = None
    features_3_1_mlp_3 = getattr(getattr(getattr(self.features, "3"), "1").mlp, "3")(features_3_1_mlp_2);  features_3_1_mlp_2 = None
    features_3_1_mlp_4 = getattr(getattr(getattr(self.features, "3"), "1").mlp, "4")(features_3_1_mlp_3);  features_3_1_mlp_3 = None
    stochastic_depth_7 = torchvision_ops_stochastic_depth_stochastic_depth(features_3_1_mlp_4, 0.05454545454545456, 'row', False);  features_3_1_mlp_4 = None
    add_7 = add_6 + stochastic_depth_7;  add_6 = stochastic_depth_7 = None
    _patch_merging_pad_1 = torchvision_models_swin_transformer__patch_merging_pad(add_7);  add_7 = None
    features_4_norm = getattr(self.features, "4").norm(_patch_merging_pad_1);  _patch_merging_pad_1 = None
    features_4_reduction = getattr(self.features, "4").reduction(features_4_norm);  features_4_norm = None
    features_5_0_norm1 = getattr(getattr(self.features, "5"), "0").norm1(features_4_reduction)
    features_5_0_attn_relative_position_bias_table = getattr(getattr(self.features, "5"), "0").attn.relative_position_bias_table
    features_5_0_attn_relative_position_index = getattr(getattr(self.features, "5"), "0").attn.relative_position_index
    _get_relative_position_bias_4 = torchvision_models_swin_transformer__get_relative_position_bias(features_5_0_attn_relative_position_bias_table, features_5_0_attn_relative_position_index, [7, 7]);  features_5_0_attn_relative_position_bias_table = features_5_0_attn_relative_position_index = None
    features_5_0_attn_qkv_weight = getattr(getattr(self.features, "5"), "0").attn.qkv.weight
    features_5_0_attn_proj_weight = getattr(getattr(self.features, "5"), "0").attn.proj.weight
    features_5_0_attn_qkv_bias = getattr(getattr(self.features, "5"), "0").attn.qkv.bias
    features_5_0_attn_proj_bias = getattr(getattr(self.features, "5"), "0").attn.proj.bias
    shifted_window_attention_4 = torchvision_models_swin_transformer_shifted_window_attention(features_5_0_norm1, features_5_0_attn_qkv_weight, features_5_0_attn_proj_weight, _get_relative_position_bias_4, [7, 7], 12, shift_size = [0, 0], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_5_0_attn_qkv_bias, proj_bias = features_5_0_attn_proj_bias, training = False);  features_5_0_norm1 = features_5_0_attn_qkv_weight = features_5_0_attn_proj_weight = _get_relative_position_bias_4 = features_5_0_attn_qkv_bias = features_5_0_attn_proj_bias = None
    stochastic_depth_8 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_4, 0.07272727272727274, 'row', False);  shifted_window_attention_4 = None
    add_8 = features_4_reduction + stochastic_depth_8;  features_4_reduction = stochastic_depth_8 = None
    features_5_0_norm2 = getattr(getattr(self.features, "5"), "0").norm2(add_8)
    features_5_0_mlp_0 = getattr(getattr(getattr(self.features, "5"), "0").mlp, "0")(features_5_0_norm2);  features_5_0_norm2 = None
    features_5_0_mlp_1 = getattr(getattr(getattr(self.features, "5"), "0").mlp, "1")(features_5_0_mlp_0);  features_5_0_mlp_0 = None
    features_5_0_mlp_2 = getattr(getattr(getattr(self.features, "5"), "0").mlp, "2")(features_5_0_mlp_1);  features_5_0_mlp_1 = None
    features_5_0_mlp_3 = getattr(getattr(getattr(self.features, "5"), "0").mlp, "3")(features_5_0_mlp_2);  features_5_0_mlp_2 = None
    features_5_0_mlp_4 = getattr(getattr(getattr(self.features, "5"), "0").mlp, "4")(features_5_0_mlp_3);  features_5_0_mlp_3 = None
    stochastic_depth_9 = torchvision_ops_stochastic_depth_stochastic_depth(features_5_0_mlp_4, 0.07272727272727274, 'row', False);  features_5_0_mlp_4 = None
    add_9 = add_8 + stochastic_depth_9;  add_8 = stochastic_depth_9 = None
    features_5_1_norm1 = getattr(getattr(self.features, "5"), "1").norm1(add_9)
    features_5_1_attn_relative_position_bias_table = getattr(getattr(self.features, "5"), "1").attn.relative_position_bias_table
    features_5_1_attn_relative_position_index = getattr(getattr(self.features, "5"), "1").attn.relative_position_index
    _get_relative_position_bias_5 = torchvision_models_swin_transformer__get_relative_position_bias(features_5_1_attn_relative_position_bias_table, features_5_1_attn_relative_position_index, [7, 7]);  features_5_1_attn_relative_position_bias_table = features_5_1_attn_relative_position_index = None
    features_5_1_attn_qkv_weight = getattr(getattr(self.features, "5"), "1").attn.qkv.weight
    features_5_1_attn_proj_weight = getattr(getattr(self.features, "5"), "1").attn.proj.weight
    features_5_1_attn_qkv_bias = getattr(getattr(self.features, "5"), "1").attn.qkv.bias
    features_5_1_attn_proj_bias = getattr(getattr(self.features, "5"), "1").attn.proj.bias
    shifted_window_attention_5 = torchvision_models_swin_transformer_shifted_window_attention(features_5_1_norm1, features_5_1_attn_qkv_weight, features_5_1_attn_proj_weight, _get_relative_position_bias_5, [7, 7], 12, shift_size = [3, 3], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_5_1_attn_qkv_bias, proj_bias = features_5_1_attn_proj_bias, training = False);  features_5_1_norm1 = features_5_1_attn_qkv_weight = features_5_1_attn_proj_weight = _get_relative_position_bias_5 = features_5_1_attn_qkv_bias = features_5_1_attn_proj_bias = None
    stochastic_depth_10 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_5, 0.09090909090909091, 'row', False);  shifted_window_attention_5 = None
    add_10 = add_9 + stochastic_depth_10;  add_9 = stochastic_depth_10 = None
    features_5_1_norm2 = getattr(getattr(self.features, "5"), "1").norm2(add_10)
    features_5_1_mlp_0 = getattr(getattr(getattr(self.features, "5"), "1").mlp, "0")(features_5_1_norm2);  features_5_1_norm2 = None
    features_5_1_mlp_1 = getattr(getattr(getattr(self.features, "5"), "1").mlp, "1")(features_5_1_mlp_0);  features_5_1_mlp_0 = None
    features_5_1_mlp_2 = getattr(getattr(getattr(self.features, "5"), "1").mlp, "2")(features_5_1_mlp_1);  features_5_1_mlp_1 = None
    features_5_1_mlp_3 = getattr(getattr(getattr(self.features, "5"), "1").mlp, "3")(features_5_1_mlp_2);  features_5_1_mlp_2 = None
    features_5_1_mlp_4 = getattr(getattr(getattr(self.features, "5"), "1").mlp, "4")(features_5_1_mlp_3);  features_5_1_mlp_3 = None
    stochastic_depth_11 = torchvision_ops_stochastic_depth_stochastic_depth(features_5_1_mlp_4, 0.09090909090909091, 'row', False);  features_5_1_mlp_4 = None
    add_11 = add_10 + stochastic_depth_11;  add_10 = stochastic_depth_11 = None
    features_5_2_norm1 = getattr(getattr(self.features, "5"), "2").norm1(add_11)
    features_5_2_attn_relative_position_bias_table = getattr(getattr(self.features, "5"), "2").attn.relative_position_bias_table
    features_5_2_attn_relative_position_index = getattr(getattr(self.features, "5"), "2").attn.relative_position_index
    _get_relative_position_bias_6 = torchvision_models_swin_transformer__get_relative_position_bias(features_5_2_attn_relative_position_bias_table, features_5_2_attn_relative_position_index, [7, 7]);  features_5_2_attn_relative_position_bias_table = features_5_2_attn_relative_position_index = None
    features_5_2_attn_qkv_weight = getattr(getattr(self.features, "5"), "2").attn.qkv.weight
    features_5_2_attn_proj_weight = getattr(getattr(self.features, "5"), "2").attn.proj.weight
    features_5_2_attn_qkv_bias = getattr(getattr(self.features, "5"), "2").attn.qkv.bias
    features_5_2_attn_proj_bias = getattr(getattr(self.features, "5"), "2").attn.proj.bias
    shifted_window_attention_6 = torchvision_models_swin_transformer_shifted_window_attention(features_5_2_norm1, features_5_2_attn_qkv_weight, features_5_2_attn_proj_weight, _get_relative_position_bias_6, [7, 7], 12, shift_size = [0, 0], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_5_2_attn_qkv_bias, proj_bias = features_5_2_attn_proj_bias, training = False);  features_5_2_norm1 = features_5_2_attn_qkv_weight = features_5_2_attn_proj_weight = _get_relative_position_bias_6 = features_5_2_attn_qkv_bias = features_5_2_attn_proj_bias = None
    stochastic_depth_12 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_6, 0.10909090909090911, 'row', False);  shifted_window_attention_6 = None
    add_12 = add_11 + stochastic_depth_12;  add_11 = stochastic_depth_12 = None
    features_5_2_norm2 = getattr(getattr(self.features, "5"), "2").norm2(add_12)
    features_5_2_mlp_0 = getattr(getattr(getattr(self.features, "5"), "2").mlp, "0")(features_5_2_norm2);  features_5_2_norm2 = None
    features_5_2_mlp_1 = getattr(getattr(getattr(self.features, "5"), "2").mlp, "1")(features_5_2_mlp_0);  features_5_2_mlp_0 = None
    features_5_2_mlp_2 = getattr(getattr(getattr(self.features, "5"), "2").mlp, "2")(features_5_2_mlp_1);  features_5_2_mlp_1 = None
    features_5_2_mlp_3 = getattr(getattr(getattr(self.features, "5"), "2").mlp, "3")(features_5_2_mlp_2);  features_5_2_mlp_2 = None
    features_5_2_mlp_4 = getattr(getattr(getattr(self.features, "5"), "2").mlp, "4")(features_5_2_mlp_3);  features_5_2_mlp_3 = None
    stochastic_depth_13 = torchvision_ops_stochastic_depth_stochastic_depth(features_5_2_mlp_4, 0.10909090909090911, 'row', False);  features_5_2_mlp_4 = None
    add_13 = add_12 + stochastic_depth_13;  add_12 = stochastic_depth_13 = None
    features_5_3_norm1 = getattr(getattr(self.features, "5"), "3").norm1(add_13)
    features_5_3_attn_relative_position_bias_table = getattr(getattr(self.features, "5"), "3").attn.relative_position_bias_table
    features_5_3_attn_relative_position_index = getattr(getattr(self.features, "5"), "3").attn.relative_position_index
    _get_relative_position_bias_7 = torchvision_models_swin_transformer__get_relative_position_bias(features_5_3_attn_relative_position_bias_table, features_5_3_attn_relative_position_index, [7, 7]);  features_5_3_attn_relative_position_bias_table = features_5_3_attn_relative_position_index = None
    features_5_3_attn_qkv_weight = getattr(getattr(self.features, "5"), "3").attn.qkv.weight
    features_5_3_attn_proj_weight = getattr(getattr(self.features, "5"), "3").attn.proj.weight
    features_5_3_attn_qkv_bias = getattr(getattr(self.features, "5"), "3").attn.qkv.bias
    features_5_3_attn_proj_bias = getattr(getattr(self.features, "5"), "3").attn.proj.bias
    shifted_window_attention_7 = torchvision_models_swin_transformer_shifted_window_attention(features_5_3_norm1, features_5_3_attn_qkv_weight, features_5_3_attn_proj_weight, _get_relative_position_bias_7, [7, 7], 12, shift_size = [3, 3], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_5_3_attn_qkv_bias, proj_bias = features_5_3_attn_proj_bias, training = False);  features_5_3_norm1 = features_5_3_attn_qkv_weight = features_5_3_attn_proj_weight = _get_relative_position_bias_7 = features_5_3_attn_qkv_bias = features_5_3_attn_proj_bias = None
    stochastic_depth_14 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_7, 0.1272727272727273, 'row', False);  shifted_window_attention_7 = None
    add_14 = add_13 + stochastic_depth_14;  add_13 = stochastic_depth_14 = None
    features_5_3_norm2 = getattr(getattr(self.features, "5"), "3").norm2(add_14)
    features_5_3_mlp_0 = getattr(getattr(getattr(self.features, "5"), "3").mlp, "0")(features_5_3_norm2);  features_5_3_norm2 = None
    features_5_3_mlp_1 = getattr(getattr(getattr(self.features, "5"), "3").mlp, "1")(features_5_3_mlp_0);  features_5_3_mlp_0 = None
    features_5_3_mlp_2 = getattr(getattr(getattr(self.features, "5"), "3").mlp, "2")(features_5_3_mlp_1);  features_5_3_mlp_1 = None
    features_5_3_mlp_3 = getattr(getattr(getattr(self.features, "5"), "3").mlp, "3")(features_5_3_mlp_2);  features_5_3_mlp_2 = None
    features_5_3_mlp_4 = getattr(getattr(getattr(self.features, "5"), "3").mlp, "4")(features_5_3_mlp_3);  features_5_3_mlp_3 = None
    stochastic_depth_15 = torchvision_ops_stochastic_depth_stochastic_depth(features_5_3_mlp_4, 0.1272727272727273, 'row', False);  features_5_3_mlp_4 = None
    add_15 = add_14 + stochastic_depth_15;  add_14 = stochastic_depth_15 = None
    features_5_4_norm1 = getattr(getattr(self.features, "5"), "4").norm1(add_15)
    features_5_4_attn_relative_position_bias_table = getattr(getattr(self.features, "5"), "4").attn.relative_position_bias_table
    features_5_4_attn_relative_position_index = getattr(getattr(self.features, "5"), "4").attn.relative_position_index
    _get_relative_position_bias_8 = torchvision_models_swin_transformer__get_relative_position_bias(features_5_4_attn_relative_position_bias_table, features_5_4_attn_relative_position_index, [7, 7]);  features_5_4_attn_relative_position_bias_table = features_5_4_attn_relative_position_index = None
    features_5_4_attn_qkv_weight = getattr(getattr(self.features, "5"), "4").attn.qkv.weight
    features_5_4_attn_proj_weight = getattr(getattr(self.features, "5"), "4").attn.proj.weight
    features_5_4_attn_qkv_bias = getattr(getattr(self.features, "5"), "4").attn.qkv.bias
    features_5_4_attn_proj_bias = getattr(getattr(self.features, "5"), "4").attn.proj.bias
    shifted_window_attention_8 = torchvision_models_swin_transformer_shifted_window_attention(features_5_4_norm1, features_5_4_attn_qkv_weight, features_5_4_attn_proj_weight, _get_relative_position_bias_8, [7, 7], 12, shift_size = [0, 0], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_5_4_attn_qkv_bias, proj_bias = features_5_4_attn_proj_bias, training = False);  features_5_4_norm1 = features_5_4_attn_qkv_weight = features_5_4_attn_proj_weight = _get_relative_position_bias_8 = features_5_4_attn_qkv_bias = features_5_4_attn_proj_bias = None
    stochastic_depth_16 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_8, 0.14545454545454548, 'row', False);  shifted_window_attention_8 = None
    add_16 = add_15 + stochastic_depth_16;  add_15 = stochastic_depth_16 = None
    features_5_4_norm2 = getattr(getattr(self.features, "5"), "4").norm2(add_16)
    features_5_4_mlp_0 = getattr(getattr(getattr(self.features, "5"), "4").mlp, "0")(features_5_4_norm2);  features_5_4_norm2 = None
    features_5_4_mlp_1 = getattr(getattr(getattr(self.features, "5"), "4").mlp, "1")(features_5_4_mlp_0);  features_5_4_mlp_0 = None
    features_5_4_mlp_2 = getattr(getattr(getattr(self.features, "5"), "4").mlp, "2")(features_5_4_mlp_1);  features_5_4_mlp_1 = None
    features_5_4_mlp_3 = getattr(getattr(getattr(self.features, "5"), "4").mlp, "3")(features_5_4_mlp_2);  features_5_4_mlp_2 = None
    features_5_4_mlp_4 = getattr(getattr(getattr(self.features, "5"), "4").mlp, "4")(features_5_4_mlp_3);  features_5_4_mlp_3 = None
    stochastic_depth_17 = torchvision_ops_stochastic_depth_stochastic_depth(features_5_4_mlp_4, 0.14545454545454548, 'row', False);  features_5_4_mlp_4 = None
    add_17 = add_16 + stochastic_depth_17;  add_16 = stochastic_depth_17 = None
    features_5_5_norm1 = getattr(getattr(self.features, "5"), "5").norm1(add_17)
    features_5_5_attn_relative_position_bias_table = getattr(getattr(self.features, "5"), "5").attn.relative_position_bias_table
    features_5_5_attn_relative_position_index = getattr(getattr(self.features, "5"), "5").attn.relative_position_index
    _get_relative_position_bias_9 = torchvision_models_swin_transformer__get_relative_position_bias(features_5_5_attn_relative_position_bias_table, features_5_5_attn_relative_position_index, [7, 7]);  features_5_5_attn_relative_position_bias_table = features_5_5_attn_relative_position_index = None
    features_5_5_attn_qkv_weight = getattr(getattr(self.features, "5"), "5").attn.qkv.weight
    features_5_5_attn_proj_weight = getattr(getattr(self.features, "5"), "5").attn.proj.weight
    features_5_5_attn_qkv_bias = getattr(getattr(self.features, "5"), "5").attn.qkv.bias
    features_5_5_attn_proj_bias = getattr(getattr(self.features, "5"), "5").attn.proj.bias
    shifted_window_attention_9 = torchvision_models_swin_transformer_shifted_window_attention(features_5_5_norm1, features_5_5_attn_qkv_weight, features_5_5_attn_proj_weight, _get_relative_position_bias_9, [7, 7], 12, shift_size = [3, 3], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_5_5_attn_qkv_bias, proj_bias = features_5_5_attn_proj_bias, training = False);  features_5_5_norm1 = features_5_5_attn_qkv_weight = features_5_5_attn_proj_weight = _get_relative_position_bias_9 = features_5_5_attn_qkv_bias = features_5_5_attn_proj_bias = None
    stochastic_depth_18 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_9, 0.16363636363636364, 'row', False);  shifted_window_attention_9 = None
    add_18 = add_17 + stochastic_depth_18;  add_17 = stochastic_depth_18 = None
    features_5_5_norm2 = getattr(getattr(self.features, "5"), "5").norm2(add_18)
    features_5_5_mlp_0 = getattr(getattr(getattr(self.features, "5"), "5").mlp, "0")(features_5_5_norm2);  features_5_5_norm2 = None
    features_5_5_mlp_1 = getattr(getattr(getattr(self.features, "5"), "5").mlp, "1")(features_5_5_mlp_0);  features_5_5_mlp_0 = None
    features_5_5_mlp_2 = getattr(getattr(getattr(self.features, "5"), "5").mlp, "2")(features_5_5_mlp_1);  features_5_5_mlp_1 = None
    features_5_5_mlp_3 = getattr(getattr(getattr(self.features, "5"), "5").mlp, "3")(features_5_5_mlp_2);  features_5_5_mlp_2 = None
    features_5_5_mlp_4 = getattr(getattr(getattr(self.features, "5"), "5").mlp, "4")(features_5_5_mlp_3);  features_5_5_mlp_3 = None
    stochastic_depth_19 = torchvision_ops_stochastic_depth_stochastic_depth(features_5_5_mlp_4, 0.16363636363636364, 'row', False);  features_5_5_mlp_4 = None
    add_19 = add_18 + stochastic_depth_19;  add_18 = stochastic_depth_19 = None
    _patch_merging_pad_2 = torchvision_models_swin_transformer__patch_merging_pad(add_19);  add_19 = None
    features_6_norm = getattr(self.features, "6").norm(_patch_merging_pad_2);  _patch_merging_pad_2 = None
    features_6_reduction = getattr(self.features, "6").reduction(features_6_norm);  features_6_norm = None
    features_7_0_norm1 = getattr(getattr(self.features, "7"), "0").norm1(features_6_reduction)
    features_7_0_attn_relative_position_bias_table = getattr(getattr(self.features, "7"), "0").attn.relative_position_bias_table
    features_7_0_attn_relative_position_index = getattr(getattr(self.features, "7"), "0").attn.relative_position_index
    _get_relative_position_bias_10 = torchvision_models_swin_transformer__get_relative_position_bias(features_7_0_attn_relative_position_bias_table, features_7_0_attn_relative_position_index, [7, 7]);  features_7_0_attn_relative_position_bias_table = features_7_0_attn_relative_position_index = None
    features_7_0_attn_qkv_weight = getattr(getattr(self.features, "7"), "0").attn.qkv.weight
    features_7_0_attn_proj_weight = getattr(getattr(self.features, "7"), "0").attn.proj.weight
    features_7_0_attn_qkv_bias = getattr(getattr(self.features, "7"), "0").attn.qkv.bias
    features_7_0_attn_proj_bias = getattr(getattr(self.features, "7"), "0").attn.proj.bias
    shifted_window_attention_10 = torchvision_models_swin_transformer_shifted_window_attention(features_7_0_norm1, features_7_0_attn_qkv_weight, features_7_0_attn_proj_weight, _get_relative_position_bias_10, [7, 7], 24, shift_size = [0, 0], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_7_0_attn_qkv_bias, proj_bias = features_7_0_attn_proj_bias, training = False);  features_7_0_norm1 = features_7_0_attn_qkv_weight = features_7_0_attn_proj_weight = _get_relative_position_bias_10 = features_7_0_attn_qkv_bias = features_7_0_attn_proj_bias = None
    stochastic_depth_20 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_10, 0.18181818181818182, 'row', False);  shifted_window_attention_10 = None
    add_20 = features_6_reduction + stochastic_depth_20;  features_6_reduction = stochastic_depth_20 = None
    features_7_0_norm2 = getattr(getattr(self.features, "7"), "0").norm2(add_20)
    features_7_0_mlp_0 = getattr(getattr(getattr(self.features, "7"), "0").mlp, "0")(features_7_0_norm2);  features_7_0_norm2 = None
    features_7_0_mlp_1 = getattr(getattr(getattr(self.features, "7"), "0").mlp, "1")(features_7_0_mlp_0);  features_7_0_mlp_0 = None
    features_7_0_mlp_2 = getattr(getattr(getattr(self.features, "7"), "0").mlp, "2")(features_7_0_mlp_1);  features_7_0_mlp_1 = None
    features_7_0_mlp_3 = getattr(getattr(getattr(self.features, "7"), "0").mlp, "3")(features_7_0_mlp_2);  features_7_0_mlp_2 = None
    features_7_0_mlp_4 = getattr(getattr(getattr(self.features, "7"), "0").mlp, "4")(features_7_0_mlp_3);  features_7_0_mlp_3 = None
    stochastic_depth_21 = torchvision_ops_stochastic_depth_stochastic_depth(features_7_0_mlp_4, 0.18181818181818182, 'row', False);  features_7_0_mlp_4 = None
    add_21 = add_20 + stochastic_depth_21;  add_20 = stochastic_depth_21 = None
    features_7_1_norm1 = getattr(getattr(self.features, "7"), "1").norm1(add_21)
    features_7_1_attn_relative_position_bias_table = getattr(getattr(self.features, "7"), "1").attn.relative_position_bias_table
    features_7_1_attn_relative_position_index = getattr(getattr(self.features, "7"), "1").attn.relative_position_index
    _get_relative_position_bias_11 = torchvision_models_swin_transformer__get_relative_position_bias(features_7_1_attn_relative_position_bias_table, features_7_1_attn_relative_position_index, [7, 7]);  features_7_1_attn_relative_position_bias_table = features_7_1_attn_relative_position_index = None
    features_7_1_attn_qkv_weight = getattr(getattr(self.features, "7"), "1").attn.qkv.weight
    features_7_1_attn_proj_weight = getattr(getattr(self.features, "7"), "1").attn.proj.weight
    features_7_1_attn_qkv_bias = getattr(getattr(self.features, "7"), "1").attn.qkv.bias
    features_7_1_attn_proj_bias = getattr(getattr(self.features, "7"), "1").attn.proj.bias
    shifted_window_attention_11 = torchvision_models_swin_transformer_shifted_window_attention(features_7_1_norm1, features_7_1_attn_qkv_weight, features_7_1_attn_proj_weight, _get_relative_position_bias_11, [7, 7], 24, shift_size = [3, 3], attention_dropout = 0.0, dropout = 0.0, qkv_bias = features_7_1_attn_qkv_bias, proj_bias = features_7_1_attn_proj_bias, training = False);  features_7_1_norm1 = features_7_1_attn_qkv_weight = features_7_1_attn_proj_weight = _get_relative_position_bias_11 = features_7_1_attn_qkv_bias = features_7_1_attn_proj_bias = None
    stochastic_depth_22 = torchvision_ops_stochastic_depth_stochastic_depth(shifted_window_attention_11, 0.2, 'row', False);  shifted_window_attention_11 = None
    add_22 = add_21 + stochastic_depth_22;  add_21 = stochastic_depth_22 = None
    features_7_1_norm2 = getattr(getattr(self.features, "7"), "1").norm2(add_22)
    features_7_1_mlp_0 = getattr(getattr(getattr(self.features, "7"), "1").mlp, "0")(features_7_1_norm2);  features_7_1_norm2 = None
    features_7_1_mlp_1 = getattr(getattr(getattr(self.features, "7"), "1").mlp, "1")(features_7_1_mlp_0);  features_7_1_mlp_0 = None
    features_7_1_mlp_2 = getattr(getattr(getattr(self.features, "7"), "1").mlp, "2")(features_7_1_mlp_1);  features_7_1_mlp_1 = None
    features_7_1_mlp_3 = getattr(getattr(getattr(self.features, "7"), "1").mlp, "3")(features_7_1_mlp_2);  features_7_1_mlp_2 = None
    features_7_1_mlp_4 = getattr(getattr(getattr(self.features, "7"), "1").mlp, "4")(features_7_1_mlp_3);  features_7_1_mlp_3 = None
    stochastic_depth_23 = torchvision_ops_stochastic_depth_stochastic_depth(features_7_1_mlp_4, 0.2, 'row', False);  features_7_1_mlp_4 = None
    add_23 = add_22 + stochastic_depth_23;  add_22 = stochastic_depth_23 = None
    norm = self.norm(add_23);  add_23 = None
    permute_1 = torch.permute(norm, [0, 3, 1, 2]);  norm = None
    avgpool = self.avgpool(permute_1);  permute_1 = None
    flatten = self.flatten(avgpool);  avgpool = None
    head = self.head(flatten);  flatten = None
    return head
