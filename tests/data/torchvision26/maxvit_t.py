# torchvision 0.21.0 models.maxvit_t(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx
from torchvision.ops.stochastic_depth import stochastic_depth as torchvision_ops_stochastic_depth_stochastic_depth
torch.fx._symbolic_trace.wrap("torchvision_ops_stochastic_depth_stochastic_depth")

def forward(self, x : torch.Tensor) -> torch.Tensor:
    stem_0_0 = getattr(getattr(self.stem, "0"), "0")(x);  x = None
    stem_0_1 = getattr(getattr(self.stem, "0"), "1")(stem_0_0);  stem_0_0 = None
    stem_0_2 = getattr(getattr(self.stem, "0"), "2")(stem_0_1);  stem_0_1 = None
    stem_1_0 = getattr(getattr(self.stem, "1"), "0")(stem_0_2);  stem_0_2 = None
    blocks_0_layers_0_layers_mbconv_proj_0 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.proj, "0")(stem_1_0)
    blocks_0_layers_0_layers_mbconv_proj_1 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.proj, "1")(blocks_0_layers_0_layers_mbconv_proj_0);  blocks_0_layers_0_layers_mbconv_proj_0 = None
    blocks_0_layers_0_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.pre_norm(stem_1_0);  stem_1_0 = None
    blocks_0_layers_0_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.conv_a, "0")(blocks_0_layers_0_layers_mbconv_layers_pre_norm);  blocks_0_layers_0_layers_mbconv_layers_pre_norm = None
    blocks_0_layers_0_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.conv_a, "1")(blocks_0_layers_0_layers_mbconv_layers_conv_a_0);  blocks_0_layers_0_layers_mbconv_layers_conv_a_0 = None
    blocks_0_layers_0_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.conv_a, "2")(blocks_0_layers_0_layers_mbconv_layers_conv_a_1);  blocks_0_layers_0_layers_mbconv_layers_conv_a_1 = None
    blocks_0_layers_0_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.conv_b, "0")(blocks_0_layers_0_layers_mbconv_layers_conv_a_2);  blocks_0_layers_0_layers_mbconv_layers_conv_a_2 = None
    blocks_0_layers_0_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.conv_b, "1")(blocks_0_layers_0_layers_mbconv_layers_conv_b_0);  blocks_0_layers_0_layers_mbconv_layers_conv_b_0 = None
    blocks_0_layers_0_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.conv_b, "2")(blocks_0_layers_0_layers_mbconv_layers_conv_b_1);  blocks_0_layers_0_layers_mbconv_layers_conv_b_1 = None
    blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_0_layers_0_layers_mbconv_layers_conv_b_2)
    blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.squeeze_excitation.fc1(blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.squeeze_excitation.activation(blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.squeeze_excitation.fc2(blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_activation);  blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul = blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_0_layers_0_layers_mbconv_layers_conv_b_2;  blocks_0_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_0_layers_0_layers_mbconv_layers_conv_b_2 = None
    blocks_0_layers_0_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.layers.conv_c(mul);  mul = None
    blocks_0_layers_0_layers_mbconv_stochastic_depth = getattr(getattr(self.blocks, "0").layers, "0").layers.MBconv.stochastic_depth(blocks_0_layers_0_layers_mbconv_layers_conv_c);  blocks_0_layers_0_layers_mbconv_layers_conv_c = None
    add = blocks_0_layers_0_layers_mbconv_proj_1 + blocks_0_layers_0_layers_mbconv_stochastic_depth;  blocks_0_layers_0_layers_mbconv_proj_1 = blocks_0_layers_0_layers_mbconv_stochastic_depth = None
    getattr_1 = add.shape
    getitem = getattr_1[0]
    getitem_1 = getattr_1[1]
    getitem_2 = getattr_1[2]
    getitem_3 = getattr_1[3];  getattr_1 = None
    floordiv = getitem_2 // 7
    floordiv_1 = getitem_3 // 7
    reshape = add.reshape(getitem, getitem_1, floordiv, 7, floordiv_1, 7);  add = floordiv = floordiv_1 = None
    permute = reshape.permute(0, 2, 4, 3, 5, 1);  reshape = None
    floordiv_2 = getitem_2 // 7;  getitem_2 = None
    floordiv_3 = getitem_3 // 7;  getitem_3 = None
    mul_1 = floordiv_2 * floordiv_3;  floordiv_2 = floordiv_3 = None
    reshape_1 = permute.reshape(getitem, mul_1, 49, getitem_1);  permute = getitem = mul_1 = getitem_1 = None
    blocks_0_layers_0_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.partition_swap(reshape_1);  reshape_1 = None
    blocks_0_layers_0_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.attn_layer, "0")(blocks_0_layers_0_layers_window_attention_partition_swap)
    getattr_2 = blocks_0_layers_0_layers_window_attention_attn_layer_0.shape
    getitem_4 = getattr_2[0]
    getitem_5 = getattr_2[1]
    getitem_6 = getattr_2[2]
    getitem_7 = getattr_2[3];  getattr_2 = None
    blocks_0_layers_0_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.attn_layer, "1").to_qkv(blocks_0_layers_0_layers_window_attention_attn_layer_0);  blocks_0_layers_0_layers_window_attention_attn_layer_0 = None
    chunk = torch.chunk(blocks_0_layers_0_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_0_layers_0_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_8 = chunk[0]
    getitem_9 = chunk[1]
    getitem_10 = chunk[2];  chunk = None
    reshape_2 = getitem_8.reshape(getitem_4, getitem_5, getitem_6, 2, 32);  getitem_8 = None
    permute_1 = reshape_2.permute(0, 1, 3, 2, 4);  reshape_2 = None
    reshape_3 = getitem_9.reshape(getitem_4, getitem_5, getitem_6, 2, 32);  getitem_9 = None
    permute_2 = reshape_3.permute(0, 1, 3, 2, 4);  reshape_3 = None
    reshape_4 = getitem_10.reshape(getitem_4, getitem_5, getitem_6, 2, 32);  getitem_10 = None
    permute_3 = reshape_4.permute(0, 1, 3, 2, 4);  reshape_4 = None
    mul_2 = permute_2 * 0.125;  permute_2 = None
    einsum = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_1, mul_2);  permute_1 = mul_2 = None
    blocks_0_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant0 = self._tensor_constant0
    getitem_11 = blocks_0_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant0];  blocks_0_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant0 = None
    view = getitem_11.view(49, 49, -1);  getitem_11 = None
    permute_4 = view.permute(2, 0, 1);  view = None
    contiguous = permute_4.contiguous();  permute_4 = None
    unsqueeze = contiguous.unsqueeze(0);  contiguous = None
    add_1 = einsum + unsqueeze;  einsum = unsqueeze = None
    softmax = torch.nn.functional.softmax(add_1, dim = -1, _stacklevel = 3, dtype = None);  add_1 = None
    einsum_1 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax, permute_3);  softmax = permute_3 = None
    permute_5 = einsum_1.permute(0, 1, 3, 2, 4);  einsum_1 = None
    reshape_5 = permute_5.reshape(getitem_4, getitem_5, getitem_6, getitem_7);  permute_5 = getitem_4 = getitem_5 = getitem_6 = getitem_7 = None
    blocks_0_layers_0_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.attn_layer, "1").merge(reshape_5);  reshape_5 = None
    blocks_0_layers_0_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.attn_layer, "2")(blocks_0_layers_0_layers_window_attention_attn_layer_1_merge);  blocks_0_layers_0_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth = torchvision_ops_stochastic_depth_stochastic_depth(blocks_0_layers_0_layers_window_attention_attn_layer_2, 0.0, 'row', False);  blocks_0_layers_0_layers_window_attention_attn_layer_2 = None
    add_2 = blocks_0_layers_0_layers_window_attention_partition_swap + stochastic_depth;  blocks_0_layers_0_layers_window_attention_partition_swap = stochastic_depth = None
    blocks_0_layers_0_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.mlp_layer, "0")(add_2)
    blocks_0_layers_0_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.mlp_layer, "1")(blocks_0_layers_0_layers_window_attention_mlp_layer_0);  blocks_0_layers_0_layers_window_attention_mlp_layer_0 = None
    blocks_0_layers_0_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.mlp_layer, "2")(blocks_0_layers_0_layers_window_attention_mlp_layer_1);  blocks_0_layers_0_layers_window_attention_mlp_layer_1 = None
    blocks_0_layers_0_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.mlp_layer, "3")(blocks_0_layers_0_layers_window_attention_mlp_layer_2);  blocks_0_layers_0_layers_window_attention_mlp_layer_2 = None
    blocks_0_layers_0_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.mlp_layer, "4")(blocks_0_layers_0_layers_window_attention_mlp_layer_3);  blocks_0_layers_0_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_1 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_0_layers_0_layers_window_attention_mlp_layer_4, 0.0, 'row', False);  blocks_0_layers_0_layers_window_attention_mlp_layer_4 = None
    add_3 = add_2 + stochastic_depth_1;  add_2 = stochastic_depth_1 = None
    blocks_0_layers_0_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "0").layers, "0").layers.window_attention.departition_swap(add_3);  add_3 = None
    getattr_3 = blocks_0_layers_0_layers_window_attention_departition_swap.shape
    getitem_12 = getattr_3[0]
    getitem_13 = getattr_3[1];  getitem_13 = None
    getitem_14 = getattr_3[2];  getitem_14 = None
    getitem_15 = getattr_3[3];  getattr_3 = None
    reshape_6 = blocks_0_layers_0_layers_window_attention_departition_swap.reshape(getitem_12, 8, 8, 7, 7, getitem_15);  blocks_0_layers_0_layers_window_attention_departition_swap = None
    permute_6 = reshape_6.permute(0, 5, 1, 3, 2, 4);  reshape_6 = None
    reshape_7 = permute_6.reshape(getitem_12, getitem_15, 56, 56);  permute_6 = getitem_12 = getitem_15 = None
    getattr_4 = reshape_7.shape
    getitem_16 = getattr_4[0]
    getitem_17 = getattr_4[1]
    getitem_18 = getattr_4[2]
    getitem_19 = getattr_4[3];  getattr_4 = None
    floordiv_4 = getitem_18 // 8
    floordiv_5 = getitem_19 // 8
    reshape_8 = reshape_7.reshape(getitem_16, getitem_17, floordiv_4, 8, floordiv_5, 8);  reshape_7 = floordiv_4 = floordiv_5 = None
    permute_7 = reshape_8.permute(0, 2, 4, 3, 5, 1);  reshape_8 = None
    floordiv_6 = getitem_18 // 8;  getitem_18 = None
    floordiv_7 = getitem_19 // 8;  getitem_19 = None
    mul_3 = floordiv_6 * floordiv_7;  floordiv_6 = floordiv_7 = None
    reshape_9 = permute_7.reshape(getitem_16, mul_3, 64, getitem_17);  permute_7 = getitem_16 = mul_3 = getitem_17 = None
    swapaxes = torch.swapaxes(reshape_9, -2, -3);  reshape_9 = None
    blocks_0_layers_0_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.grid_attention.attn_layer, "0")(swapaxes)
    getattr_5 = blocks_0_layers_0_layers_grid_attention_attn_layer_0.shape
    getitem_20 = getattr_5[0]
    getitem_21 = getattr_5[1]
    getitem_22 = getattr_5[2]
    getitem_23 = getattr_5[3];  getattr_5 = None
    blocks_0_layers_0_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.grid_attention.attn_layer, "1").to_qkv(blocks_0_layers_0_layers_grid_attention_attn_layer_0);  blocks_0_layers_0_layers_grid_attention_attn_layer_0 = None
    chunk_1 = torch.chunk(blocks_0_layers_0_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_0_layers_0_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_24 = chunk_1[0]
    getitem_25 = chunk_1[1]
    getitem_26 = chunk_1[2];  chunk_1 = None
    reshape_10 = getitem_24.reshape(getitem_20, getitem_21, getitem_22, 2, 32);  getitem_24 = None
    permute_8 = reshape_10.permute(0, 1, 3, 2, 4);  reshape_10 = None
    reshape_11 = getitem_25.reshape(getitem_20, getitem_21, getitem_22, 2, 32);  getitem_25 = None
    permute_9 = reshape_11.permute(0, 1, 3, 2, 4);  reshape_11 = None
    reshape_12 = getitem_26.reshape(getitem_20, getitem_21, getitem_22, 2, 32);  getitem_26 = None
    permute_10 = reshape_12.permute(0, 1, 3, 2, 4);  reshape_12 = None
    mul_4 = permute_9 * 0.125;  permute_9 = None
    einsum_2 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_8, mul_4);  permute_8 = mul_4 = None
    blocks_0_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant1 = self._tensor_constant1
    getitem_27 = blocks_0_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant1];  blocks_0_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant1 = None
    view_1 = getitem_27.view(49, 49, -1);  getitem_27 = None
    permute_11 = view_1.permute(2, 0, 1);  view_1 = None
    contiguous_1 = permute_11.contiguous();  permute_11 = None
    unsqueeze_1 = contiguous_1.unsqueeze(0);  contiguous_1 = None
    add_4 = einsum_2 + unsqueeze_1;  einsum_2 = unsqueeze_1 = None
    softmax_1 = torch.nn.functional.softmax(add_4, dim = -1, _stacklevel = 3, dtype = None);  add_4 = None
    einsum_3 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_1, permute_10);  softmax_1 = permute_10 = None
    permute_12 = einsum_3.permute(0, 1, 3, 2, 4);  einsum_3 = None
    reshape_13 = permute_12.reshape(getitem_20, getitem_21, getitem_22, getitem_23);  permute_12 = getitem_20 = getitem_21 = getitem_22 = getitem_23 = None
    blocks_0_layers_0_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.grid_attention.attn_layer, "1").merge(reshape_13);  reshape_13 = None
    blocks_0_layers_0_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.grid_attention.attn_layer, "2")(blocks_0_layers_0_layers_grid_attention_attn_layer_1_merge);  blocks_0_layers_0_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_2 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_0_layers_0_layers_grid_attention_attn_layer_2, 0.0, 'row', False);  blocks_0_layers_0_layers_grid_attention_attn_layer_2 = None
    add_5 = swapaxes + stochastic_depth_2;  swapaxes = stochastic_depth_2 = None
    blocks_0_layers_0_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.grid_attention.mlp_layer, "0")(add_5)
    blocks_0_layers_0_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.grid_attention.mlp_layer, "1")(blocks_0_layers_0_layers_grid_attention_mlp_layer_0);  blocks_0_layers_0_layers_grid_attention_mlp_layer_0 = None
    blocks_0_layers_0_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.grid_attention.mlp_layer, "2")(blocks_0_layers_0_layers_grid_attention_mlp_layer_1);  blocks_0_layers_0_layers_grid_attention_mlp_layer_1 = None
    blocks_0_layers_0_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.grid_attention.mlp_layer, "3")(blocks_0_layers_0_layers_grid_attention_mlp_layer_2);  blocks_0_layers_0_layers_grid_attention_mlp_layer_2 = None
    blocks_0_layers_0_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "0").layers, "0").layers.grid_attention.mlp_layer, "4")(blocks_0_layers_0_layers_grid_attention_mlp_layer_3);  blocks_0_layers_0_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_3 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_0_layers_0_layers_grid_attention_mlp_layer_4, 0.0, 'row', False);  blocks_0_layers_0_layers_grid_attention_mlp_layer_4 = None
    add_6 = add_5 + stochastic_depth_3;  add_5 = stochastic_depth_3 = None
    swapaxes_1 = torch.swapaxes(add_6, -2, -3);  add_6 = None
    getattr_6 = swapaxes_1.shape
    getitem_28 = getattr_6[0]
    getitem_29 = getattr_6[1];  getitem_29 = None
    getitem_30 = getattr_6[2];  getitem_30 = None
    getitem_31 = getattr_6[3];  getattr_6 = None
    reshape_14 = swapaxes_1.reshape(getitem_28, 7, 7, 8, 8, getitem_31);  swapaxes_1 = None
    permute_13 = reshape_14.permute(0, 5, 1, 3, 2, 4);  reshape_14 = None
    reshape_15 = permute_13.reshape(getitem_28, getitem_31, 56, 56);  permute_13 = getitem_28 = getitem_31 = None
    blocks_0_layers_1_layers_mbconv_proj = getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.proj(reshape_15)
    blocks_0_layers_1_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.pre_norm(reshape_15);  reshape_15 = None
    blocks_0_layers_1_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.conv_a, "0")(blocks_0_layers_1_layers_mbconv_layers_pre_norm);  blocks_0_layers_1_layers_mbconv_layers_pre_norm = None
    blocks_0_layers_1_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.conv_a, "1")(blocks_0_layers_1_layers_mbconv_layers_conv_a_0);  blocks_0_layers_1_layers_mbconv_layers_conv_a_0 = None
    blocks_0_layers_1_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.conv_a, "2")(blocks_0_layers_1_layers_mbconv_layers_conv_a_1);  blocks_0_layers_1_layers_mbconv_layers_conv_a_1 = None
    blocks_0_layers_1_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.conv_b, "0")(blocks_0_layers_1_layers_mbconv_layers_conv_a_2);  blocks_0_layers_1_layers_mbconv_layers_conv_a_2 = None
    blocks_0_layers_1_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.conv_b, "1")(blocks_0_layers_1_layers_mbconv_layers_conv_b_0);  blocks_0_layers_1_layers_mbconv_layers_conv_b_0 = None
    blocks_0_layers_1_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.conv_b, "2")(blocks_0_layers_1_layers_mbconv_layers_conv_b_1);  blocks_0_layers_1_layers_mbconv_layers_conv_b_1 = None
    blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_0_layers_1_layers_mbconv_layers_conv_b_2)
    blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.squeeze_excitation.fc1(blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.squeeze_excitation.activation(blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.squeeze_excitation.fc2(blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_activation);  blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul_5 = blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_0_layers_1_layers_mbconv_layers_conv_b_2;  blocks_0_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_0_layers_1_layers_mbconv_layers_conv_b_2 = None
    blocks_0_layers_1_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "0").layers, "1").layers.MBconv.layers.conv_c(mul_5);  mul_5 = None
    stochastic_depth_4 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_0_layers_1_layers_mbconv_layers_conv_c, 0.02, 'row', False);  blocks_0_layers_1_layers_mbconv_layers_conv_c = None
    add_7 = blocks_0_layers_1_layers_mbconv_proj + stochastic_depth_4;  blocks_0_layers_1_layers_mbconv_proj = stochastic_depth_4 = None
    getattr_7 = add_7.shape
    getitem_32 = getattr_7[0]
    getitem_33 = getattr_7[1]
    getitem_34 = getattr_7[2]
    getitem_35 = getattr_7[3];  getattr_7 = None
    floordiv_8 = getitem_34 // 7
    floordiv_9 = getitem_35 // 7
    reshape_16 = add_7.reshape(getitem_32, getitem_33, floordiv_8, 7, floordiv_9, 7);  add_7 = floordiv_8 = floordiv_9 = None
    permute_14 = reshape_16.permute(0, 2, 4, 3, 5, 1);  reshape_16 = None
    floordiv_10 = getitem_34 // 7;  getitem_34 = None
    floordiv_11 = getitem_35 // 7;  getitem_35 = None
    mul_6 = floordiv_10 * floordiv_11;  floordiv_10 = floordiv_11 = None
    reshape_17 = permute_14.reshape(getitem_32, mul_6, 49, getitem_33);  permute_14 = getitem_32 = mul_6 = getitem_33 = None
    blocks_0_layers_1_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.partition_swap(reshape_17);  reshape_17 = None
    blocks_0_layers_1_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.attn_layer, "0")(blocks_0_layers_1_layers_window_attention_partition_swap)
    getattr_8 = blocks_0_layers_1_layers_window_attention_attn_layer_0.shape
    getitem_36 = getattr_8[0]
    getitem_37 = getattr_8[1]
    getitem_38 = getattr_8[2]
    getitem_39 = getattr_8[3];  getattr_8 = None
    blocks_0_layers_1_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.attn_layer, "1").to_qkv(blocks_0_layers_1_layers_window_attention_attn_layer_0);  blocks_0_layers_1_layers_window_attention_attn_layer_0 = None
    chunk_2 = torch.chunk(blocks_0_layers_1_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_0_layers_1_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_40 = chunk_2[0]
    getitem_41 = chunk_2[1]
    getitem_42 = chunk_2[2];  chunk_2 = None
    reshape_18 = getitem_40.reshape(getitem_36, getitem_37, getitem_38, 2, 32);  getitem_40 = None
    permute_15 = reshape_18.permute(0, 1, 3, 2, 4);  reshape_18 = None
    reshape_19 = getitem_41.reshape(getitem_36, getitem_37, getitem_38, 2, 32);  getitem_41 = None
    permute_16 = reshape_19.permute(0, 1, 3, 2, 4);  reshape_19 = None
    reshape_20 = getitem_42.reshape(getitem_36, getitem_37, getitem_38, 2, 32);  getitem_42 = None
    permute_17 = reshape_20.permute(0, 1, 3, 2, 4);  reshape_20 = None
    mul_7 = permute_16 * 0.125;  permute_16 = None
    einsum_4 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_15, mul_7);  permute_15 = mul_7 = None
    blocks_0_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant2 = self._tensor_constant2
    getitem_43 = blocks_0_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant2];  blocks_0_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant2 = None
    view_2 = getitem_43.view(49, 49, -1);  getitem_43 = None
    permute_18 = view_2.permute(2, 0, 1);  view_2 = None
    contiguous_2 = permute_18.contiguous();  permute_18 = None
    unsqueeze_2 = contiguous_2.unsqueeze(0);  contiguous_2 = None
    add_8 = einsum_4 + unsqueeze_2;  einsum_4 = unsqueeze_2 = None
    softmax_2 = torch.nn.functional.softmax(add_8, dim = -1, _stacklevel = 3, dtype = None);  add_8 = None
    einsum_5 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_2, permute_17);  softmax_2 = permute_17 = None
    permute_19 = einsum_5.permute(0, 1, 3, 2, 4);  einsum_5 = None
    reshape_21 = permute_19.reshape(getitem_36, getitem_37, getitem_38, getitem_39);  permute_19 = getitem_36 = getitem_37 = getitem_38 = getitem_39 = None
    blocks_0_layers_1_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.attn_layer, "1").merge(reshape_21);  reshape_21 = None
    blocks_0_layers_1_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.attn_layer, "2")(blocks_0_layers_1_layers_window_attention_attn_layer_1_merge);  blocks_0_layers_1_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth_5 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_0_layers_1_layers_window_attention_attn_layer_2, 0.02, 'row', False);  blocks_0_layers_1_layers_window_attention_attn_layer_2 = None
    add_9 = blocks_0_layers_1_layers_window_attention_partition_swap + stochastic_depth_5;  blocks_0_layers_1_layers_window_attention_partition_swap = stochastic_depth_5 = None
    blocks_0_layers_1_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.mlp_layer, "0")(add_9)
    blocks_0_layers_1_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.mlp_layer, "1")(blocks_0_layers_1_layers_window_attention_mlp_layer_0);  blocks_0_layers_1_layers_window_attention_mlp_layer_0 = None
    blocks_0_layers_1_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.mlp_layer, "2")(blocks_0_layers_1_layers_window_attention_mlp_layer_1);  blocks_0_layers_1_layers_window_attention_mlp_layer_1 = None
    blocks_0_layers_1_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.mlp_layer, "3")(blocks_0_layers_1_layers_window_attention_mlp_layer_2);  blocks_0_layers_1_layers_window_attention_mlp_layer_2 = None
    blocks_0_layers_1_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.mlp_layer, "4")(blocks_0_layers_1_layers_window_attention_mlp_layer_3);  blocks_0_layers_1_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_6 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_0_layers_1_layers_window_attention_mlp_layer_4, 0.02, 'row', False);  blocks_0_layers_1_layers_window_attention_mlp_layer_4 = None
    add_10 = add_9 + stochastic_depth_6;  add_9 = stochastic_depth_6 = None
    blocks_0_layers_1_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "0").layers, "1").layers.window_attention.departition_swap(add_10);  add_10 = None
    getattr_9 = blocks_0_layers_1_layers_window_attention_departition_swap.shape
    getitem_44 = getattr_9[0]
    getitem_45 = getattr_9[1];  getitem_45 = None
    getitem_46 = getattr_9[2];  getitem_46 = None
    getitem_47 = getattr_9[3];  getattr_9 = None
    reshape_22 = blocks_0_layers_1_layers_window_attention_departition_swap.reshape(getitem_44, 8, 8, 7, 7, getitem_47);  blocks_0_layers_1_layers_window_attention_departition_swap = None
    permute_20 = reshape_22.permute(0, 5, 1, 3, 2, 4);  reshape_22 = None
    reshape_23 = permute_20.reshape(getitem_44, getitem_47, 56, 56);  permute_20 = getitem_44 = getitem_47 = None
    getattr_10 = reshape_23.shape
    getitem_48 = getattr_10[0]
    getitem_49 = getattr_10[1]
    getitem_50 = getattr_10[2]
    getitem_51 = getattr_10[3];  getattr_10 = None
    floordiv_12 = getitem_50 // 8
    floordiv_13 = getitem_51 // 8
    reshape_24 = reshape_23.reshape(getitem_48, getitem_49, floordiv_12, 8, floordiv_13, 8);  reshape_23 = floordiv_12 = floordiv_13 = None
    permute_21 = reshape_24.permute(0, 2, 4, 3, 5, 1);  reshape_24 = None
    floordiv_14 = getitem_50 // 8;  getitem_50 = None
    floordiv_15 = getitem_51 // 8;  getitem_51 = None
    mul_8 = floordiv_14 * floordiv_15;  floordiv_14 = floordiv_15 = None
    reshape_25 = permute_21.reshape(getitem_48, mul_8, 64, getitem_49);  permute_21 = getitem_48 = mul_8 = getitem_49 = None
    swapaxes_2 = torch.swapaxes(reshape_25, -2, -3);  reshape_25 = None
    blocks_0_layers_1_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.grid_attention.attn_layer, "0")(swapaxes_2)
    getattr_11 = blocks_0_layers_1_layers_grid_attention_attn_layer_0.shape
    getitem_52 = getattr_11[0]
    getitem_53 = getattr_11[1]
    getitem_54 = getattr_11[2]
    getitem_55 = getattr_11[3];  getattr_11 = None
    blocks_0_layers_1_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.grid_attention.attn_layer, "1").to_qkv(blocks_0_layers_1_layers_grid_attention_attn_layer_0);  blocks_0_layers_1_layers_grid_attention_attn_layer_0 = None
    chunk_3 = torch.chunk(blocks_0_layers_1_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_0_layers_1_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_56 = chunk_3[0]
    getitem_57 = chunk_3[1]
    getitem_58 = chunk_3[2];  chunk_3 = None
    reshape_26 = getitem_56.reshape(getitem_52, getitem_53, getitem_54, 2, 32);  getitem_56 = None
    permute_22 = reshape_26.permute(0, 1, 3, 2, 4);  reshape_26 = None
    reshape_27 = getitem_57.reshape(getitem_52, getitem_53, getitem_54, 2, 32);  getitem_57 = None
    permute_23 = reshape_27.permute(0, 1, 3, 2, 4);  reshape_27 = None
    reshape_28 = getitem_58.reshape(getitem_52, getitem_53, getitem_54, 2, 32);  getitem_58 = None
    permute_24 = reshape_28.permute(0, 1, 3, 2, 4);  reshape_28 = None
    mul_9 = permute_23 * 0.125;  permute_23 = None
    einsum_6 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_22, mul_9);  permute_22 = mul_9 = None
    blocks_0_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant3 = self._tensor_constant3
    getitem_59 = blocks_0_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant3];  blocks_0_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant3 = None
    view_3 = getitem_59.view(49, 49, -1);  getitem_59 = None
    permute_25 = view_3.permute(2, 0, 1);  view_3 = None
    contiguous_3 = permute_25.contiguous();  permute_25 = None
    unsqueeze_3 = contiguous_3.unsqueeze(0);  contiguous_3 = None
    add_11 = einsum_6 + unsqueeze_3;  einsum_6 = unsqueeze_3 = None
    softmax_3 = torch.nn.functional.softmax(add_11, dim = -1, _stacklevel = 3, dtype = None);  add_11 = None
    einsum_7 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_3, permute_24);  softmax_3 = permute_24 = None
    permute_26 = einsum_7.permute(0, 1, 3, 2, 4);  einsum_7 = None
    reshape_29 = permute_26.reshape(getitem_52, getitem_53, getitem_54, getitem_55);  permute_26 = getitem_52 = getitem_53 = getitem_54 = getitem_55 = None
    blocks_0_layers_1_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.grid_attention.attn_layer, "1").merge(reshape_29);  reshape_29 = None
    blocks_0_layers_1_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.grid_attention.attn_layer, "2")(blocks_0_layers_1_layers_grid_attention_attn_layer_1_merge);  blocks_0_layers_1_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_7 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_0_layers_1_layers_grid_attention_attn_layer_2, 0.02, 'row', False);  blocks_0_layers_1_layers_grid_attention_attn_layer_2 = None
    add_12 = swapaxes_2 + stochastic_depth_7;  swapaxes_2 = stochastic_depth_7 = None
    blocks_0_layers_1_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.grid_attention.mlp_layer, "0")(add_12)
    blocks_0_layers_1_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.grid_attention.mlp_layer, "1")(blocks_0_layers_1_layers_grid_attention_mlp_layer_0);  blocks_0_layers_1_layers_grid_attention_mlp_layer_0 = None
    blocks_0_layers_1_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.grid_attention.mlp_layer, "2")(blocks_0_layers_1_layers_grid_attention_mlp_layer_1);  blocks_0_layers_1_layers_grid_attention_mlp_layer_1 = None
    blocks_0_layers_1_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.grid_attention.mlp_layer, "3")(blocks_0_layers_1_layers_grid_attention_mlp_layer_2);  blocks_0_layers_1_layers_grid_attention_mlp_layer_2 = None
    blocks_0_layers_1_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "0").layers, "1").layers.grid_attention.mlp_layer, "4")(blocks_0_layers_1_layers_grid_attention_mlp_layer_3);  blocks_0_layers_1_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_8 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_0_layers_1_layers_grid_attention_mlp_layer_4, 0.02, 'row', False);  blocks_0_layers_1_layers_grid_attention_mlp_layer_4 = None
    add_13 = add_12 + stochastic_depth_8;  add_12 = stochastic_depth_8 = None
    swapaxes_3 = torch.swapaxes(add_13, -2, -3);  add_13 = None
    getattr_12 = swapaxes_3.shape
    getitem_60 = getattr_12[0]
    getitem_61 = getattr_12[1];  getitem_61 = None
    getitem_62 = getattr_12[2];  getitem_62 = None
    getitem_63 = getattr_12[3];  getattr_12 = None
    reshape_30 = swapaxes_3.reshape(getitem_60, 7, 7, 8, 8, getitem_63);  swapaxes_3 = None
    permute_27 = reshape_30.permute(0, 5, 1, 3, 2, 4);  reshape_30 = None
    reshape_31 = permute_27.reshape(getitem_60, getitem_63, 56, 56);  permute_27 = getitem_60 = getitem_63 = None
    blocks_1_layers_0_layers_mbconv_proj_0 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.proj, "0")(reshape_31)
    blocks_1_layers_0_layers_mbconv_proj_1 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.proj, "1")(blocks_1_layers_0_layers_mbconv_proj_0);  blocks_1_layers_0_layers_mbconv_proj_0 = None
    blocks_1_layers_0_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.pre_norm(reshape_31);  reshape_31 = None
    blocks_1_layers_0_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.conv_a, "0")(blocks_1_layers_0_layers_mbconv_layers_pre_norm);  blocks_1_layers_0_layers_mbconv_layers_pre_norm = None
    blocks_1_layers_0_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.conv_a, "1")(blocks_1_layers_0_layers_mbconv_layers_conv_a_0);  blocks_1_layers_0_layers_mbconv_layers_conv_a_0 = None
    blocks_1_layers_0_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.conv_a, "2")(blocks_1_layers_0_layers_mbconv_layers_conv_a_1);  blocks_1_layers_0_layers_mbconv_layers_conv_a_1 = None
    blocks_1_layers_0_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.conv_b, "0")(blocks_1_layers_0_layers_mbconv_layers_conv_a_2);  blocks_1_layers_0_layers_mbconv_layers_conv_a_2 = None
    blocks_1_layers_0_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.conv_b, "1")(blocks_1_layers_0_layers_mbconv_layers_conv_b_0);  blocks_1_layers_0_layers_mbconv_layers_conv_b_0 = None
    blocks_1_layers_0_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.conv_b, "2")(blocks_1_layers_0_layers_mbconv_layers_conv_b_1);  blocks_1_layers_0_layers_mbconv_layers_conv_b_1 = None
    blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_1_layers_0_layers_mbconv_layers_conv_b_2)
    blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.squeeze_excitation.fc1(blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.squeeze_excitation.activation(blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.squeeze_excitation.fc2(blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_activation);  blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul_10 = blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_1_layers_0_layers_mbconv_layers_conv_b_2;  blocks_1_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_1_layers_0_layers_mbconv_layers_conv_b_2 = None
    blocks_1_layers_0_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "1").layers, "0").layers.MBconv.layers.conv_c(mul_10);  mul_10 = None
    stochastic_depth_9 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_1_layers_0_layers_mbconv_layers_conv_c, 0.04, 'row', False);  blocks_1_layers_0_layers_mbconv_layers_conv_c = None
    add_14 = blocks_1_layers_0_layers_mbconv_proj_1 + stochastic_depth_9;  blocks_1_layers_0_layers_mbconv_proj_1 = stochastic_depth_9 = None
    getattr_13 = add_14.shape
    getitem_64 = getattr_13[0]
    getitem_65 = getattr_13[1]
    getitem_66 = getattr_13[2]
    getitem_67 = getattr_13[3];  getattr_13 = None
    floordiv_16 = getitem_66 // 7
    floordiv_17 = getitem_67 // 7
    reshape_32 = add_14.reshape(getitem_64, getitem_65, floordiv_16, 7, floordiv_17, 7);  add_14 = floordiv_16 = floordiv_17 = None
    permute_28 = reshape_32.permute(0, 2, 4, 3, 5, 1);  reshape_32 = None
    floordiv_18 = getitem_66 // 7;  getitem_66 = None
    floordiv_19 = getitem_67 // 7;  getitem_67 = None
    mul_11 = floordiv_18 * floordiv_19;  floordiv_18 = floordiv_19 = None
    reshape_33 = permute_28.reshape(getitem_64, mul_11, 49, getitem_65);  permute_28 = getitem_64 = mul_11 = getitem_65 = None
    blocks_1_layers_0_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.partition_swap(reshape_33);  reshape_33 = None
    blocks_1_layers_0_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.attn_layer, "0")(blocks_1_layers_0_layers_window_attention_partition_swap)
    getattr_14 = blocks_1_layers_0_layers_window_attention_attn_layer_0.shape
    getitem_68 = getattr_14[0]
    getitem_69 = getattr_14[1]
    getitem_70 = getattr_14[2]
    getitem_71 = getattr_14[3];  getattr_14 = None
    blocks_1_layers_0_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.attn_layer, "1").to_qkv(blocks_1_layers_0_layers_window_attention_attn_layer_0);  blocks_1_layers_0_layers_window_attention_attn_layer_0 = None
    chunk_4 = torch.chunk(blocks_1_layers_0_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_1_layers_0_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_72 = chunk_4[0]
    getitem_73 = chunk_4[1]
    getitem_74 = chunk_4[2];  chunk_4 = None
    reshape_34 = getitem_72.reshape(getitem_68, getitem_69, getitem_70, 4, 32);  getitem_72 = None
    permute_29 = reshape_34.permute(0, 1, 3, 2, 4);  reshape_34 = None
    reshape_35 = getitem_73.reshape(getitem_68, getitem_69, getitem_70, 4, 32);  getitem_73 = None
    permute_30 = reshape_35.permute(0, 1, 3, 2, 4);  reshape_35 = None
    reshape_36 = getitem_74.reshape(getitem_68, getitem_69, getitem_70, 4, 32);  getitem_74 = None
    permute_31 = reshape_36.permute(0, 1, 3, 2, 4);  reshape_36 = None
    mul_12 = permute_30 * 0.08838834764831845;  permute_30 = None
    einsum_8 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_29, mul_12);  permute_29 = mul_12 = None
    blocks_1_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant4 = self._tensor_constant4
    getitem_75 = blocks_1_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant4];  blocks_1_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant4 = None
    view_4 = getitem_75.view(49, 49, -1);  getitem_75 = None
    permute_32 = view_4.permute(2, 0, 1);  view_4 = None
    contiguous_4 = permute_32.contiguous();  permute_32 = None
    unsqueeze_4 = contiguous_4.unsqueeze(0);  contiguous_4 = None
    add_15 = einsum_8 + unsqueeze_4;  einsum_8 = unsqueeze_4 = None
    softmax_4 = torch.nn.functional.softmax(add_15, dim = -1, _stacklevel = 3, dtype = None);  add_15 = None
    einsum_9 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_4, permute_31);  softmax_4 = permute_31 = None
    permute_33 = einsum_9.permute(0, 1, 3, 2, 4);  einsum_9 = None
    reshape_37 = permute_33.reshape(getitem_68, getitem_69, getitem_70, getitem_71);  permute_33 = getitem_68 = getitem_69 = getitem_70 = getitem_71 = None
    blocks_1_layers_0_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.attn_layer, "1").merge(reshape_37);  reshape_37 = None
    blocks_1_layers_0_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.attn_layer, "2")(blocks_1_layers_0_layers_window_attention_attn_layer_1_merge);  blocks_1_layers_0_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth_10 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_1_layers_0_layers_window_attention_attn_layer_2, 0.04, 'row', False);  blocks_1_layers_0_layers_window_attention_attn_layer_2 = None
    add_16 = blocks_1_layers_0_layers_window_attention_partition_swap + stochastic_depth_10;  blocks_1_layers_0_layers_window_attention_partition_swap = stochastic_depth_10 = None
    blocks_1_layers_0_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.mlp_layer, "0")(add_16)
    blocks_1_layers_0_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.mlp_layer, "1")(blocks_1_layers_0_layers_window_attention_mlp_layer_0);  blocks_1_layers_0_layers_window_attention_mlp_layer_0 = None
    blocks_1_layers_0_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.mlp_layer, "2")(blocks_1_layers_0_layers_window_attention_mlp_layer_1);  blocks_1_layers_0_layers_window_attention_mlp_layer_1 = None
    blocks_1_layers_0_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.mlp_layer, "3")(blocks_1_layers_0_layers_window_attention_mlp_layer_2);  blocks_1_layers_0_layers_window_attention_mlp_layer_2 = None
    blocks_1_layers_0_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.mlp_layer, "4")(blocks_1_layers_0_layers_window_attention_mlp_layer_3);  blocks_1_layers_0_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_11 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_1_layers_0_layers_window_attention_mlp_layer_4, 0.04, 'row', False);  blocks_1_layers_0_layers_window_attention_mlp_layer_4 = None
    add_17 = add_16 + stochastic_depth_11;  add_16 = stochastic_depth_11 = None
    blocks_1_layers_0_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "1").layers, "0").layers.window_attention.departition_swap(add_17);  add_17 = None
    getattr_15 = blocks_1_layers_0_layers_window_attention_departition_swap.shape
    getitem_76 = getattr_15[0]
    getitem_77 = getattr_15[1];  getitem_77 = None
    getitem_78 = getattr_15[2];  getitem_78 = None
    getitem_79 = getattr_15[3];  getattr_15 = None
    reshape_38 = blocks_1_layers_0_layers_window_attention_departition_swap.reshape(getitem_76, 4, 4, 7, 7, getitem_79);  blocks_1_layers_0_layers_window_attention_departition_swap = None
    permute_34 = reshape_38.permute(0, 5, 1, 3, 2, 4);  reshape_38 = None
    reshape_39 = permute_34.reshape(getitem_76, getitem_79, 28, 28);  permute_34 = getitem_76 = getitem_79 = None
    getattr_16 = reshape_39.shape
    getitem_80 = getattr_16[0]
    getitem_81 = getattr_16[1]
    getitem_82 = getattr_16[2]
    getitem_83 = getattr_16[3];  getattr_16 = None
    floordiv_20 = getitem_82 // 4
    floordiv_21 = getitem_83 // 4
    reshape_40 = reshape_39.reshape(getitem_80, getitem_81, floordiv_20, 4, floordiv_21, 4);  reshape_39 = floordiv_20 = floordiv_21 = None
    permute_35 = reshape_40.permute(0, 2, 4, 3, 5, 1);  reshape_40 = None
    floordiv_22 = getitem_82 // 4;  getitem_82 = None
    floordiv_23 = getitem_83 // 4;  getitem_83 = None
    mul_13 = floordiv_22 * floordiv_23;  floordiv_22 = floordiv_23 = None
    reshape_41 = permute_35.reshape(getitem_80, mul_13, 16, getitem_81);  permute_35 = getitem_80 = mul_13 = getitem_81 = None
    swapaxes_4 = torch.swapaxes(reshape_41, -2, -3);  reshape_41 = None
    blocks_1_layers_0_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.grid_attention.attn_layer, "0")(swapaxes_4)
    getattr_17 = blocks_1_layers_0_layers_grid_attention_attn_layer_0.shape
    getitem_84 = getattr_17[0]
    getitem_85 = getattr_17[1]
    getitem_86 = getattr_17[2]
    getitem_87 = getattr_17[3];  getattr_17 = None
    blocks_1_layers_0_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.grid_attention.attn_layer, "1").to_qkv(blocks_1_layers_0_layers_grid_attention_attn_layer_0);  blocks_1_layers_0_layers_grid_attention_attn_layer_0 = None
    chunk_5 = torch.chunk(blocks_1_layers_0_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_1_layers_0_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_88 = chunk_5[0]
    getitem_89 = chunk_5[1]
    getitem_90 = chunk_5[2];  chunk_5 = None
    reshape_42 = getitem_88.reshape(getitem_84, getitem_85, getitem_86, 4, 32);  getitem_88 = None
    permute_36 = reshape_42.permute(0, 1, 3, 2, 4);  reshape_42 = None
    reshape_43 = getitem_89.reshape(getitem_84, getitem_85, getitem_86, 4, 32);  getitem_89 = None
    permute_37 = reshape_43.permute(0, 1, 3, 2, 4);  reshape_43 = None
    reshape_44 = getitem_90.reshape(getitem_84, getitem_85, getitem_86, 4, 32);  getitem_90 = None
    permute_38 = reshape_44.permute(0, 1, 3, 2, 4);  reshape_44 = None
    mul_14 = permute_37 * 0.08838834764831845;  permute_37 = None
    einsum_10 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_36, mul_14);  permute_36 = mul_14 = None
    blocks_1_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant5 = self._tensor_constant5
    getitem_91 = blocks_1_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant5];  blocks_1_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant5 = None
    view_5 = getitem_91.view(49, 49, -1);  getitem_91 = None
    permute_39 = view_5.permute(2, 0, 1);  view_5 = None
    contiguous_5 = permute_39.contiguous();  permute_39 = None
    unsqueeze_5 = contiguous_5.unsqueeze(0);  contiguous_5 = None
    add_18 = einsum_10 + unsqueeze_5;  einsum_10 = unsqueeze_5 = None
    softmax_5 = torch.nn.functional.softmax(add_18, dim = -1, _stacklevel = 3, dtype = None);  add_18 = None
    einsum_11 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_5, permute_38);  softmax_5 = permute_38 = None
    permute_40 = einsum_11.permute(0, 1, 3, 2, 4);  einsum_11 = None
    reshape_45 = permute_40.reshape(getitem_84, getitem_85, getitem_86, getitem_87);  permute_40 = getitem_84 = getitem_85 = getitem_86 = getitem_87 = None
    blocks_1_layers_0_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.grid_attention.attn_layer, "1").merge(reshape_45);  reshape_45 = None
    blocks_1_layers_0_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.grid_attention.attn_layer, "2")(blocks_1_layers_0_layers_grid_attention_attn_layer_1_merge);  blocks_1_layers_0_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_12 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_1_layers_0_layers_grid_attention_attn_layer_2, 0.04, 'row', False);  blocks_1_layers_0_layers_grid_attention_attn_layer_2 = None
    add_19 = swapaxes_4 + stochastic_depth_12;  swapaxes_4 = stochastic_depth_12 = None
    blocks_1_layers_0_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.grid_attention.mlp_layer, "0")(add_19)
    blocks_1_layers_0_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.grid_attention.mlp_layer, "1")(blocks_1_layers_0_layers_grid_attention_mlp_layer_0);  blocks_1_layers_0_layers_grid_attention_mlp_layer_0 = None
    blocks_1_layers_0_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.grid_attention.mlp_layer, "2")(blocks_1_layers_0_layers_grid_attention_mlp_layer_1);  blocks_1_layers_0_layers_grid_attention_mlp_layer_1 = None
    blocks_1_layers_0_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.grid_attention.mlp_layer, "3")(blocks_1_layers_0_layers_grid_attention_mlp_layer_2);  blocks_1_layers_0_layers_grid_attention_mlp_layer_2 = None
    blocks_1_layers_0_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "1").layers, "0").layers.grid_attention.mlp_layer, "4")(blocks_1_layers_0_layers_grid_attention_mlp_layer_3);  blocks_1_layers_0_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_13 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_1_layers_0_layers_grid_attention_mlp_layer_4, 0.04, 'row', False);  blocks_1_layers_0_layers_grid_attention_mlp_layer_4 = None
    add_20 = add_19 + stochastic_depth_13;  add_19 = stochastic_depth_13 = None
    swapaxes_5 = torch.swapaxes(add_20, -2, -3);  add_20 = None
    getattr_18 = swapaxes_5.shape
    getitem_92 = getattr_18[0]
    getitem_93 = getattr_18[1];  getitem_93 = None
    getitem_94 = getattr_18[2];  getitem_94 = None
    getitem_95 = getattr_18[3];  getattr_18 = None
    reshape_46 = swapaxes_5.reshape(getitem_92, 7, 7, 4, 4, getitem_95);  swapaxes_5 = None
    permute_41 = reshape_46.permute(0, 5, 1, 3, 2, 4);  reshape_46 = None
    reshape_47 = permute_41.reshape(getitem_92, getitem_95, 28, 28);  permute_41 = getitem_92 = getitem_95 = None
    blocks_1_layers_1_layers_mbconv_proj = getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.proj(reshape_47)
    blocks_1_layers_1_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.pre_norm(reshape_47);  reshape_47 = None
    blocks_1_layers_1_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.conv_a, "0")(blocks_1_layers_1_layers_mbconv_layers_pre_norm);  blocks_1_layers_1_layers_mbconv_layers_pre_norm = None
    blocks_1_layers_1_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.conv_a, "1")(blocks_1_layers_1_layers_mbconv_layers_conv_a_0);  blocks_1_layers_1_layers_mbconv_layers_conv_a_0 = None
    blocks_1_layers_1_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.conv_a, "2")(blocks_1_layers_1_layers_mbconv_layers_conv_a_1);  blocks_1_layers_1_layers_mbconv_layers_conv_a_1 = None
    blocks_1_layers_1_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.conv_b, "0")(blocks_1_layers_1_layers_mbconv_layers_conv_a_2);  blocks_1_layers_1_layers_mbconv_layers_conv_a_2 = None
    blocks_1_layers_1_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.conv_b, "1")(blocks_1_layers_1_layers_mbconv_layers_conv_b_0);  blocks_1_layers_1_layers_mbconv_layers_conv_b_0 = None
    blocks_1_layers_1_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.conv_b, "2")(blocks_1_layers_1_layers_mbconv_layers_conv_b_1);  blocks_1_layers_1_layers_mbconv_layers_conv_b_1 = None
    blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_1_layers_1_layers_mbconv_layers_conv_b_2)
    blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.squeeze_excitation.fc1(blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.squeeze_excitation.activation(blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.squeeze_excitation.fc2(blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_activation);  blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul_15 = blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_1_layers_1_layers_mbconv_layers_conv_b_2;  blocks_1_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_1_layers_1_layers_mbconv_layers_conv_b_2 = None
    blocks_1_layers_1_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "1").layers, "1").layers.MBconv.layers.conv_c(mul_15);  mul_15 = None
    stochastic_depth_14 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_1_layers_1_layers_mbconv_layers_conv_c, 0.06, 'row', False);  blocks_1_layers_1_layers_mbconv_layers_conv_c = None
    add_21 = blocks_1_layers_1_layers_mbconv_proj + stochastic_depth_14;  blocks_1_layers_1_layers_mbconv_proj = stochastic_depth_14 = None
    getattr_19 = add_21.shape
    getitem_96 = getattr_19[0]
    getitem_97 = getattr_19[1]
    getitem_98 = getattr_19[2]
    getitem_99 = getattr_19[3];  getattr_19 = None
    floordiv_24 = getitem_98 // 7
    floordiv_25 = getitem_99 // 7
    reshape_48 = add_21.reshape(getitem_96, getitem_97, floordiv_24, 7, floordiv_25, 7);  add_21 = floordiv_24 = floordiv_25 = None
    permute_42 = reshape_48.permute(0, 2, 4, 3, 5, 1);  reshape_48 = None
    floordiv_26 = getitem_98 // 7;  getitem_98 = None
    floordiv_27 = getitem_99 // 7;  getitem_99 = None
    mul_16 = floordiv_26 * floordiv_27;  floordiv_26 = floordiv_27 = None
    reshape_49 = permute_42.reshape(getitem_96, mul_16, 49, getitem_97);  permute_42 = getitem_96 = mul_16 = getitem_97 = None
    blocks_1_layers_1_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.partition_swap(reshape_49);  reshape_49 = None
    blocks_1_layers_1_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.attn_layer, "0")(blocks_1_layers_1_layers_window_attention_partition_swap)
    getattr_20 = blocks_1_layers_1_layers_window_attention_attn_layer_0.shape
    getitem_100 = getattr_20[0]
    getitem_101 = getattr_20[1]
    getitem_102 = getattr_20[2]
    getitem_103 = getattr_20[3];  getattr_20 = None
    blocks_1_layers_1_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.attn_layer, "1").to_qkv(blocks_1_layers_1_layers_window_attention_attn_layer_0);  blocks_1_layers_1_layers_window_attention_attn_layer_0 = None
    chunk_6 = torch.chunk(blocks_1_layers_1_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_1_layers_1_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_104 = chunk_6[0]
    getitem_105 = chunk_6[1]
    getitem_106 = chunk_6[2];  chunk_6 = None
    reshape_50 = getitem_104.reshape(getitem_100, getitem_101, getitem_102, 4, 32);  getitem_104 = None
    permute_43 = reshape_50.permute(0, 1, 3, 2, 4);  reshape_50 = None
    reshape_51 = getitem_105.reshape(getitem_100, getitem_101, getitem_102, 4, 32);  getitem_105 = None
    permute_44 = reshape_51.permute(0, 1, 3, 2, 4);  reshape_51 = None
    reshape_52 = getitem_106.reshape(getitem_100, getitem_101, getitem_102, 4, 32);  getitem_106 = None
    permute_45 = reshape_52.permute(0, 1, 3, 2, 4);  reshape_52 = None
    mul_17 = permute_44 * 0.08838834764831845;  permute_44 = None
    einsum_12 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_43, mul_17);  permute_43 = mul_17 = None
    blocks_1_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant6 = self._tensor_constant6
    getitem_107 = blocks_1_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant6];  blocks_1_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant6 = None
    view_6 = getitem_107.view(49, 49, -1);  getitem_107 = None
    permute_46 = view_6.permute(2, 0, 1);  view_6 = None
    contiguous_6 = permute_46.contiguous();  permute_46 = None
    unsqueeze_6 = contiguous_6.unsqueeze(0);  contiguous_6 = None
    add_22 = einsum_12 + unsqueeze_6;  einsum_12 = unsqueeze_6 = None
    softmax_6 = torch.nn.functional.softmax(add_22, dim = -1, _stacklevel = 3, dtype = None);  add_22 = None
    einsum_13 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_6, permute_45);  softmax_6 = permute_45 = None
    permute_47 = einsum_13.permute(0, 1, 3, 2, 4);  einsum_13 = None
    reshape_53 = permute_47.reshape(getitem_100, getitem_101, getitem_102, getitem_103);  permute_47 = getitem_100 = getitem_101 = getitem_102 = getitem_103 = None
    blocks_1_layers_1_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.attn_layer, "1").merge(reshape_53);  reshape_53 = None
    blocks_1_layers_1_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.attn_layer, "2")(blocks_1_layers_1_layers_window_attention_attn_layer_1_merge);  blocks_1_layers_1_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth_15 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_1_layers_1_layers_window_attention_attn_layer_2, 0.06, 'row', False);  blocks_1_layers_1_layers_window_attention_attn_layer_2 = None
    add_23 = blocks_1_layers_1_layers_window_attention_partition_swap + stochastic_depth_15;  blocks_1_layers_1_layers_window_attention_partition_swap = stochastic_depth_15 = None
    blocks_1_layers_1_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.mlp_layer, "0")(add_23)
    blocks_1_layers_1_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.mlp_layer, "1")(blocks_1_layers_1_layers_window_attention_mlp_layer_0);  blocks_1_layers_1_layers_window_attention_mlp_layer_0 = None
    blocks_1_layers_1_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.mlp_layer, "2")(blocks_1_layers_1_layers_window_attention_mlp_layer_1);  blocks_1_layers_1_layers_window_attention_mlp_layer_1 = None
    blocks_1_layers_1_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.mlp_layer, "3")(blocks_1_layers_1_layers_window_attention_mlp_layer_2);  blocks_1_layers_1_layers_window_attention_mlp_layer_2 = None
    blocks_1_layers_1_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.mlp_layer, "4")(blocks_1_layers_1_layers_window_attention_mlp_layer_3);  blocks_1_layers_1_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_16 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_1_layers_1_layers_window_attention_mlp_layer_4, 0.06, 'row', False);  blocks_1_layers_1_layers_window_attention_mlp_layer_4 = None
    add_24 = add_23 + stochastic_depth_16;  add_23 = stochastic_depth_16 = None
    blocks_1_layers_1_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "1").layers, "1").layers.window_attention.departition_swap(add_24);  add_24 = None
    getattr_21 = blocks_1_layers_1_layers_window_attention_departition_swap.shape
    getitem_108 = getattr_21[0]
    getitem_109 = getattr_21[1];  getitem_109 = None
    getitem_110 = getattr_21[2];  getitem_110 = None
    getitem_111 = getattr_21[3];  getattr_21 = None
    reshape_54 = blocks_1_layers_1_layers_window_attention_departition_swap.reshape(getitem_108, 4, 4, 7, 7, getitem_111);  blocks_1_layers_1_layers_window_attention_departition_swap = None
    permute_48 = reshape_54.permute(0, 5, 1, 3, 2, 4);  reshape_54 = None
    reshape_55 = permute_48.reshape(getitem_108, getitem_111, 28, 28);  permute_48 = getitem_108 = getitem_111 = None
    getattr_22 = reshape_55.shape
    getitem_112 = getattr_22[0]
    getitem_113 = getattr_22[1]
    getitem_114 = getattr_22[2]
    getitem_115 = getattr_22[3];  getattr_22 = None
    floordiv_28 = getitem_114 // 4
    floordiv_29 = getitem_115 // 4
    reshape_56 = reshape_55.reshape(getitem_112, getitem_113, floordiv_28, 4, floordiv_29, 4);  reshape_55 = floordiv_28 = floordiv_29 = None
    permute_49 = reshape_56.permute(0, 2, 4, 3, 5, 1);  reshape_56 = None
    floordiv_30 = getitem_114 // 4;  getitem_114 = None
    floordiv_31 = getitem_115 // 4;  getitem_115 = None
    mul_18 = floordiv_30 * floordiv_31;  floordiv_30 = floordiv_31 = None
    reshape_57 = permute_49.reshape(getitem_112, mul_18, 16, getitem_113);  permute_49 = getitem_112 = mul_18 = getitem_113 = None
    swapaxes_6 = torch.swapaxes(reshape_57, -2, -3);  reshape_57 = None
    blocks_1_layers_1_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.grid_attention.attn_layer, "0")(swapaxes_6)
    getattr_23 = blocks_1_layers_1_layers_grid_attention_attn_layer_0.shape
    getitem_116 = getattr_23[0]
    getitem_117 = getattr_23[1]
    getitem_118 = getattr_23[2]
    getitem_119 = getattr_23[3];  getattr_23 = None
    blocks_1_layers_1_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.grid_attention.attn_layer, "1").to_qkv(blocks_1_layers_1_layers_grid_attention_attn_layer_0);  blocks_1_layers_1_layers_grid_attention_attn_layer_0 = None
    chunk_7 = torch.chunk(blocks_1_layers_1_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_1_layers_1_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_120 = chunk_7[0]
    getitem_121 = chunk_7[1]
    getitem_122 = chunk_7[2];  chunk_7 = None
    reshape_58 = getitem_120.reshape(getitem_116, getitem_117, getitem_118, 4, 32);  getitem_120 = None
    permute_50 = reshape_58.permute(0, 1, 3, 2, 4);  reshape_58 = None
    reshape_59 = getitem_121.reshape(getitem_116, getitem_117, getitem_118, 4, 32);  getitem_121 = None
    permute_51 = reshape_59.permute(0, 1, 3, 2, 4);  reshape_59 = None
    reshape_60 = getitem_122.reshape(getitem_116, getitem_117, getitem_118, 4, 32);  getitem_122 = None
    permute_52 = reshape_60.permute(0, 1, 3, 2, 4);  reshape_60 = None
    mul_19 = permute_51 * 0.08838834764831845;  permute_51 = None
    einsum_14 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_50, mul_19);  permute_50 = mul_19 = None
    blocks_1_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant7 = self._tensor_constant7
    getitem_123 = blocks_1_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant7];  blocks_1_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant7 = None
    view_7 = getitem_123.view(49, 49, -1);  getitem_123 = None
    permute_53 = view_7.permute(2, 0, 1);  view_7 = None
    contiguous_7 = permute_53.contiguous();  permute_53 = None
    unsqueeze_7 = contiguous_7.unsqueeze(0);  contiguous_7 = None
    add_25 = einsum_14 + unsqueeze_7;  einsum_14 = unsqueeze_7 = None
    softmax_7 = torch.nn.functional.softmax(add_25, dim = -1, _stacklevel = 3, dtype = None);  add_25 = None
    einsum_15 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_7, permute_52);  softmax_7 = permute_52 = None
    permute_54 = einsum_15.permute(0, 1, 3, 2, 4);  einsum_15 = None
    reshape_61 = permute_54.reshape(getitem_116, getitem_117, getitem_118, getitem_119);  permute_54 = getitem_116 = getitem_117 = getitem_118 = getitem_119 = None
    blocks_1_layers_1_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.grid_attention.attn_layer, "1").merge(reshape_61);  reshape_61 = None
    blocks_1_layers_1_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.grid_attention.attn_layer, "2")(blocks_1_layers_1_layers_grid_attention_attn_layer_1_merge);  blocks_1_layers_1_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_17 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_1_layers_1_layers_grid_attention_attn_layer_2, 0.06, 'row', False);  blocks_1_layers_1_layers_grid_attention_attn_layer_2 = None
    add_26 = swapaxes_6 + stochastic_depth_17;  swapaxes_6 = stochastic_depth_17 = None
    blocks_1_layers_1_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.grid_attention.mlp_layer, "0")(add_26)
    blocks_1_layers_1_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.grid_attention.mlp_layer, "1")(blocks_1_layers_1_layers_grid_attention_mlp_layer_0);  blocks_1_layers_1_layers_grid_attention_mlp_layer_0 = None
    blocks_1_layers_1_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.grid_attention.mlp_layer, "2")(blocks_1_layers_1_layers_grid_attention_mlp_layer_1);  blocks_1_layers_1_layers_grid_attention_mlp_layer_1 = None
    blocks_1_layers_1_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.grid_attention.mlp_layer, "3")(blocks_1_layers_1_layers_grid_attention_mlp_layer_2);  blocks_1_layers_1_layers_grid_attention_mlp_layer_2 = None
    blocks_1_layers_1_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "1").layers, "1").layers.grid_attention.mlp_layer, "4")(blocks_1_layers_1_layers_grid_attention_mlp_layer_3);  blocks_1_layers_1_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_18 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_1_layers_1_layers_grid_attention_mlp_layer_4, 0.06, 'row', False);  blocks_1_layers_1_layers_grid_attention_mlp_layer_4 = None
    add_27 = add_26 + stochastic_depth_18;  add_26 = stochastic_depth_18 = None
    swapaxes_7 = torch.swapaxes(add_27, -2, -3);  add_27 = None
    getattr_24 = swapaxes_7.shape
    getitem_124 = getattr_24[0]
    getitem_125 = getattr_24[1];  getitem_125 = None
    getitem_126 = getattr_24[2];  getitem_126 = None
    getitem_127 = getattr_24[3];  getattr_24 = None
    reshape_62 = swapaxes_7.reshape(getitem_124, 7, 7, 4, 4, getitem_127);  swapaxes_7 = None
    permute_55 = reshape_62.permute(0, 5, 1, 3, 2, 4);  reshape_62 = None
    reshape_63 = permute_55.reshape(getitem_124, getitem_127, 28, 28);  permute_55 = getitem_124 = getitem_127 = None
    blocks_2_layers_0_layers_mbconv_proj_0 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.proj, "0")(reshape_63)
    blocks_2_layers_0_layers_mbconv_proj_1 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.proj, "1")(blocks_2_layers_0_layers_mbconv_proj_0);  blocks_2_layers_0_layers_mbconv_proj_0 = None
    blocks_2_layers_0_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.pre_norm(reshape_63);  reshape_63 = None
    blocks_2_layers_0_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.conv_a, "0")(blocks_2_layers_0_layers_mbconv_layers_pre_norm);  blocks_2_layers_0_layers_mbconv_layers_pre_norm = None
    blocks_2_layers_0_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.conv_a, "1")(blocks_2_layers_0_layers_mbconv_layers_conv_a_0);  blocks_2_layers_0_layers_mbconv_layers_conv_a_0 = None
    blocks_2_layers_0_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.conv_a, "2")(blocks_2_layers_0_layers_mbconv_layers_conv_a_1);  blocks_2_layers_0_layers_mbconv_layers_conv_a_1 = None
    blocks_2_layers_0_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.conv_b, "0")(blocks_2_layers_0_layers_mbconv_layers_conv_a_2);  blocks_2_layers_0_layers_mbconv_layers_conv_a_2 = None
    blocks_2_layers_0_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.conv_b, "1")(blocks_2_layers_0_layers_mbconv_layers_conv_b_0);  blocks_2_layers_0_layers_mbconv_layers_conv_b_0 = None
    blocks_2_layers_0_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.conv_b, "2")(blocks_2_layers_0_layers_mbconv_layers_conv_b_1);  blocks_2_layers_0_layers_mbconv_layers_conv_b_1 = None
    blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_2_layers_0_layers_mbconv_layers_conv_b_2)
    blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.squeeze_excitation.fc1(blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.squeeze_excitation.activation(blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.squeeze_excitation.fc2(blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_activation);  blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul_20 = blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_2_layers_0_layers_mbconv_layers_conv_b_2;  blocks_2_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_2_layers_0_layers_mbconv_layers_conv_b_2 = None
    blocks_2_layers_0_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "2").layers, "0").layers.MBconv.layers.conv_c(mul_20);  mul_20 = None
    stochastic_depth_19 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_0_layers_mbconv_layers_conv_c, 0.08, 'row', False);  blocks_2_layers_0_layers_mbconv_layers_conv_c = None
    add_28 = blocks_2_layers_0_layers_mbconv_proj_1 + stochastic_depth_19;  blocks_2_layers_0_layers_mbconv_proj_1 = stochastic_depth_19 = None
    getattr_25 = add_28.shape
    getitem_128 = getattr_25[0]
    getitem_129 = getattr_25[1]
    getitem_130 = getattr_25[2]
    getitem_131 = getattr_25[3];  getattr_25 = None
    floordiv_32 = getitem_130 // 7
    floordiv_33 = getitem_131 // 7
    reshape_64 = add_28.reshape(getitem_128, getitem_129, floordiv_32, 7, floordiv_33, 7);  add_28 = floordiv_32 = floordiv_33 = None
    permute_56 = reshape_64.permute(0, 2, 4, 3, 5, 1);  reshape_64 = None
    floordiv_34 = getitem_130 // 7;  getitem_130 = None
    floordiv_35 = getitem_131 // 7;  getitem_131 = None
    mul_21 = floordiv_34 * floordiv_35;  floordiv_34 = floordiv_35 = None
    reshape_65 = permute_56.reshape(getitem_128, mul_21, 49, getitem_129);  permute_56 = getitem_128 = mul_21 = getitem_129 = None
    blocks_2_layers_0_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.partition_swap(reshape_65);  reshape_65 = None
    blocks_2_layers_0_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.attn_layer, "0")(blocks_2_layers_0_layers_window_attention_partition_swap)
    getattr_26 = blocks_2_layers_0_layers_window_attention_attn_layer_0.shape
    getitem_132 = getattr_26[0]
    getitem_133 = getattr_26[1]
    getitem_134 = getattr_26[2]
    getitem_135 = getattr_26[3];  getattr_26 = None
    blocks_2_layers_0_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.attn_layer, "1").to_qkv(blocks_2_layers_0_layers_window_attention_attn_layer_0);  blocks_2_layers_0_layers_window_attention_attn_layer_0 = None
    chunk_8 = torch.chunk(blocks_2_layers_0_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_2_layers_0_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_136 = chunk_8[0]
    getitem_137 = chunk_8[1]
    getitem_138 = chunk_8[2];  chunk_8 = None
    reshape_66 = getitem_136.reshape(getitem_132, getitem_133, getitem_134, 8, 32);  getitem_136 = None
    permute_57 = reshape_66.permute(0, 1, 3, 2, 4);  reshape_66 = None
    reshape_67 = getitem_137.reshape(getitem_132, getitem_133, getitem_134, 8, 32);  getitem_137 = None
    permute_58 = reshape_67.permute(0, 1, 3, 2, 4);  reshape_67 = None
    reshape_68 = getitem_138.reshape(getitem_132, getitem_133, getitem_134, 8, 32);  getitem_138 = None
    permute_59 = reshape_68.permute(0, 1, 3, 2, 4);  reshape_68 = None
    mul_22 = permute_58 * 0.0625;  permute_58 = None
    einsum_16 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_57, mul_22);  permute_57 = mul_22 = None
    blocks_2_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant8 = self._tensor_constant8
    getitem_139 = blocks_2_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant8];  blocks_2_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant8 = None
    view_8 = getitem_139.view(49, 49, -1);  getitem_139 = None
    permute_60 = view_8.permute(2, 0, 1);  view_8 = None
    contiguous_8 = permute_60.contiguous();  permute_60 = None
    unsqueeze_8 = contiguous_8.unsqueeze(0);  contiguous_8 = None
    add_29 = einsum_16 + unsqueeze_8;  einsum_16 = unsqueeze_8 = None
    softmax_8 = torch.nn.functional.softmax(add_29, dim = -1, _stacklevel = 3, dtype = None);  add_29 = None
    einsum_17 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_8, permute_59);  softmax_8 = permute_59 = None
    permute_61 = einsum_17.permute(0, 1, 3, 2, 4);  einsum_17 = None
    reshape_69 = permute_61.reshape(getitem_132, getitem_133, getitem_134, getitem_135);  permute_61 = getitem_132 = getitem_133 = getitem_134 = getitem_135 = None
    blocks_2_layers_0_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.attn_layer, "1").merge(reshape_69);  reshape_69 = None
    blocks_2_layers_0_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.attn_layer, "2")(blocks_2_layers_0_layers_window_attention_attn_layer_1_merge);  blocks_2_layers_0_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth_20 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_0_layers_window_attention_attn_layer_2, 0.08, 'row', False);  blocks_2_layers_0_layers_window_attention_attn_layer_2 = None
    add_30 = blocks_2_layers_0_layers_window_attention_partition_swap + stochastic_depth_20;  blocks_2_layers_0_layers_window_attention_partition_swap = stochastic_depth_20 = None
    blocks_2_layers_0_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.mlp_layer, "0")(add_30)
    blocks_2_layers_0_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.mlp_layer, "1")(blocks_2_layers_0_layers_window_attention_mlp_layer_0);  blocks_2_layers_0_layers_window_attention_mlp_layer_0 = None
    blocks_2_layers_0_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.mlp_layer, "2")(blocks_2_layers_0_layers_window_attention_mlp_layer_1);  blocks_2_layers_0_layers_window_attention_mlp_layer_1 = None
    blocks_2_layers_0_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.mlp_layer, "3")(blocks_2_layers_0_layers_window_attention_mlp_layer_2);  blocks_2_layers_0_layers_window_attention_mlp_layer_2 = None
    blocks_2_layers_0_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.mlp_layer, "4")(blocks_2_layers_0_layers_window_attention_mlp_layer_3);  blocks_2_layers_0_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_21 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_0_layers_window_attention_mlp_layer_4, 0.08, 'row', False);  blocks_2_layers_0_layers_window_attention_mlp_layer_4 = None
    add_31 = add_30 + stochastic_depth_21;  add_30 = stochastic_depth_21 = None
    blocks_2_layers_0_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "2").layers, "0").layers.window_attention.departition_swap(add_31);  add_31 = None
    getattr_27 = blocks_2_layers_0_layers_window_attention_departition_swap.shape
    getitem_140 = getattr_27[0]
    getitem_141 = getattr_27[1];  getitem_141 = None
    getitem_142 = getattr_27[2];  getitem_142 = None
    getitem_143 = getattr_27[3];  getattr_27 = None
    reshape_70 = blocks_2_layers_0_layers_window_attention_departition_swap.reshape(getitem_140, 2, 2, 7, 7, getitem_143);  blocks_2_layers_0_layers_window_attention_departition_swap = None
    permute_62 = reshape_70.permute(0, 5, 1, 3, 2, 4);  reshape_70 = None
    reshape_71 = permute_62.reshape(getitem_140, getitem_143, 14, 14);  permute_62 = getitem_140 = getitem_143 = None
    getattr_28 = reshape_71.shape
    getitem_144 = getattr_28[0]
    getitem_145 = getattr_28[1]
    getitem_146 = getattr_28[2]
    getitem_147 = getattr_28[3];  getattr_28 = None
    floordiv_36 = getitem_146 // 2
    floordiv_37 = getitem_147 // 2
    reshape_72 = reshape_71.reshape(getitem_144, getitem_145, floordiv_36, 2, floordiv_37, 2);  reshape_71 = floordiv_36 = floordiv_37 = None
    permute_63 = reshape_72.permute(0, 2, 4, 3, 5, 1);  reshape_72 = None
    floordiv_38 = getitem_146 // 2;  getitem_146 = None
    floordiv_39 = getitem_147 // 2;  getitem_147 = None
    mul_23 = floordiv_38 * floordiv_39;  floordiv_38 = floordiv_39 = None
    reshape_73 = permute_63.reshape(getitem_144, mul_23, 4, getitem_145);  permute_63 = getitem_144 = mul_23 = getitem_145 = None
    swapaxes_8 = torch.swapaxes(reshape_73, -2, -3);  reshape_73 = None
    blocks_2_layers_0_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.grid_attention.attn_layer, "0")(swapaxes_8)
    getattr_29 = blocks_2_layers_0_layers_grid_attention_attn_layer_0.shape
    getitem_148 = getattr_29[0]
    getitem_149 = getattr_29[1]
    getitem_150 = getattr_29[2]
    getitem_151 = getattr_29[3];  getattr_29 = None
    blocks_2_layers_0_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.grid_attention.attn_layer, "1").to_qkv(blocks_2_layers_0_layers_grid_attention_attn_layer_0);  blocks_2_layers_0_layers_grid_attention_attn_layer_0 = None
    chunk_9 = torch.chunk(blocks_2_layers_0_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_2_layers_0_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_152 = chunk_9[0]
    getitem_153 = chunk_9[1]
    getitem_154 = chunk_9[2];  chunk_9 = None
    reshape_74 = getitem_152.reshape(getitem_148, getitem_149, getitem_150, 8, 32);  getitem_152 = None
    permute_64 = reshape_74.permute(0, 1, 3, 2, 4);  reshape_74 = None
    reshape_75 = getitem_153.reshape(getitem_148, getitem_149, getitem_150, 8, 32);  getitem_153 = None
    permute_65 = reshape_75.permute(0, 1, 3, 2, 4);  reshape_75 = None
    reshape_76 = getitem_154.reshape(getitem_148, getitem_149, getitem_150, 8, 32);  getitem_154 = None
    permute_66 = reshape_76.permute(0, 1, 3, 2, 4);  reshape_76 = None
    mul_24 = permute_65 * 0.0625;  permute_65 = None
    einsum_18 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_64, mul_24);  permute_64 = mul_24 = None
    blocks_2_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant9 = self._tensor_constant9
    getitem_155 = blocks_2_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant9];  blocks_2_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant9 = None
    view_9 = getitem_155.view(49, 49, -1);  getitem_155 = None
    permute_67 = view_9.permute(2, 0, 1);  view_9 = None
    contiguous_9 = permute_67.contiguous();  permute_67 = None
    unsqueeze_9 = contiguous_9.unsqueeze(0);  contiguous_9 = None
    add_32 = einsum_18 + unsqueeze_9;  einsum_18 = unsqueeze_9 = None
    softmax_9 = torch.nn.functional.softmax(add_32, dim = -1, _stacklevel = 3, dtype = None);  add_32 = None
    einsum_19 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_9, permute_66);  softmax_9 = permute_66 = None
    permute_68 = einsum_19.permute(0, 1, 3, 2, 4);  einsum_19 = None
    reshape_77 = permute_68.reshape(getitem_148, getitem_149, getitem_150, getitem_151);  permute_68 = getitem_148 = getitem_149 = getitem_150 = getitem_151 = None
    blocks_2_layers_0_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.grid_attention.attn_layer, "1").merge(reshape_77);  reshape_77 = None
    blocks_2_layers_0_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.grid_attention.attn_layer, "2")(blocks_2_layers_0_layers_grid_attention_attn_layer_1_merge);  blocks_2_layers_0_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_22 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_0_layers_grid_attention_attn_layer_2, 0.08, 'row', False);  blocks_2_layers_0_layers_grid_attention_attn_layer_2 = None
    add_33 = swapaxes_8 + stochastic_depth_22;  swapaxes_8 = stochastic_depth_22 = None
    blocks_2_layers_0_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.grid_attention.mlp_layer, "0")(add_33)
    blocks_2_layers_0_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.grid_attention.mlp_layer, "1")(blocks_2_layers_0_layers_grid_attention_mlp_layer_0);  blocks_2_layers_0_layers_grid_attention_mlp_layer_0 = None
    blocks_2_layers_0_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.grid_attention.mlp_layer, "2")(blocks_2_layers_0_layers_grid_attention_mlp_layer_1);  blocks_2_layers_0_layers_grid_attention_mlp_layer_1 = None
    blocks_2_layers_0_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.grid_attention.mlp_layer, "3")(blocks_2_layers_0_layers_grid_attention_mlp_layer_2);  blocks_2_layers_0_layers_grid_attention_mlp_layer_2 = None
    blocks_2_layers_0_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "2").layers, "0").layers.grid_attention.mlp_layer, "4")(blocks_2_layers_0_layers_grid_attention_mlp_layer_3);  blocks_2_layers_0_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_23 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_0_layers_grid_attention_mlp_layer_4, 0.08, 'row', False);  blocks_2_layers_0_layers_grid_attention_mlp_layer_4 = None
    add_34 = add_33 + stochastic_depth_23;  add_33 = stochastic_depth_23 = None
    swapaxes_9 = torch.swapaxes(add_34, -2, -3);  add_34 = None
    getattr_30 = swapaxes_9.shape
    getitem_156 = getattr_30[0]
    getitem_157 = getattr_30[1];  getitem_157 = None
    getitem_158 = getattr_30[2];  getitem_158 = None
    getitem_159 = getattr_30[3];  getattr_30 = None
    reshape_78 = swapaxes_9.reshape(getitem_156, 7, 7, 2, 2, getitem_159);  swapaxes_9 = None
    permute_69 = reshape_78.permute(0, 5, 1, 3, 2, 4);  reshape_78 = None
    reshape_79 = permute_69.reshape(getitem_156, getitem_159, 14, 14);  permute_69 = getitem_156 = getitem_159 = None
    blocks_2_layers_1_layers_mbconv_proj = getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.proj(reshape_79)
    blocks_2_layers_1_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.pre_norm(reshape_79);  reshape_79 = None
    blocks_2_layers_1_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.conv_a, "0")(blocks_2_layers_1_layers_mbconv_layers_pre_norm);  blocks_2_layers_1_layers_mbconv_layers_pre_norm = None
    blocks_2_layers_1_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.conv_a, "1")(blocks_2_layers_1_layers_mbconv_layers_conv_a_0);  blocks_2_layers_1_layers_mbconv_layers_conv_a_0 = None
    blocks_2_layers_1_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.conv_a, "2")(blocks_2_layers_1_layers_mbconv_layers_conv_a_1);  blocks_2_layers_1_layers_mbconv_layers_conv_a_1 = None
    blocks_2_layers_1_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.conv_b, "0")(blocks_2_layers_1_layers_mbconv_layers_conv_a_2);  blocks_2_layers_1_layers_mbconv_layers_conv_a_2 = None
    blocks_2_layers_1_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.conv_b, "1")(blocks_2_layers_1_layers_mbconv_layers_conv_b_0);  blocks_2_layers_1_layers_mbconv_layers_conv_b_0 = None
    blocks_2_layers_1_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.conv_b, "2")(blocks_2_layers_1_layers_mbconv_layers_conv_b_1);  blocks_2_layers_1_layers_mbconv_layers_conv_b_1 = None
    blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_2_layers_1_layers_mbconv_layers_conv_b_2)
    blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.squeeze_excitation.fc1(blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.squeeze_excitation.activation(blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.squeeze_excitation.fc2(blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_activation);  blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul_25 = blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_2_layers_1_layers_mbconv_layers_conv_b_2;  blocks_2_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_2_layers_1_layers_mbconv_layers_conv_b_2 = None
    blocks_2_layers_1_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "2").layers, "1").layers.MBconv.layers.conv_c(mul_25);  mul_25 = None
    stochastic_depth_24 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_1_layers_mbconv_layers_conv_c, 0.1, 'row', False);  blocks_2_layers_1_layers_mbconv_layers_conv_c = None
    add_35 = blocks_2_layers_1_layers_mbconv_proj + stochastic_depth_24;  blocks_2_layers_1_layers_mbconv_proj = stochastic_depth_24 = None
    getattr_31 = add_35.shape
    getitem_160 = getattr_31[0]
    getitem_161 = getattr_31[1]
    getitem_162 = getattr_31[2]
    getitem_163 = getattr_31[3];  getattr_31 = None
    floordiv_40 = getitem_162 // 7
    floordiv_41 = getitem_163 // 7
    reshape_80 = add_35.reshape(getitem_160, getitem_161, floordiv_40, 7, floordiv_41, 7);  add_35 = floordiv_40 = floordiv_41 = None
    permute_70 = reshape_80.permute(0, 2, 4, 3, 5, 1);  reshape_80 = None
    floordiv_42 = getitem_162 // 7;  getitem_162 = None
    floordiv_43 = getitem_163 // 7;  getitem_163 = None
    mul_26 = floordiv_42 * floordiv_43;  floordiv_42 = floordiv_43 = None
    reshape_81 = permute_70.reshape(getitem_160, mul_26, 49, getitem_161);  permute_70 = getitem_160 = mul_26 = getitem_161 = None
    blocks_2_layers_1_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.partition_swap(reshape_81);  reshape_81 = None
    blocks_2_layers_1_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.attn_layer, "0")(blocks_2_layers_1_layers_window_attention_partition_swap)
    getattr_32 = blocks_2_layers_1_layers_window_attention_attn_layer_0.shape
    getitem_164 = getattr_32[0]
    getitem_165 = getattr_32[1]
    getitem_166 = getattr_32[2]
    getitem_167 = getattr_32[3];  getattr_32 = None
    blocks_2_layers_1_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.attn_layer, "1").to_qkv(blocks_2_layers_1_layers_window_attention_attn_layer_0);  blocks_2_layers_1_layers_window_attention_attn_layer_0 = None
    chunk_10 = torch.chunk(blocks_2_layers_1_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_2_layers_1_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_168 = chunk_10[0]
    getitem_169 = chunk_10[1]
    getitem_170 = chunk_10[2];  chunk_10 = None
    reshape_82 = getitem_168.reshape(getitem_164, getitem_165, getitem_166, 8, 32);  getitem_168 = None
    permute_71 = reshape_82.permute(0, 1, 3, 2, 4);  reshape_82 = None
    reshape_83 = getitem_169.reshape(getitem_164, getitem_165, getitem_166, 8, 32);  getitem_169 = None
    permute_72 = reshape_83.permute(0, 1, 3, 2, 4);  reshape_83 = None
    reshape_84 = getitem_170.reshape(getitem_164, getitem_165, getitem_166, 8, 32);  getitem_170 = None
    permute_73 = reshape_84.permute(0, 1, 3, 2, 4);  reshape_84 = None
    mul_27 = permute_72 * 0.0625;  permute_72 = None
    einsum_20 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_71, mul_27);  permute_71 = mul_27 = None
    blocks_2_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant10 = self._tensor_constant10
    getitem_171 = blocks_2_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant10];  blocks_2_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant10 = None
    view_10 = getitem_171.view(49, 49, -1);  getitem_171 = None
    permute_74 = view_10.permute(2, 0, 1);  view_10 = None
    contiguous_10 = permute_74.contiguous();  permute_74 = None
    unsqueeze_10 = contiguous_10.unsqueeze(0);  contiguous_10 = None
    add_36 = einsum_20 + unsqueeze_10;  einsum_20 = unsqueeze_10 = None
    softmax_10 = torch.nn.functional.softmax(add_36, dim = -1, _stacklevel = 3, dtype = None);  add_36 = None
    einsum_21 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_10, permute_73);  softmax_10 = permute_73 = None
    permute_75 = einsum_21.permute(0, 1, 3, 2, 4);  einsum_21 = None
    reshape_85 = permute_75.reshape(getitem_164, getitem_165, getitem_166, getitem_167);  permute_75 = getitem_164 = getitem_165 = getitem_166 = getitem_167 = None
    blocks_2_layers_1_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.attn_layer, "1").merge(reshape_85);  reshape_85 = None
    blocks_2_layers_1_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.attn_layer, "2")(blocks_2_layers_1_layers_window_attention_attn_layer_1_merge);  blocks_2_layers_1_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth_25 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_1_layers_window_attention_attn_layer_2, 0.1, 'row', False);  blocks_2_layers_1_layers_window_attention_attn_layer_2 = None
    add_37 = blocks_2_layers_1_layers_window_attention_partition_swap + stochastic_depth_25;  blocks_2_layers_1_layers_window_attention_partition_swap = stochastic_depth_25 = None
    blocks_2_layers_1_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.mlp_layer, "0")(add_37)
    blocks_2_layers_1_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.mlp_layer, "1")(blocks_2_layers_1_layers_window_attention_mlp_layer_0);  blocks_2_layers_1_layers_window_attention_mlp_layer_0 = None
    blocks_2_layers_1_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.mlp_layer, "2")(blocks_2_layers_1_layers_window_attention_mlp_layer_1);  blocks_2_layers_1_layers_window_attention_mlp_layer_1 = None
    blocks_2_layers_1_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.mlp_layer, "3")(blocks_2_layers_1_layers_window_attention_mlp_layer_2);  blocks_2_layers_1_layers_window_attention_mlp_layer_2 = None
    blocks_2_layers_1_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.mlp_layer, "4")(blocks_2_layers_1_layers_window_attention_mlp_layer_3);  blocks_2_layers_1_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_26 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_1_layers_window_attention_mlp_layer_4, 0.1, 'row', False);  blocks_2_layers_1_layers_window_attention_mlp_layer_4 = None
    add_38 = add_37 + stochastic_depth_26;  add_37 = stochastic_depth_26 = None
    blocks_2_layers_1_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "2").layers, "1").layers.window_attention.departition_swap(add_38);  add_38 = None
    getattr_33 = blocks_2_layers_1_layers_window_attention_departition_swap.shape
    getitem_172 = getattr_33[0]
    getitem_173 = getattr_33[1];  getitem_173 = None
    getitem_174 = getattr_33[2];  getitem_174 = None
    getitem_175 = getattr_33[3];  getattr_33 = None
    reshape_86 = blocks_2_layers_1_layers_window_attention_departition_swap.reshape(getitem_172, 2, 2, 7, 7, getitem_175);  blocks_2_layers_1_layers_window_attention_departition_swap = None
    permute_76 = reshape_86.permute(0, 5, 1, 3, 2, 4);  reshape_86 = None
    reshape_87 = permute_76.reshape(getitem_172, getitem_175, 14, 14);  permute_76 = getitem_172 = getitem_175 = None
    getattr_34 = reshape_87.shape
    getitem_176 = getattr_34[0]
    getitem_177 = getattr_34[1]
    getitem_178 = getattr_34[2]
    getitem_179 = getattr_34[3];  getattr_34 = None
    floordiv_44 = getitem_178 // 2
    floordiv_45 = getitem_179 // 2
    reshape_88 = reshape_87.reshape(getitem_176, getitem_177, floordiv_44, 2, floordiv_45, 2);  reshape_87 = floordiv_44 = floordiv_45 = None
    permute_77 = reshape_88.permute(0, 2, 4, 3, 5, 1);  reshape_88 = None
    floordiv_46 = getitem_178 // 2;  getitem_178 = None
    floordiv_47 = getitem_179 // 2;  getitem_179 = None
    mul_28 = floordiv_46 * floordiv_47;  floordiv_46 = floordiv_47 = None
    reshape_89 = permute_77.reshape(getitem_176, mul_28, 4, getitem_177);  permute_77 = getitem_176 = mul_28 = getitem_177 = None
    swapaxes_10 = torch.swapaxes(reshape_89, -2, -3);  reshape_89 = None
    blocks_2_layers_1_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.grid_attention.attn_layer, "0")(swapaxes_10)
    getattr_35 = blocks_2_layers_1_layers_grid_attention_attn_layer_0.shape
    getitem_180 = getattr_35[0]
    getitem_181 = getattr_35[1]
    getitem_182 = getattr_35[2]
    getitem_183 = getattr_35[3];  getattr_35 = None
    blocks_2_layers_1_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.grid_attention.attn_layer, "1").to_qkv(blocks_2_layers_1_layers_grid_attention_attn_layer_0);  blocks_2_layers_1_layers_grid_attention_attn_layer_0 = None
    chunk_11 = torch.chunk(blocks_2_layers_1_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_2_layers_1_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_184 = chunk_11[0]
    getitem_185 = chunk_11[1]
    getitem_186 = chunk_11[2];  chunk_11 = None
    reshape_90 = getitem_184.reshape(getitem_180, getitem_181, getitem_182, 8, 32);  getitem_184 = None
    permute_78 = reshape_90.permute(0, 1, 3, 2, 4);  reshape_90 = None
    reshape_91 = getitem_185.reshape(getitem_180, getitem_181, getitem_182, 8, 32);  getitem_185 = None
    permute_79 = reshape_91.permute(0, 1, 3, 2, 4);  reshape_91 = None
    reshape_92 = getitem_186.reshape(getitem_180, getitem_181, getitem_182, 8, 32);  getitem_186 = None
    permute_80 = reshape_92.permute(0, 1, 3, 2, 4);  reshape_92 = None
    mul_29 = permute_79 * 0.0625;  permute_79 = None
    einsum_22 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_78, mul_29);  permute_78 = mul_29 = None
    blocks_2_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant11 = self._tensor_constant11
    getitem_187 = blocks_2_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant11];  blocks_2_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant11 = None
    view_11 = getitem_187.view(49, 49, -1);  getitem_187 = None
    permute_81 = view_11.permute(2, 0, 1);  view_11 = None
    contiguous_11 = permute_81.contiguous();  permute_81 = None
    unsqueeze_11 = contiguous_11.unsqueeze(0);  contiguous_11 = None
    add_39 = einsum_22 + unsqueeze_11;  einsum_22 = unsqueeze_11 = None
    softmax_11 = torch.nn.functional.softmax(add_39, dim = -1, _stacklevel = 3, dtype = None);  add_39 = None
    einsum_23 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_11, permute_80);  softmax_11 = permute_80 = None
    permute_82 = einsum_23.permute(0, 1, 3, 2, 4);  einsum_23 = None
    reshape_93 = permute_82.reshape(getitem_180, getitem_181, getitem_182, getitem_183);  permute_82 = getitem_180 = getitem_181 = getitem_182 = getitem_183 = None
    blocks_2_layers_1_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.grid_attention.attn_layer, "1").merge(reshape_93);  reshape_93 = None
    blocks_2_layers_1_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.grid_attention.attn_layer, "2")(blocks_2_layers_1_layers_grid_attention_attn_layer_1_merge);  blocks_2_layers_1_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_27 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_1_layers_grid_attention_attn_layer_2, 0.1, 'row', False);  blocks_2_layers_1_layers_grid_attention_attn_layer_2 = None
    add_40 = swapaxes_10 + stochastic_depth_27;  swapaxes_10 = stochastic_depth_27 = None
    blocks_2_layers_1_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.grid_attention.mlp_layer, "0")(add_40)
    blocks_2_layers_1_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.grid_attention.mlp_layer, "1")(blocks_2_layers_1_layers_grid_attention_mlp_layer_0);  blocks_2_layers_1_layers_grid_attention_mlp_layer_0 = None
    blocks_2_layers_1_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.grid_attention.mlp_layer, "2")(blocks_2_layers_1_layers_grid_attention_mlp_layer_1);  blocks_2_layers_1_layers_grid_attention_mlp_layer_1 = None
    blocks_2_layers_1_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.grid_attention.mlp_layer, "3")(blocks_2_layers_1_layers_grid_attention_mlp_layer_2);  blocks_2_layers_1_layers_grid_attention_mlp_layer_2 = None
    blocks_2_layers_1_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "2").layers, "1").layers.grid_attention.mlp_layer, "4")(blocks_2_layers_1_layers_grid_attention_mlp_layer_3);  blocks_2_layers_1_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_28 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_1_layers_grid_attention_mlp_layer_4, 0.1, 'row', False);  blocks_2_layers_1_layers_grid_attention_mlp_layer_4 = None
    add_41 = add_40 + stochastic_depth_28;  add_40 = stochastic_depth_28 = None
    swapaxes_11 = torch.swapaxes(add_41, -2, -3);  add_41 = None
    getattr_36 = swapaxes_11.shape
    getitem_188 = getattr_36[0]
    getitem_189 = getattr_36[1];  getitem_189 = None
    getitem_190 = getattr_36[2];  getitem_190 = None
    getitem_191 = getattr_36[3];  getattr_36 = None
    reshape_94 = swapaxes_11.reshape(getitem_188, 7, 7, 2, 2, getitem_191);  swapaxes_11 = None
    permute_83 = reshape_94.permute(0, 5, 1, 3, 2, 4);  reshape_94 = None
    reshape_95 = permute_83.reshape(getitem_188, getitem_191, 14, 14);  permute_83 = getitem_188 = getitem_191 = None
    blocks_2_layers_2_layers_mbconv_proj = getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.proj(reshape_95)
    blocks_2_layers_2_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.pre_norm(reshape_95);  reshape_95 = None
    blocks_2_layers_2_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.conv_a, "0")(blocks_2_layers_2_layers_mbconv_layers_pre_norm);  blocks_2_layers_2_layers_mbconv_layers_pre_norm = None
    blocks_2_layers_2_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.conv_a, "1")(blocks_2_layers_2_layers_mbconv_layers_conv_a_0);  blocks_2_layers_2_layers_mbconv_layers_conv_a_0 = None
    blocks_2_layers_2_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.conv_a, "2")(blocks_2_layers_2_layers_mbconv_layers_conv_a_1);  blocks_2_layers_2_layers_mbconv_layers_conv_a_1 = None
    blocks_2_layers_2_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.conv_b, "0")(blocks_2_layers_2_layers_mbconv_layers_conv_a_2);  blocks_2_layers_2_layers_mbconv_layers_conv_a_2 = None
    blocks_2_layers_2_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.conv_b, "1")(blocks_2_layers_2_layers_mbconv_layers_conv_b_0);  blocks_2_layers_2_layers_mbconv_layers_conv_b_0 = None
    blocks_2_layers_2_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.conv_b, "2")(blocks_2_layers_2_layers_mbconv_layers_conv_b_1);  blocks_2_layers_2_layers_mbconv_layers_conv_b_1 = None
    blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_2_layers_2_layers_mbconv_layers_conv_b_2)
    blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.squeeze_excitation.fc1(blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.squeeze_excitation.activation(blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.squeeze_excitation.fc2(blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_activation);  blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul_30 = blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_2_layers_2_layers_mbconv_layers_conv_b_2;  blocks_2_layers_2_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_2_layers_2_layers_mbconv_layers_conv_b_2 = None
    blocks_2_layers_2_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "2").layers, "2").layers.MBconv.layers.conv_c(mul_30);  mul_30 = None
    stochastic_depth_29 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_2_layers_mbconv_layers_conv_c, 0.12, 'row', False);  blocks_2_layers_2_layers_mbconv_layers_conv_c = None
    add_42 = blocks_2_layers_2_layers_mbconv_proj + stochastic_depth_29;  blocks_2_layers_2_layers_mbconv_proj = stochastic_depth_29 = None
    getattr_37 = add_42.shape
    getitem_192 = getattr_37[0]
    getitem_193 = getattr_37[1]
    getitem_194 = getattr_37[2]
    getitem_195 = getattr_37[3];  getattr_37 = None
    floordiv_48 = getitem_194 // 7
    floordiv_49 = getitem_195 // 7
    reshape_96 = add_42.reshape(getitem_192, getitem_193, floordiv_48, 7, floordiv_49, 7);  add_42 = floordiv_48 = floordiv_49 = None
    permute_84 = reshape_96.permute(0, 2, 4, 3, 5, 1);  reshape_96 = None
    floordiv_50 = getitem_194 // 7;  getitem_194 = None
    floordiv_51 = getitem_195 // 7;  getitem_195 = None
    mul_31 = floordiv_50 * floordiv_51;  floordiv_50 = floordiv_51 = None
    reshape_97 = permute_84.reshape(getitem_192, mul_31, 49, getitem_193);  permute_84 = getitem_192 = mul_31 = getitem_193 = None
    blocks_2_layers_2_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.partition_swap(reshape_97);  reshape_97 = None
    blocks_2_layers_2_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.attn_layer, "0")(blocks_2_layers_2_layers_window_attention_partition_swap)
    getattr_38 = blocks_2_layers_2_layers_window_attention_attn_layer_0.shape
    getitem_196 = getattr_38[0]
    getitem_197 = getattr_38[1]
    getitem_198 = getattr_38[2]
    getitem_199 = getattr_38[3];  getattr_38 = None
    blocks_2_layers_2_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.attn_layer, "1").to_qkv(blocks_2_layers_2_layers_window_attention_attn_layer_0);  blocks_2_layers_2_layers_window_attention_attn_layer_0 = None
    chunk_12 = torch.chunk(blocks_2_layers_2_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_2_layers_2_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_200 = chunk_12[0]
    getitem_201 = chunk_12[1]
    getitem_202 = chunk_12[2];  chunk_12 = None
    reshape_98 = getitem_200.reshape(getitem_196, getitem_197, getitem_198, 8, 32);  getitem_200 = None
    permute_85 = reshape_98.permute(0, 1, 3, 2, 4);  reshape_98 = None
    reshape_99 = getitem_201.reshape(getitem_196, getitem_197, getitem_198, 8, 32);  getitem_201 = None
    permute_86 = reshape_99.permute(0, 1, 3, 2, 4);  reshape_99 = None
    reshape_100 = getitem_202.reshape(getitem_196, getitem_197, getitem_198, 8, 32);  getitem_202 = None
    permute_87 = reshape_100.permute(0, 1, 3, 2, 4);  reshape_100 = None
    mul_32 = permute_86 * 0.0625;  permute_86 = None
    einsum_24 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_85, mul_32);  permute_85 = mul_32 = None
    blocks_2_layers_2_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant12 = self._tensor_constant12
    getitem_203 = blocks_2_layers_2_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant12];  blocks_2_layers_2_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant12 = None
    view_12 = getitem_203.view(49, 49, -1);  getitem_203 = None
    permute_88 = view_12.permute(2, 0, 1);  view_12 = None
    contiguous_12 = permute_88.contiguous();  permute_88 = None
    unsqueeze_12 = contiguous_12.unsqueeze(0);  contiguous_12 = None
    add_43 = einsum_24 + unsqueeze_12;  einsum_24 = unsqueeze_12 = None
    softmax_12 = torch.nn.functional.softmax(add_43, dim = -1, _stacklevel = 3, dtype = None);  add_43 = None
    einsum_25 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_12, permute_87);  softmax_12 = permute_87 = None
    permute_89 = einsum_25.permute(0, 1, 3, 2, 4);  einsum_25 = None
    reshape_101 = permute_89.reshape(getitem_196, getitem_197, getitem_198, getitem_199);  permute_89 = getitem_196 = getitem_197 = getitem_198 = getitem_199 = None
    blocks_2_layers_2_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.attn_layer, "1").merge(reshape_101);  reshape_101 = None
    blocks_2_layers_2_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.attn_layer, "2")(blocks_2_layers_2_layers_window_attention_attn_layer_1_merge);  blocks_2_layers_2_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth_30 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_2_layers_window_attention_attn_layer_2, 0.12, 'row', False);  blocks_2_layers_2_layers_window_attention_attn_layer_2 = None
    add_44 = blocks_2_layers_2_layers_window_attention_partition_swap + stochastic_depth_30;  blocks_2_layers_2_layers_window_attention_partition_swap = stochastic_depth_30 = None
    blocks_2_layers_2_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.mlp_layer, "0")(add_44)
    blocks_2_layers_2_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.mlp_layer, "1")(blocks_2_layers_2_layers_window_attention_mlp_layer_0);  blocks_2_layers_2_layers_window_attention_mlp_layer_0 = None
    blocks_2_layers_2_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.mlp_layer, "2")(blocks_2_layers_2_layers_window_attention_mlp_layer_1);  blocks_2_layers_2_layers_window_attention_mlp_layer_1 = None
    blocks_2_layers_2_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.mlp_layer, "3")(blocks_2_layers_2_layers_window_attention_mlp_layer_2);  blocks_2_layers_2_layers_window_attention_mlp_layer_2 = None
    blocks_2_layers_2_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.mlp_layer, "4")(blocks_2_layers_2_layers_window_attention_mlp_layer_3);  blocks_2_layers_2_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_31 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_2_layers_window_attention_mlp_layer_4, 0.12, 'row', False);  blocks_2_layers_2_layers_window_attention_mlp_layer_4 = None
    add_45 = add_44 + stochastic_depth_31;  add_44 = stochastic_depth_31 = None
    blocks_2_layers_2_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "2").layers, "2").layers.window_attention.departition_swap(add_45);  add_45 = None
    getattr_39 = blocks_2_layers_2_layers_window_attention_departition_swap.shape
    getitem_204 = getattr_39[0]
    getitem_205 = getattr_39[1];  getitem_205 = None
    getitem_206 = getattr_39[2];  getitem_206 = None
    getitem_207 = getattr_39[3];  getattr_39 = None
    reshape_102 = blocks_2_layers_2_layers_window_attention_departition_swap.reshape(getitem_204, 2, 2, 7, 7, getitem_207);  blocks_2_layers_2_layers_window_attention_departition_swap = None
    permute_90 = reshape_102.permute(0, 5, 1, 3, 2, 4);  reshape_102 = None
    reshape_103 = permute_90.reshape(getitem_204, getitem_207, 14, 14);  permute_90 = getitem_204 = getitem_207 = None
    getattr_40 = reshape_103.shape
    getitem_208 = getattr_40[0]
    getitem_209 = getattr_40[1]
    getitem_210 = getattr_40[2]
    getitem_211 = getattr_40[3];  getattr_40 = None
    floordiv_52 = getitem_210 // 2
    floordiv_53 = getitem_211 // 2
    reshape_104 = reshape_103.reshape(getitem_208, getitem_209, floordiv_52, 2, floordiv_53, 2);  reshape_103 = floordiv_52 = floordiv_53 = None
    permute_91 = reshape_104.permute(0, 2, 4, 3, 5, 1);  reshape_104 = None
    floordiv_54 = getitem_210 // 2;  getitem_210 = None
    floordiv_55 = getitem_211 // 2;  getitem_211 = None
    mul_33 = floordiv_54 * floordiv_55;  floordiv_54 = floordiv_55 = None
    reshape_105 = permute_91.reshape(getitem_208, mul_33, 4, getitem_209);  permute_91 = getitem_208 = mul_33 = getitem_209 = None
    swapaxes_12 = torch.swapaxes(reshape_105, -2, -3);  reshape_105 = None
    blocks_2_layers_2_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.grid_attention.attn_layer, "0")(swapaxes_12)
    getattr_41 = blocks_2_layers_2_layers_grid_attention_attn_layer_0.shape
    getitem_212 = getattr_41[0]
    getitem_213 = getattr_41[1]
    getitem_214 = getattr_41[2]
    getitem_215 = getattr_41[3];  getattr_41 = None
    blocks_2_layers_2_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.grid_attention.attn_layer, "1").to_qkv(blocks_2_layers_2_layers_grid_attention_attn_layer_0);  blocks_2_layers_2_layers_grid_attention_attn_layer_0 = None
    chunk_13 = torch.chunk(blocks_2_layers_2_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_2_layers_2_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_216 = chunk_13[0]
    getitem_217 = chunk_13[1]
    getitem_218 = chunk_13[2];  chunk_13 = None
    reshape_106 = getitem_216.reshape(getitem_212, getitem_213, getitem_214, 8, 32);  getitem_216 = None
    permute_92 = reshape_106.permute(0, 1, 3, 2, 4);  reshape_106 = None
    reshape_107 = getitem_217.reshape(getitem_212, getitem_213, getitem_214, 8, 32);  getitem_217 = None
    permute_93 = reshape_107.permute(0, 1, 3, 2, 4);  reshape_107 = None
    reshape_108 = getitem_218.reshape(getitem_212, getitem_213, getitem_214, 8, 32);  getitem_218 = None
    permute_94 = reshape_108.permute(0, 1, 3, 2, 4);  reshape_108 = None
    mul_34 = permute_93 * 0.0625;  permute_93 = None
    einsum_26 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_92, mul_34);  permute_92 = mul_34 = None
    blocks_2_layers_2_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant13 = self._tensor_constant13
    getitem_219 = blocks_2_layers_2_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant13];  blocks_2_layers_2_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant13 = None
    view_13 = getitem_219.view(49, 49, -1);  getitem_219 = None
    permute_95 = view_13.permute(2, 0, 1);  view_13 = None
    contiguous_13 = permute_95.contiguous();  permute_95 = None
    unsqueeze_13 = contiguous_13.unsqueeze(0);  contiguous_13 = None
    add_46 = einsum_26 + unsqueeze_13;  einsum_26 = unsqueeze_13 = None
    softmax_13 = torch.nn.functional.softmax(add_46, dim = -1, _stacklevel = 3, dtype = None);  add_46 = None
    einsum_27 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_13, permute_94);  softmax_13 = permute_94 = None
    permute_96 = einsum_27.permute(0, 1, 3, 2, 4);  einsum_27 = None
    reshape_109 = permute_96.reshape(getitem_212, getitem_213, getitem_214, getitem_215);  permute_96 = getitem_212 = getitem_213 = getitem_214 = getitem_215 = None
    blocks_2_layers_2_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.grid_attention.attn_layer, "1").merge(reshape_109);  reshape_109 = None
    blocks_2_layers_2_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.grid_attention.attn_layer, "2")(blocks_2_layers_2_layers_grid_attention_attn_layer_1_merge);  blocks_2_layers_2_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_32 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_2_layers_grid_attention_attn_layer_2, 0.12, 'row', False);  blocks_2_layers_2_layers_grid_attention_attn_layer_2 = None
    add_47 = swapaxes_12 + stochastic_depth_32;  swapaxes_12 = stochastic_depth_32 = None
    blocks_2_layers_2_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.grid_attention.mlp_layer, "0")(add_47)
    blocks_2_layers_2_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.grid_attention.mlp_layer, "1")(blocks_2_layers_2_layers_grid_attention_mlp_layer_0);  blocks_2_layers_2_layers_grid_attention_mlp_layer_0 = None
    blocks_2_layers_2_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.grid_attention.mlp_layer, "2")(blocks_2_layers_2_layers_grid_attention_mlp_layer_1);  blocks_2_layers_2_layers_grid_attention_mlp_layer_1 = None
    blocks_2_layers_2_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.grid_attention.mlp_layer, "3")(blocks_2_layers_2_layers_grid_attention_mlp_layer_2);  blocks_2_layers_2_layers_grid_attention_mlp_layer_2 = None
    blocks_2_layers_2_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "2").layers, "2").layers.grid_attention.mlp_layer, "4")(blocks_2_layers_2_layers_grid_attention_mlp_layer_3);  blocks_2_layers_2_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_33 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_2_layers_grid_attention_mlp_layer_4, 0.12, 'row', False);  blocks_2_layers_2_layers_grid_attention_mlp_layer_4 = None
    add_48 = add_47 + stochastic_depth_33;  add_47 = stochastic_depth_33 = None
    swapaxes_13 = torch.swapaxes(add_48, -2, -3);  add_48 = None
    getattr_42 = swapaxes_13.shape
    getitem_220 = getattr_42[0]
    getitem_221 = getattr_42[1];  getitem_221 = None
    getitem_222 = getattr_42[2];  getitem_222 = None
    getitem_223 = getattr_42[3];  getattr_42 = None
    reshape_110 = swapaxes_13.reshape(getitem_220, 7, 7, 2, 2, getitem_223);  swapaxes_13 = None
    permute_97 = reshape_110.permute(0, 5, 1, 3, 2, 4);  reshape_110 = None
    reshape_111 = permute_97.reshape(getitem_220, getitem_223, 14, 14);  permute_97 = getitem_220 = getitem_223 = None
    blocks_2_layers_3_layers_mbconv_proj = getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.proj(reshape_111)
    blocks_2_layers_3_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.pre_norm(reshape_111);  reshape_111 = None
    blocks_2_layers_3_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.conv_a, "0")(blocks_2_layers_3_layers_mbconv_layers_pre_norm);  blocks_2_layers_3_layers_mbconv_layers_pre_norm = None
    blocks_2_layers_3_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.conv_a, "1")(blocks_2_layers_3_layers_mbconv_layers_conv_a_0);  blocks_2_layers_3_layers_mbconv_layers_conv_a_0 = None
    blocks_2_layers_3_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.conv_a, "2")(blocks_2_layers_3_layers_mbconv_layers_conv_a_1);  blocks_2_layers_3_layers_mbconv_layers_conv_a_1 = None
    blocks_2_layers_3_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.conv_b, "0")(blocks_2_layers_3_layers_mbconv_layers_conv_a_2);  blocks_2_layers_3_layers_mbconv_layers_conv_a_2 = None
    blocks_2_layers_3_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.conv_b, "1")(blocks_2_layers_3_layers_mbconv_layers_conv_b_0);  blocks_2_layers_3_layers_mbconv_layers_conv_b_0 = None
    blocks_2_layers_3_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.conv_b, "2")(blocks_2_layers_3_layers_mbconv_layers_conv_b_1);  blocks_2_layers_3_layers_mbconv_layers_conv_b_1 = None
    blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_2_layers_3_layers_mbconv_layers_conv_b_2)
    blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.squeeze_excitation.fc1(blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.squeeze_excitation.activation(blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.squeeze_excitation.fc2(blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_activation);  blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul_35 = blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_2_layers_3_layers_mbconv_layers_conv_b_2;  blocks_2_layers_3_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_2_layers_3_layers_mbconv_layers_conv_b_2 = None
    blocks_2_layers_3_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "2").layers, "3").layers.MBconv.layers.conv_c(mul_35);  mul_35 = None
    stochastic_depth_34 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_3_layers_mbconv_layers_conv_c, 0.14, 'row', False);  blocks_2_layers_3_layers_mbconv_layers_conv_c = None
    add_49 = blocks_2_layers_3_layers_mbconv_proj + stochastic_depth_34;  blocks_2_layers_3_layers_mbconv_proj = stochastic_depth_34 = None
    getattr_43 = add_49.shape
    getitem_224 = getattr_43[0]
    getitem_225 = getattr_43[1]
    getitem_226 = getattr_43[2]
    getitem_227 = getattr_43[3];  getattr_43 = None
    floordiv_56 = getitem_226 // 7
    floordiv_57 = getitem_227 // 7
    reshape_112 = add_49.reshape(getitem_224, getitem_225, floordiv_56, 7, floordiv_57, 7);  add_49 = floordiv_56 = floordiv_57 = None
    permute_98 = reshape_112.permute(0, 2, 4, 3, 5, 1);  reshape_112 = None
    floordiv_58 = getitem_226 // 7;  getitem_226 = None
    floordiv_59 = getitem_227 // 7;  getitem_227 = None
    mul_36 = floordiv_58 * floordiv_59;  floordiv_58 = floordiv_59 = None
    reshape_113 = permute_98.reshape(getitem_224, mul_36, 49, getitem_225);  permute_98 = getitem_224 = mul_36 = getitem_225 = None
    blocks_2_layers_3_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.partition_swap(reshape_113);  reshape_113 = None
    blocks_2_layers_3_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.attn_layer, "0")(blocks_2_layers_3_layers_window_attention_partition_swap)
    getattr_44 = blocks_2_layers_3_layers_window_attention_attn_layer_0.shape
    getitem_228 = getattr_44[0]
    getitem_229 = getattr_44[1]
    getitem_230 = getattr_44[2]
    getitem_231 = getattr_44[3];  getattr_44 = None
    blocks_2_layers_3_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.attn_layer, "1").to_qkv(blocks_2_layers_3_layers_window_attention_attn_layer_0);  blocks_2_layers_3_layers_window_attention_attn_layer_0 = None
    chunk_14 = torch.chunk(blocks_2_layers_3_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_2_layers_3_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_232 = chunk_14[0]
    getitem_233 = chunk_14[1]
    getitem_234 = chunk_14[2];  chunk_14 = None
    reshape_114 = getitem_232.reshape(getitem_228, getitem_229, getitem_230, 8, 32);  getitem_232 = None
    permute_99 = reshape_114.permute(0, 1, 3, 2, 4);  reshape_114 = None
    reshape_115 = getitem_233.reshape(getitem_228, getitem_229, getitem_230, 8, 32);  getitem_233 = None
    permute_100 = reshape_115.permute(0, 1, 3, 2, 4);  reshape_115 = None
    reshape_116 = getitem_234.reshape(getitem_228, getitem_229, getitem_230, 8, 32);  getitem_234 = None
    permute_101 = reshape_116.permute(0, 1, 3, 2, 4);  reshape_116 = None
    mul_37 = permute_100 * 0.0625;  permute_100 = None
    einsum_28 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_99, mul_37);  permute_99 = mul_37 = None
    blocks_2_layers_3_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant14 = self._tensor_constant14
    getitem_235 = blocks_2_layers_3_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant14];  blocks_2_layers_3_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant14 = None
    view_14 = getitem_235.view(49, 49, -1);  getitem_235 = None
    permute_102 = view_14.permute(2, 0, 1);  view_14 = None
    contiguous_14 = permute_102.contiguous();  permute_102 = None
    unsqueeze_14 = contiguous_14.unsqueeze(0);  contiguous_14 = None
    add_50 = einsum_28 + unsqueeze_14;  einsum_28 = unsqueeze_14 = None
    softmax_14 = torch.nn.functional.softmax(add_50, dim = -1, _stacklevel = 3, dtype = None);  add_50 = None
    einsum_29 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_14, permute_101);  softmax_14 = permute_101 = None
    permute_103 = einsum_29.permute(0, 1, 3, 2, 4);  einsum_29 = None
    reshape_117 = permute_103.reshape(getitem_228, getitem_229, getitem_230, getitem_231);  permute_103 = getitem_228 = getitem_229 = getitem_230 = getitem_231 = None
    blocks_2_layers_3_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.attn_layer, "1").merge(reshape_117);  reshape_117 = None
    blocks_2_layers_3_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.attn_layer, "2")(blocks_2_layers_3_layers_window_attention_attn_layer_1_merge);  blocks_2_layers_3_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth_35 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_3_layers_window_attention_attn_layer_2, 0.14, 'row', False);  blocks_2_layers_3_layers_window_attention_attn_layer_2 = None
    add_51 = blocks_2_layers_3_layers_window_attention_partition_swap + stochastic_depth_35;  blocks_2_layers_3_layers_window_attention_partition_swap = stochastic_depth_35 = None
    blocks_2_layers_3_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.mlp_layer, "0")(add_51)
    blocks_2_layers_3_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.mlp_layer, "1")(blocks_2_layers_3_layers_window_attention_mlp_layer_0);  blocks_2_layers_3_layers_window_attention_mlp_layer_0 = None
    blocks_2_layers_3_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.mlp_layer, "2")(blocks_2_layers_3_layers_window_attention_mlp_layer_1);  blocks_2_layers_3_layers_window_attention_mlp_layer_1 = None
    blocks_2_layers_3_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.mlp_layer, "3")(blocks_2_layers_3_layers_window_attention_mlp_layer_2);  blocks_2_layers_3_layers_window_attention_mlp_layer_2 = None
    blocks_2_layers_3_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.mlp_layer, "4")(blocks_2_layers_3_layers_window_attention_mlp_layer_3);  blocks_2_layers_3_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_36 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_3_layers_window_attention_mlp_layer_4, 0.14, 'row', False);  blocks_2_layers_3_layers_window_attention_mlp_layer_4 = None
    add_52 = add_51 + stochastic_depth_36;  add_51 = stochastic_depth_36 = None
    blocks_2_layers_3_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "2").layers, "3").layers.window_attention.departition_swap(add_52);  add_52 = None
    getattr_45 = blocks_2_layers_3_layers_window_attention_departition_swap.shape
    getitem_236 = getattr_45[0]
    getitem_237 = getattr_45[1];  getitem_237 = None
    getitem_238 = getattr_45[2];  getitem_238 = None
    getitem_239 = getattr_45[3];  getattr_45 = None
    reshape_118 = blocks_2_layers_3_layers_window_attention_departition_swap.reshape(getitem_236, 2, 2, 7, 7, getitem_239);  blocks_2_layers_3_layers_window_attention_departition_swap = None
    permute_104 = reshape_118.permute(0, 5, 1, 3, 2, 4);  reshape_118 = None
    reshape_119 = permute_104.reshape(getitem_236, getitem_239, 14, 14);  permute_104 = getitem_236 = getitem_239 = None
    getattr_46 = reshape_119.shape
    getitem_240 = getattr_46[0]
    getitem_241 = getattr_46[1]
    getitem_242 = getattr_46[2]
    getitem_243 = getattr_46[3];  getattr_46 = None
    floordiv_60 = getitem_242 // 2
    floordiv_61 = getitem_243 // 2
    reshape_120 = reshape_119.reshape(getitem_240, getitem_241, floordiv_60, 2, floordiv_61, 2);  reshape_119 = floordiv_60 = floordiv_61 = None
    permute_105 = reshape_120.permute(0, 2, 4, 3, 5, 1);  reshape_120 = None
    floordiv_62 = getitem_242 // 2;  getitem_242 = None
    floordiv_63 = getitem_243 // 2;  getitem_243 = None
    mul_38 = floordiv_62 * floordiv_63;  floordiv_62 = floordiv_63 = None
    reshape_121 = permute_105.reshape(getitem_240, mul_38, 4, getitem_241);  permute_105 = getitem_240 = mul_38 = getitem_241 = None
    swapaxes_14 = torch.swapaxes(reshape_121, -2, -3);  reshape_121 = None
    blocks_2_layers_3_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.grid_attention.attn_layer, "0")(swapaxes_14)
    getattr_47 = blocks_2_layers_3_layers_grid_attention_attn_layer_0.shape
    getitem_244 = getattr_47[0]
    getitem_245 = getattr_47[1]
    getitem_246 = getattr_47[2]
    getitem_247 = getattr_47[3];  getattr_47 = None
    blocks_2_layers_3_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.grid_attention.attn_layer, "1").to_qkv(blocks_2_layers_3_layers_grid_attention_attn_layer_0);  blocks_2_layers_3_layers_grid_attention_attn_layer_0 = None
    chunk_15 = torch.chunk(blocks_2_layers_3_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_2_layers_3_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_248 = chunk_15[0]
    getitem_249 = chunk_15[1]
    getitem_250 = chunk_15[2];  chunk_15 = None
    reshape_122 = getitem_248.reshape(getitem_244, getitem_245, getitem_246, 8, 32);  getitem_248 = None
    permute_106 = reshape_122.permute(0, 1, 3, 2, 4);  reshape_122 = None
    reshape_123 = getitem_249.reshape(getitem_244, getitem_245, getitem_246, 8, 32);  getitem_249 = None
    permute_107 = reshape_123.permute(0, 1, 3, 2, 4);  reshape_123 = None
    reshape_124 = getitem_250.reshape(getitem_244, getitem_245, getitem_246, 8, 32);  getitem_250 = None
    permute_108 = reshape_124.permute(0, 1, 3, 2, 4);  reshape_124 = None
    mul_39 = permute_107 * 0.0625;  permute_107 = None
    einsum_30 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_106, mul_39);  permute_106 = mul_39 = None
    blocks_2_layers_3_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant15 = self._tensor_constant15
    getitem_251 = blocks_2_layers_3_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant15];  blocks_2_layers_3_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant15 = None
    view_15 = getitem_251.view(49, 49, -1);  getitem_251 = None
    permute_109 = view_15.permute(2, 0, 1);  view_15 = None
    contiguous_15 = permute_109.contiguous();  permute_109 = None
    unsqueeze_15 = contiguous_15.unsqueeze(0);  contiguous_15 = None
    add_53 = einsum_30 + unsqueeze_15;  einsum_30 = unsqueeze_15 = None
    softmax_15 = torch.nn.functional.softmax(add_53, dim = -1, _stacklevel = 3, dtype = None);  add_53 = None
    einsum_31 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_15, permute_108);  softmax_15 = permute_108 = None
    permute_110 = einsum_31.permute(0, 1, 3, 2, 4);  einsum_31 = None
    reshape_125 = permute_110.reshape(getitem_244, getitem_245, getitem_246, getitem_247);  permute_110 = getitem_244 = getitem_245 = getitem_246 = getitem_247 = None
    blocks_2_layers_3_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.grid_attention.attn_layer, "1").merge(reshape_125);  reshape_125 = None
    blocks_2_layers_3_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.grid_attention.attn_layer, "2")(blocks_2_layers_3_layers_grid_attention_attn_layer_1_merge);  blocks_2_layers_3_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_37 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_3_layers_grid_attention_attn_layer_2, 0.14, 'row', False);  blocks_2_layers_3_layers_grid_attention_attn_layer_2 = None
    add_54 = swapaxes_14 + stochastic_depth_37;  swapaxes_14 = stochastic_depth_37 = None
    blocks_2_layers_3_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.grid_attention.mlp_layer, "0")(add_54)
    blocks_2_layers_3_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.grid_attention.mlp_layer, "1")(blocks_2_layers_3_layers_grid_attention_mlp_layer_0);  blocks_2_layers_3_layers_grid_attention_mlp_layer_0 = None
    blocks_2_layers_3_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.grid_attention.mlp_layer, "2")(blocks_2_layers_3_layers_grid_attention_mlp_layer_1);  blocks_2_layers_3_layers_grid_attention_mlp_layer_1 = None
    blocks_2_layers_3_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.grid_attention.mlp_layer, "3")(blocks_2_layers_3_layers_grid_attention_mlp_layer_2);  blocks_2_layers_3_layers_grid_attention_mlp_layer_2 = None
    blocks_2_layers_3_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "2").layers, "3").layers.grid_attention.mlp_layer, "4")(blocks_2_layers_3_layers_grid_attention_mlp_layer_3);  blocks_2_layers_3_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_38 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_3_layers_grid_attention_mlp_layer_4, 0.14, 'row', False);  blocks_2_layers_3_layers_grid_attention_mlp_layer_4 = None
    add_55 = add_54 + stochastic_depth_38;  add_54 = stochastic_depth_38 = None
    swapaxes_15 = torch.swapaxes(add_55, -2, -3);  add_55 = None
    getattr_48 = swapaxes_15.shape
    getitem_252 = getattr_48[0]
    getitem_253 = getattr_48[1];  getitem_253 = None
    getitem_254 = getattr_48[2];  getitem_254 = None
    getitem_255 = getattr_48[3];  getattr_48 = None
    reshape_126 = swapaxes_15.reshape(getitem_252, 7, 7, 2, 2, getitem_255);  swapaxes_15 = None
    permute_111 = reshape_126.permute(0, 5, 1, 3, 2, 4);  reshape_126 = None
    reshape_127 = permute_111.reshape(getitem_252, getitem_255, 14, 14);  permute_111 = getitem_252 = getitem_255 = None
    blocks_2_layers_4_layers_mbconv_proj = getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.proj(reshape_127)
    blocks_2_layers_4_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.pre_norm(reshape_127);  reshape_127 = None
    blocks_2_layers_4_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.conv_a, "0")(blocks_2_layers_4_layers_mbconv_layers_pre_norm);  blocks_2_layers_4_layers_mbconv_layers_pre_norm = None
    blocks_2_layers_4_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.conv_a, "1")(blocks_2_layers_4_layers_mbconv_layers_conv_a_0);  blocks_2_layers_4_layers_mbconv_layers_conv_a_0 = None
    blocks_2_layers_4_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.conv_a, "2")(blocks_2_layers_4_layers_mbconv_layers_conv_a_1);  blocks_2_layers_4_layers_mbconv_layers_conv_a_1 = None
    blocks_2_layers_4_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.conv_b, "0")(blocks_2_layers_4_layers_mbconv_layers_conv_a_2);  blocks_2_layers_4_layers_mbconv_layers_conv_a_2 = None
    blocks_2_layers_4_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.conv_b, "1")(blocks_2_layers_4_layers_mbconv_layers_conv_b_0);  blocks_2_layers_4_layers_mbconv_layers_conv_b_0 = None
    blocks_2_layers_4_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.conv_b, "2")(blocks_2_layers_4_layers_mbconv_layers_conv_b_1);  blocks_2_layers_4_layers_mbconv_layers_conv_b_1 = None
    blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_2_layers_4_layers_mbconv_layers_conv_b_2)
    blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.squeeze_excitation.fc1(blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.squeeze_excitation.activation(blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.squeeze_excitation.fc2(blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_activation);  blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul_40 = blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_2_layers_4_layers_mbconv_layers_conv_b_2;  blocks_2_layers_4_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_2_layers_4_layers_mbconv_layers_conv_b_2 = None
    blocks_2_layers_4_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "2").layers, "4").layers.MBconv.layers.conv_c(mul_40);  mul_40 = None
    stochastic_depth_39 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_4_layers_mbconv_layers_conv_c, 0.16, 'row', False);  blocks_2_layers_4_layers_mbconv_layers_conv_c = None
    add_56 = blocks_2_layers_4_layers_mbconv_proj + stochastic_depth_39;  blocks_2_layers_4_layers_mbconv_proj = stochastic_depth_39 = None
    getattr_49 = add_56.shape
    getitem_256 = getattr_49[0]
    getitem_257 = getattr_49[1]
    getitem_258 = getattr_49[2]
    getitem_259 = getattr_49[3];  getattr_49 = None
    floordiv_64 = getitem_258 // 7
    floordiv_65 = getitem_259 // 7
    reshape_128 = add_56.reshape(getitem_256, getitem_257, floordiv_64, 7, floordiv_65, 7);  add_56 = floordiv_64 = floordiv_65 = None
    permute_112 = reshape_128.permute(0, 2, 4, 3, 5, 1);  reshape_128 = None
    floordiv_66 = getitem_258 // 7;  getitem_258 = None
    floordiv_67 = getitem_259 // 7;  getitem_259 = None
    mul_41 = floordiv_66 * floordiv_67;  floordiv_66 = floordiv_67 = None
    reshape_129 = permute_112.reshape(getitem_256, mul_41, 49, getitem_257);  permute_112 = getitem_256 = mul_41 = getitem_257 = None
    blocks_2_layers_4_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.partition_swap(reshape_129);  reshape_129 = None
    blocks_2_layers_4_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.attn_layer, "0")(blocks_2_layers_4_layers_window_attention_partition_swap)
    getattr_50 = blocks_2_layers_4_layers_window_attention_attn_layer_0.shape
    getitem_260 = getattr_50[0]
    getitem_261 = getattr_50[1]
    getitem_262 = getattr_50[2]
    getitem_263 = getattr_50[3];  getattr_50 = None
    blocks_2_layers_4_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.attn_layer, "1").to_qkv(blocks_2_layers_4_layers_window_attention_attn_layer_0);  blocks_2_layers_4_layers_window_attention_attn_layer_0 = None
    chunk_16 = torch.chunk(blocks_2_layers_4_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_2_layers_4_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_264 = chunk_16[0]
    getitem_265 = chunk_16[1]
    getitem_266 = chunk_16[2];  chunk_16 = None
    reshape_130 = getitem_264.reshape(getitem_260, getitem_261, getitem_262, 8, 32);  getitem_264 = None
    permute_113 = reshape_130.permute(0, 1, 3, 2, 4);  reshape_130 = None
    reshape_131 = getitem_265.reshape(getitem_260, getitem_261, getitem_262, 8, 32);  getitem_265 = None
    permute_114 = reshape_131.permute(0, 1, 3, 2, 4);  reshape_131 = None
    reshape_132 = getitem_266.reshape(getitem_260, getitem_261, getitem_262, 8, 32);  getitem_266 = None
    permute_115 = reshape_132.permute(0, 1, 3, 2, 4);  reshape_132 = None
    mul_42 = permute_114 * 0.0625;  permute_114 = None
    einsum_32 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_113, mul_42);  permute_113 = mul_42 = None
    blocks_2_layers_4_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant16 = self._tensor_constant16
    getitem_267 = blocks_2_layers_4_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant16];  blocks_2_layers_4_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant16 = None
    view_16 = getitem_267.view(49, 49, -1);  getitem_267 = None
    permute_116 = view_16.permute(2, 0, 1);  view_16 = None
    contiguous_16 = permute_116.contiguous();  permute_116 = None
    unsqueeze_16 = contiguous_16.unsqueeze(0);  contiguous_16 = None
    add_57 = einsum_32 + unsqueeze_16;  einsum_32 = unsqueeze_16 = None
    softmax_16 = torch.nn.functional.softmax(add_57, dim = -1, _stacklevel = 3, dtype = None);  add_57 = None
    einsum_33 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_16, permute_115);  softmax_16 = permute_115 = None
    permute_117 = einsum_33.permute(0, 1, 3, 2, 4);  einsum_33 = None
    reshape_133 = permute_117.reshape(getitem_260, getitem_261, getitem_262, getitem_263);  permute_117 = getitem_260 = getitem_261 = getitem_262 = getitem_263 = None
    blocks_2_layers_4_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.attn_layer, "1").merge(reshape_133);  reshape_133 = None
    blocks_2_layers_4_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.attn_layer, "2")(blocks_2_layers_4_layers_window_attention_attn_layer_1_merge);  blocks_2_layers_4_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth_40 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_4_layers_window_attention_attn_layer_2, 0.16, 'row', False);  blocks_2_layers_4_layers_window_attention_attn_layer_2 = None
    add_58 = blocks_2_layers_4_layers_window_attention_partition_swap + stochastic_depth_40;  blocks_2_layers_4_layers_window_attention_partition_swap = stochastic_depth_40 = None
    blocks_2_layers_4_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.mlp_layer, "0")(add_58)
    blocks_2_layers_4_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.mlp_layer, "1")(blocks_2_layers_4_layers_window_attention_mlp_layer_0);  blocks_2_layers_4_layers_window_attention_mlp_layer_0 = None
    blocks_2_layers_4_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.mlp_layer, "2")(blocks_2_layers_4_layers_window_attention_mlp_layer_1);  blocks_2_layers_4_layers_window_attention_mlp_layer_1 = None
    blocks_2_layers_4_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.mlp_layer, "3")(blocks_2_layers_4_layers_window_attention_mlp_layer_2);  blocks_2_layers_4_layers_window_attention_mlp_layer_2 = None
    blocks_2_layers_4_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.mlp_layer, "4")(blocks_2_layers_4_layers_window_attention_mlp_layer_3);  blocks_2_layers_4_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_41 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_4_layers_window_attention_mlp_layer_4, 0.16, 'row', False);  blocks_2_layers_4_layers_window_attention_mlp_layer_4 = None
    add_59 = add_58 + stochastic_depth_41;  add_58 = stochastic_depth_41 = None
    blocks_2_layers_4_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "2").layers, "4").layers.window_attention.departition_swap(add_59);  add_59 = None
    getattr_51 = blocks_2_layers_4_layers_window_attention_departition_swap.shape
    getitem_268 = getattr_51[0]
    getitem_269 = getattr_51[1];  getitem_269 = None
    getitem_270 = getattr_51[2];  getitem_270 = None
    getitem_271 = getattr_51[3];  getattr_51 = None
    reshape_134 = blocks_2_layers_4_layers_window_attention_departition_swap.reshape(getitem_268, 2, 2, 7, 7, getitem_271);  blocks_2_layers_4_layers_window_attention_departition_swap = None
    permute_118 = reshape_134.permute(0, 5, 1, 3, 2, 4);  reshape_134 = None
    reshape_135 = permute_118.reshape(getitem_268, getitem_271, 14, 14);  permute_118 = getitem_268 = getitem_271 = None
    getattr_52 = reshape_135.shape
    getitem_272 = getattr_52[0]
    getitem_273 = getattr_52[1]
    getitem_274 = getattr_52[2]
    getitem_275 = getattr_52[3];  getattr_52 = None
    floordiv_68 = getitem_274 // 2
    floordiv_69 = getitem_275 // 2
    reshape_136 = reshape_135.reshape(getitem_272, getitem_273, floordiv_68, 2, floordiv_69, 2);  reshape_135 = floordiv_68 = floordiv_69 = None
    permute_119 = reshape_136.permute(0, 2, 4, 3, 5, 1);  reshape_136 = None
    floordiv_70 = getitem_274 // 2;  getitem_274 = None
    floordiv_71 = getitem_275 // 2;  getitem_275 = None
    mul_43 = floordiv_70 * floordiv_71;  floordiv_70 = floordiv_71 = None
    reshape_137 = permute_119.reshape(getitem_272, mul_43, 4, getitem_273);  permute_119 = getitem_272 = mul_43 = getitem_273 = None
    swapaxes_16 = torch.swapaxes(reshape_137, -2, -3);  reshape_137 = None
    blocks_2_layers_4_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.grid_attention.attn_layer, "0")(swapaxes_16)
    getattr_53 = blocks_2_layers_4_layers_grid_attention_attn_layer_0.shape
    getitem_276 = getattr_53[0]
    getitem_277 = getattr_53[1]
    getitem_278 = getattr_53[2]
    getitem_279 = getattr_53[3];  getattr_53 = None
    blocks_2_layers_4_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.grid_attention.attn_layer, "1").to_qkv(blocks_2_layers_4_layers_grid_attention_attn_layer_0);  blocks_2_layers_4_layers_grid_attention_attn_layer_0 = None
    chunk_17 = torch.chunk(blocks_2_layers_4_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_2_layers_4_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_280 = chunk_17[0]
    getitem_281 = chunk_17[1]
    getitem_282 = chunk_17[2];  chunk_17 = None
    reshape_138 = getitem_280.reshape(getitem_276, getitem_277, getitem_278, 8, 32);  getitem_280 = None
    permute_120 = reshape_138.permute(0, 1, 3, 2, 4);  reshape_138 = None
    reshape_139 = getitem_281.reshape(getitem_276, getitem_277, getitem_278, 8, 32);  getitem_281 = None
    permute_121 = reshape_139.permute(0, 1, 3, 2, 4);  reshape_139 = None
    reshape_140 = getitem_282.reshape(getitem_276, getitem_277, getitem_278, 8, 32);  getitem_282 = None
    permute_122 = reshape_140.permute(0, 1, 3, 2, 4);  reshape_140 = None
    mul_44 = permute_121 * 0.0625;  permute_121 = None
    einsum_34 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_120, mul_44);  permute_120 = mul_44 = None
    blocks_2_layers_4_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant17 = self._tensor_constant17
    getitem_283 = blocks_2_layers_4_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant17];  blocks_2_layers_4_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant17 = None
    view_17 = getitem_283.view(49, 49, -1);  getitem_283 = None
    permute_123 = view_17.permute(2, 0, 1);  view_17 = None
    contiguous_17 = permute_123.contiguous();  permute_123 = None
    unsqueeze_17 = contiguous_17.unsqueeze(0);  contiguous_17 = None
    add_60 = einsum_34 + unsqueeze_17;  einsum_34 = unsqueeze_17 = None
    softmax_17 = torch.nn.functional.softmax(add_60, dim = -1, _stacklevel = 3, dtype = None);  add_60 = None
    einsum_35 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_17, permute_122);  softmax_17 = permute_122 = None
    permute_124 = einsum_35.permute(0, 1, 3, 2, 4);  einsum_35 = None
    reshape_141 = permute_124.reshape(getitem_276, getitem_277, getitem_278, getitem_279);  permute_124 = getitem_276 = getitem_277 = getitem_278 = getitem_279 = None
    blocks_2_layers_4_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.grid_attention.attn_layer, "1").merge(reshape_141);  reshape_141 = None
    blocks_2_layers_4_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.grid_attention.attn_layer, "2")(blocks_2_layers_4_layers_grid_attention_attn_layer_1_merge);  blocks_2_layers_4_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_42 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_4_layers_grid_attention_attn_layer_2, 0.16, 'row', False);  blocks_2_layers_4_layers_grid_attention_attn_layer_2 = None
    add_61 = swapaxes_16 + stochastic_depth_42;  swapaxes_16 = stochastic_depth_42 = None
    blocks_2_layers_4_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.grid_attention.mlp_layer, "0")(add_61)
    blocks_2_layers_4_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.grid_attention.mlp_layer, "1")(blocks_2_layers_4_layers_grid_attention_mlp_layer_0);  blocks_2_layers_4_layers_grid_attention_mlp_layer_0 = None
    blocks_2_layers_4_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.grid_attention.mlp_layer, "2")(blocks_2_layers_4_layers_grid_attention_mlp_layer_1);  blocks_2_layers_4_layers_grid_attention_mlp_layer_1 = None
    blocks_2_layers_4_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.grid_attention.mlp_layer, "3")(blocks_2_layers_4_layers_grid_attention_mlp_layer_2);  blocks_2_layers_4_layers_grid_attention_mlp_layer_2 = None
    blocks_2_layers_4_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "2").layers, "4").layers.grid_attention.mlp_layer, "4")(blocks_2_layers_4_layers_grid_attention_mlp_layer_3);  blocks_2_layers_4_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_43 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_2_layers_4_layers_grid_attention_mlp_layer_4, 0.16, 'row', False);  blocks_2_layers_4_layers_grid_attention_mlp_layer_4 = None
    add_62 = add_61 + stochastic_depth_43;  add_61 = stochastic_depth_43 = None
    swapaxes_17 = torch.swapaxes(add_62, -2, -3);  add_62 = None
    getattr_54 = swapaxes_17.shape
    getitem_284 = getattr_54[0]
    getitem_285 = getattr_54[1];  getitem_285 = None
    getitem_286 = getattr_54[2];  getitem_286 = None
    getitem_287 = getattr_54[3];  getattr_54 = None
    reshape_142 = swapaxes_17.reshape(getitem_284, 7, 7, 2, 2, getitem_287);  swapaxes_17 = None
    permute_125 = reshape_142.permute(0, 5, 1, 3, 2, 4);  reshape_142 = None
    reshape_143 = permute_125.reshape(getitem_284, getitem_287, 14, 14);  permute_125 = getitem_284 = getitem_287 = None
    blocks_3_layers_0_layers_mbconv_proj_0 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.proj, "0")(reshape_143)
    blocks_3_layers_0_layers_mbconv_proj_1 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.proj, "1")(blocks_3_layers_0_layers_mbconv_proj_0);  blocks_3_layers_0_layers_mbconv_proj_0 = None
    blocks_3_layers_0_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.pre_norm(reshape_143);  reshape_143 = None
    blocks_3_layers_0_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.conv_a, "0")(blocks_3_layers_0_layers_mbconv_layers_pre_norm);  blocks_3_layers_0_layers_mbconv_layers_pre_norm = None
    blocks_3_layers_0_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.conv_a, "1")(blocks_3_layers_0_layers_mbconv_layers_conv_a_0);  blocks_3_layers_0_layers_mbconv_layers_conv_a_0 = None
    blocks_3_layers_0_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.conv_a, "2")(blocks_3_layers_0_layers_mbconv_layers_conv_a_1);  blocks_3_layers_0_layers_mbconv_layers_conv_a_1 = None
    blocks_3_layers_0_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.conv_b, "0")(blocks_3_layers_0_layers_mbconv_layers_conv_a_2);  blocks_3_layers_0_layers_mbconv_layers_conv_a_2 = None
    blocks_3_layers_0_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.conv_b, "1")(blocks_3_layers_0_layers_mbconv_layers_conv_b_0);  blocks_3_layers_0_layers_mbconv_layers_conv_b_0 = None
    blocks_3_layers_0_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.conv_b, "2")(blocks_3_layers_0_layers_mbconv_layers_conv_b_1);  blocks_3_layers_0_layers_mbconv_layers_conv_b_1 = None
    blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_3_layers_0_layers_mbconv_layers_conv_b_2)
    blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.squeeze_excitation.fc1(blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.squeeze_excitation.activation(blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.squeeze_excitation.fc2(blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_activation);  blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul_45 = blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_3_layers_0_layers_mbconv_layers_conv_b_2;  blocks_3_layers_0_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_3_layers_0_layers_mbconv_layers_conv_b_2 = None
    blocks_3_layers_0_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "3").layers, "0").layers.MBconv.layers.conv_c(mul_45);  mul_45 = None
    stochastic_depth_44 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_3_layers_0_layers_mbconv_layers_conv_c, 0.18, 'row', False);  blocks_3_layers_0_layers_mbconv_layers_conv_c = None
    add_63 = blocks_3_layers_0_layers_mbconv_proj_1 + stochastic_depth_44;  blocks_3_layers_0_layers_mbconv_proj_1 = stochastic_depth_44 = None
    getattr_55 = add_63.shape
    getitem_288 = getattr_55[0]
    getitem_289 = getattr_55[1]
    getitem_290 = getattr_55[2]
    getitem_291 = getattr_55[3];  getattr_55 = None
    floordiv_72 = getitem_290 // 7
    floordiv_73 = getitem_291 // 7
    reshape_144 = add_63.reshape(getitem_288, getitem_289, floordiv_72, 7, floordiv_73, 7);  add_63 = floordiv_72 = floordiv_73 = None
    permute_126 = reshape_144.permute(0, 2, 4, 3, 5, 1);  reshape_144 = None
    floordiv_74 = getitem_290 // 7;  getitem_290 = None
    floordiv_75 = getitem_291 // 7;  getitem_291 = None
    mul_46 = floordiv_74 * floordiv_75;  floordiv_74 = floordiv_75 = None
    reshape_145 = permute_126.reshape(getitem_288, mul_46, 49, getitem_289);  permute_126 = getitem_288 = mul_46 = getitem_289 = None
    blocks_3_layers_0_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.partition_swap(reshape_145);  reshape_145 = None
    blocks_3_layers_0_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.attn_layer, "0")(blocks_3_layers_0_layers_window_attention_partition_swap)
    getattr_56 = blocks_3_layers_0_layers_window_attention_attn_layer_0.shape
    getitem_292 = getattr_56[0]
    getitem_293 = getattr_56[1]
    getitem_294 = getattr_56[2]
    getitem_295 = getattr_56[3];  getattr_56 = None
    blocks_3_layers_0_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.attn_layer, "1").to_qkv(blocks_3_layers_0_layers_window_attention_attn_layer_0);  blocks_3_layers_0_layers_window_attention_attn_layer_0 = None
    chunk_18 = torch.chunk(blocks_3_layers_0_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_3_layers_0_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_296 = chunk_18[0]
    getitem_297 = chunk_18[1]
    getitem_298 = chunk_18[2];  chunk_18 = None
    reshape_146 = getitem_296.reshape(getitem_292, getitem_293, getitem_294, 16, 32);  getitem_296 = None
    permute_127 = reshape_146.permute(0, 1, 3, 2, 4);  reshape_146 = None
    reshape_147 = getitem_297.reshape(getitem_292, getitem_293, getitem_294, 16, 32);  getitem_297 = None
    permute_128 = reshape_147.permute(0, 1, 3, 2, 4);  reshape_147 = None
    reshape_148 = getitem_298.reshape(getitem_292, getitem_293, getitem_294, 16, 32);  getitem_298 = None
    permute_129 = reshape_148.permute(0, 1, 3, 2, 4);  reshape_148 = None
    mul_47 = permute_128 * 0.04419417382415922;  permute_128 = None
    einsum_36 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_127, mul_47);  permute_127 = mul_47 = None
    blocks_3_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant18 = self._tensor_constant18
    getitem_299 = blocks_3_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant18];  blocks_3_layers_0_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant18 = None
    view_18 = getitem_299.view(49, 49, -1);  getitem_299 = None
    permute_130 = view_18.permute(2, 0, 1);  view_18 = None
    contiguous_18 = permute_130.contiguous();  permute_130 = None
    unsqueeze_18 = contiguous_18.unsqueeze(0);  contiguous_18 = None
    add_64 = einsum_36 + unsqueeze_18;  einsum_36 = unsqueeze_18 = None
    softmax_18 = torch.nn.functional.softmax(add_64, dim = -1, _stacklevel = 3, dtype = None);  add_64 = None
    einsum_37 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_18, permute_129);  softmax_18 = permute_129 = None
    permute_131 = einsum_37.permute(0, 1, 3, 2, 4);  einsum_37 = None
    reshape_149 = permute_131.reshape(getitem_292, getitem_293, getitem_294, getitem_295);  permute_131 = getitem_292 = getitem_293 = getitem_294 = getitem_295 = None
    blocks_3_layers_0_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.attn_layer, "1").merge(reshape_149);  reshape_149 = None
    blocks_3_layers_0_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.attn_layer, "2")(blocks_3_layers_0_layers_window_attention_attn_layer_1_merge);  blocks_3_layers_0_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth_45 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_3_layers_0_layers_window_attention_attn_layer_2, 0.18, 'row', False);  blocks_3_layers_0_layers_window_attention_attn_layer_2 = None
    add_65 = blocks_3_layers_0_layers_window_attention_partition_swap + stochastic_depth_45;  blocks_3_layers_0_layers_window_attention_partition_swap = stochastic_depth_45 = None
    blocks_3_layers_0_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.mlp_layer, "0")(add_65)
    blocks_3_layers_0_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.mlp_layer, "1")(blocks_3_layers_0_layers_window_attention_mlp_layer_0);  blocks_3_layers_0_layers_window_attention_mlp_layer_0 = None
    blocks_3_layers_0_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.mlp_layer, "2")(blocks_3_layers_0_layers_window_attention_mlp_layer_1);  blocks_3_layers_0_layers_window_attention_mlp_layer_1 = None
    blocks_3_layers_0_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.mlp_layer, "3")(blocks_3_layers_0_layers_window_attention_mlp_layer_2);  blocks_3_layers_0_layers_window_attention_mlp_layer_2 = None
    blocks_3_layers_0_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.mlp_layer, "4")(blocks_3_layers_0_layers_window_attention_mlp_layer_3);  blocks_3_layers_0_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_46 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_3_layers_0_layers_window_attention_mlp_layer_4, 0.18, 'row', False);  blocks_3_layers_0_layers_window_attention_mlp_layer_4 = None
    add_66 = add_65 + stochastic_depth_46;  add_65 = stochastic_depth_46 = None
    blocks_3_layers_0_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "3").layers, "0").layers.window_attention.departition_swap(add_66);  add_66 = None
    getattr_57 = blocks_3_layers_0_layers_window_attention_departition_swap.shape
    getitem_300 = getattr_57[0]
    getitem_301 = getattr_57[1];  getitem_301 = None
    getitem_302 = getattr_57[2];  getitem_302 = None
    getitem_303 = getattr_57[3];  getattr_57 = None
    reshape_150 = blocks_3_layers_0_layers_window_attention_departition_swap.reshape(getitem_300, 1, 1, 7, 7, getitem_303);  blocks_3_layers_0_layers_window_attention_departition_swap = None
    permute_132 = reshape_150.permute(0, 5, 1, 3, 2, 4);  reshape_150 = None
    reshape_151 = permute_132.reshape(getitem_300, getitem_303, 7, 7);  permute_132 = getitem_300 = getitem_303 = None
    getattr_58 = reshape_151.shape
    getitem_304 = getattr_58[0]
    getitem_305 = getattr_58[1]
    getitem_306 = getattr_58[2]
    getitem_307 = getattr_58[3];  getattr_58 = None
    floordiv_76 = getitem_306 // 1
    floordiv_77 = getitem_307 // 1
    reshape_152 = reshape_151.reshape(getitem_304, getitem_305, floordiv_76, 1, floordiv_77, 1);  reshape_151 = floordiv_76 = floordiv_77 = None
    permute_133 = reshape_152.permute(0, 2, 4, 3, 5, 1);  reshape_152 = None
    floordiv_78 = getitem_306 // 1;  getitem_306 = None
    floordiv_79 = getitem_307 // 1;  getitem_307 = None
    mul_48 = floordiv_78 * floordiv_79;  floordiv_78 = floordiv_79 = None
    reshape_153 = permute_133.reshape(getitem_304, mul_48, 1, getitem_305);  permute_133 = getitem_304 = mul_48 = getitem_305 = None
    swapaxes_18 = torch.swapaxes(reshape_153, -2, -3);  reshape_153 = None
    blocks_3_layers_0_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.grid_attention.attn_layer, "0")(swapaxes_18)
    getattr_59 = blocks_3_layers_0_layers_grid_attention_attn_layer_0.shape
    getitem_308 = getattr_59[0]
    getitem_309 = getattr_59[1]
    getitem_310 = getattr_59[2]
    getitem_311 = getattr_59[3];  getattr_59 = None
    blocks_3_layers_0_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.grid_attention.attn_layer, "1").to_qkv(blocks_3_layers_0_layers_grid_attention_attn_layer_0);  blocks_3_layers_0_layers_grid_attention_attn_layer_0 = None
    chunk_19 = torch.chunk(blocks_3_layers_0_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_3_layers_0_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_312 = chunk_19[0]
    getitem_313 = chunk_19[1]
    getitem_314 = chunk_19[2];  chunk_19 = None
    reshape_154 = getitem_312.reshape(getitem_308, getitem_309, getitem_310, 16, 32);  getitem_312 = None
    permute_134 = reshape_154.permute(0, 1, 3, 2, 4);  reshape_154 = None
    reshape_155 = getitem_313.reshape(getitem_308, getitem_309, getitem_310, 16, 32);  getitem_313 = None
    permute_135 = reshape_155.permute(0, 1, 3, 2, 4);  reshape_155 = None
    reshape_156 = getitem_314.reshape(getitem_308, getitem_309, getitem_310, 16, 32);  getitem_314 = None
    permute_136 = reshape_156.permute(0, 1, 3, 2, 4);  reshape_156 = None
    mul_49 = permute_135 * 0.04419417382415922;  permute_135 = None
    einsum_38 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_134, mul_49);  permute_134 = mul_49 = None
    blocks_3_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant19 = self._tensor_constant19
    getitem_315 = blocks_3_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant19];  blocks_3_layers_0_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant19 = None
    view_19 = getitem_315.view(49, 49, -1);  getitem_315 = None
    permute_137 = view_19.permute(2, 0, 1);  view_19 = None
    contiguous_19 = permute_137.contiguous();  permute_137 = None
    unsqueeze_19 = contiguous_19.unsqueeze(0);  contiguous_19 = None
    add_67 = einsum_38 + unsqueeze_19;  einsum_38 = unsqueeze_19 = None
    softmax_19 = torch.nn.functional.softmax(add_67, dim = -1, _stacklevel = 3, dtype = None);  add_67 = None
    einsum_39 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_19, permute_136);  softmax_19 = permute_136 = None
    permute_138 = einsum_39.permute(0, 1, 3, 2, 4);  einsum_39 = None
    reshape_157 = permute_138.reshape(getitem_308, getitem_309, getitem_310, getitem_311);  permute_138 = getitem_308 = getitem_309 = getitem_310 = getitem_311 = None
    blocks_3_layers_0_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.grid_attention.attn_layer, "1").merge(reshape_157);  reshape_157 = None
    blocks_3_layers_0_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.grid_attention.attn_layer, "2")(blocks_3_layers_0_layers_grid_attention_attn_layer_1_merge);  blocks_3_layers_0_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_47 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_3_layers_0_layers_grid_attention_attn_layer_2, 0.18, 'row', False);  blocks_3_layers_0_layers_grid_attention_attn_layer_2 = None
    add_68 = swapaxes_18 + stochastic_depth_47;  swapaxes_18 = stochastic_depth_47 = None
    blocks_3_layers_0_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.grid_attention.mlp_layer, "0")(add_68)
    blocks_3_layers_0_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.grid_attention.mlp_layer, "1")(blocks_3_layers_0_layers_grid_attention_mlp_layer_0);  blocks_3_layers_0_layers_grid_attention_mlp_layer_0 = None
    blocks_3_layers_0_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.grid_attention.mlp_layer, "2")(blocks_3_layers_0_layers_grid_attention_mlp_layer_1);  blocks_3_layers_0_layers_grid_attention_mlp_layer_1 = None
    blocks_3_layers_0_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.grid_attention.mlp_layer, "3")(blocks_3_layers_0_layers_grid_attention_mlp_layer_2);  blocks_3_layers_0_layers_grid_attention_mlp_layer_2 = None
    blocks_3_layers_0_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "3").layers, "0").layers.grid_attention.mlp_layer, "4")(blocks_3_layers_0_layers_grid_attention_mlp_layer_3);  blocks_3_layers_0_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_48 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_3_layers_0_layers_grid_attention_mlp_layer_4, 0.18, 'row', False);  blocks_3_layers_0_layers_grid_attention_mlp_layer_4 = None
    add_69 = add_68 + stochastic_depth_48;  add_68 = stochastic_depth_48 = None
    swapaxes_19 = torch.swapaxes(add_69, -2, -3);  add_69 = None
    getattr_60 = swapaxes_19.shape
    getitem_316 = getattr_60[0]
    getitem_317 = getattr_60[1];  getitem_317 = None
    getitem_318 = getattr_60[2];  getitem_318 = None
    getitem_319 = getattr_60[3];  getattr_60 = None
    reshape_158 = swapaxes_19.reshape(getitem_316, 7, 7, 1, 1, getitem_319);  swapaxes_19 = None
    permute_139 = reshape_158.permute(0, 5, 1, 3, 2, 4);  reshape_158 = None
    reshape_159 = permute_139.reshape(getitem_316, getitem_319, 7, 7);  permute_139 = getitem_316 = getitem_319 = None
    blocks_3_layers_1_layers_mbconv_proj = getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.proj(reshape_159)
    blocks_3_layers_1_layers_mbconv_layers_pre_norm = getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.pre_norm(reshape_159);  reshape_159 = None
    blocks_3_layers_1_layers_mbconv_layers_conv_a_0 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.conv_a, "0")(blocks_3_layers_1_layers_mbconv_layers_pre_norm);  blocks_3_layers_1_layers_mbconv_layers_pre_norm = None
    blocks_3_layers_1_layers_mbconv_layers_conv_a_1 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.conv_a, "1")(blocks_3_layers_1_layers_mbconv_layers_conv_a_0);  blocks_3_layers_1_layers_mbconv_layers_conv_a_0 = None
    blocks_3_layers_1_layers_mbconv_layers_conv_a_2 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.conv_a, "2")(blocks_3_layers_1_layers_mbconv_layers_conv_a_1);  blocks_3_layers_1_layers_mbconv_layers_conv_a_1 = None
    blocks_3_layers_1_layers_mbconv_layers_conv_b_0 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.conv_b, "0")(blocks_3_layers_1_layers_mbconv_layers_conv_a_2);  blocks_3_layers_1_layers_mbconv_layers_conv_a_2 = None
    blocks_3_layers_1_layers_mbconv_layers_conv_b_1 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.conv_b, "1")(blocks_3_layers_1_layers_mbconv_layers_conv_b_0);  blocks_3_layers_1_layers_mbconv_layers_conv_b_0 = None
    blocks_3_layers_1_layers_mbconv_layers_conv_b_2 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.conv_b, "2")(blocks_3_layers_1_layers_mbconv_layers_conv_b_1);  blocks_3_layers_1_layers_mbconv_layers_conv_b_1 = None
    blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool = getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.squeeze_excitation.avgpool(blocks_3_layers_1_layers_mbconv_layers_conv_b_2)
    blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_fc1 = getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.squeeze_excitation.fc1(blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool);  blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_avgpool = None
    blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_activation = getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.squeeze_excitation.activation(blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_fc1);  blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_fc1 = None
    blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_fc2 = getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.squeeze_excitation.fc2(blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_activation);  blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_activation = None
    blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation = getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.squeeze_excitation.scale_activation(blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_fc2);  blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_fc2 = None
    mul_50 = blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation * blocks_3_layers_1_layers_mbconv_layers_conv_b_2;  blocks_3_layers_1_layers_mbconv_layers_squeeze_excitation_scale_activation = blocks_3_layers_1_layers_mbconv_layers_conv_b_2 = None
    blocks_3_layers_1_layers_mbconv_layers_conv_c = getattr(getattr(self.blocks, "3").layers, "1").layers.MBconv.layers.conv_c(mul_50);  mul_50 = None
    stochastic_depth_49 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_3_layers_1_layers_mbconv_layers_conv_c, 0.2, 'row', False);  blocks_3_layers_1_layers_mbconv_layers_conv_c = None
    add_70 = blocks_3_layers_1_layers_mbconv_proj + stochastic_depth_49;  blocks_3_layers_1_layers_mbconv_proj = stochastic_depth_49 = None
    getattr_61 = add_70.shape
    getitem_320 = getattr_61[0]
    getitem_321 = getattr_61[1]
    getitem_322 = getattr_61[2]
    getitem_323 = getattr_61[3];  getattr_61 = None
    floordiv_80 = getitem_322 // 7
    floordiv_81 = getitem_323 // 7
    reshape_160 = add_70.reshape(getitem_320, getitem_321, floordiv_80, 7, floordiv_81, 7);  add_70 = floordiv_80 = floordiv_81 = None
    permute_140 = reshape_160.permute(0, 2, 4, 3, 5, 1);  reshape_160 = None
    floordiv_82 = getitem_322 // 7;  getitem_322 = None
    floordiv_83 = getitem_323 // 7;  getitem_323 = None
    mul_51 = floordiv_82 * floordiv_83;  floordiv_82 = floordiv_83 = None
    reshape_161 = permute_140.reshape(getitem_320, mul_51, 49, getitem_321);  permute_140 = getitem_320 = mul_51 = getitem_321 = None
    blocks_3_layers_1_layers_window_attention_partition_swap = getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.partition_swap(reshape_161);  reshape_161 = None
    blocks_3_layers_1_layers_window_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.attn_layer, "0")(blocks_3_layers_1_layers_window_attention_partition_swap)
    getattr_62 = blocks_3_layers_1_layers_window_attention_attn_layer_0.shape
    getitem_324 = getattr_62[0]
    getitem_325 = getattr_62[1]
    getitem_326 = getattr_62[2]
    getitem_327 = getattr_62[3];  getattr_62 = None
    blocks_3_layers_1_layers_window_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.attn_layer, "1").to_qkv(blocks_3_layers_1_layers_window_attention_attn_layer_0);  blocks_3_layers_1_layers_window_attention_attn_layer_0 = None
    chunk_20 = torch.chunk(blocks_3_layers_1_layers_window_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_3_layers_1_layers_window_attention_attn_layer_1_to_qkv = None
    getitem_328 = chunk_20[0]
    getitem_329 = chunk_20[1]
    getitem_330 = chunk_20[2];  chunk_20 = None
    reshape_162 = getitem_328.reshape(getitem_324, getitem_325, getitem_326, 16, 32);  getitem_328 = None
    permute_141 = reshape_162.permute(0, 1, 3, 2, 4);  reshape_162 = None
    reshape_163 = getitem_329.reshape(getitem_324, getitem_325, getitem_326, 16, 32);  getitem_329 = None
    permute_142 = reshape_163.permute(0, 1, 3, 2, 4);  reshape_163 = None
    reshape_164 = getitem_330.reshape(getitem_324, getitem_325, getitem_326, 16, 32);  getitem_330 = None
    permute_143 = reshape_164.permute(0, 1, 3, 2, 4);  reshape_164 = None
    mul_52 = permute_142 * 0.04419417382415922;  permute_142 = None
    einsum_40 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_141, mul_52);  permute_141 = mul_52 = None
    blocks_3_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant20 = self._tensor_constant20
    getitem_331 = blocks_3_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table[_tensor_constant20];  blocks_3_layers_1_layers_window_attention_attn_layer_1_relative_position_bias_table = _tensor_constant20 = None
    view_20 = getitem_331.view(49, 49, -1);  getitem_331 = None
    permute_144 = view_20.permute(2, 0, 1);  view_20 = None
    contiguous_20 = permute_144.contiguous();  permute_144 = None
    unsqueeze_20 = contiguous_20.unsqueeze(0);  contiguous_20 = None
    add_71 = einsum_40 + unsqueeze_20;  einsum_40 = unsqueeze_20 = None
    softmax_20 = torch.nn.functional.softmax(add_71, dim = -1, _stacklevel = 3, dtype = None);  add_71 = None
    einsum_41 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_20, permute_143);  softmax_20 = permute_143 = None
    permute_145 = einsum_41.permute(0, 1, 3, 2, 4);  einsum_41 = None
    reshape_165 = permute_145.reshape(getitem_324, getitem_325, getitem_326, getitem_327);  permute_145 = getitem_324 = getitem_325 = getitem_326 = getitem_327 = None
    blocks_3_layers_1_layers_window_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.attn_layer, "1").merge(reshape_165);  reshape_165 = None
    blocks_3_layers_1_layers_window_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.attn_layer, "2")(blocks_3_layers_1_layers_window_attention_attn_layer_1_merge);  blocks_3_layers_1_layers_window_attention_attn_layer_1_merge = None
    stochastic_depth_50 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_3_layers_1_layers_window_attention_attn_layer_2, 0.2, 'row', False);  blocks_3_layers_1_layers_window_attention_attn_layer_2 = None
    add_72 = blocks_3_layers_1_layers_window_attention_partition_swap + stochastic_depth_50;  blocks_3_layers_1_layers_window_attention_partition_swap = stochastic_depth_50 = None
    blocks_3_layers_1_layers_window_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.mlp_layer, "0")(add_72)
    blocks_3_layers_1_layers_window_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.mlp_layer, "1")(blocks_3_layers_1_layers_window_attention_mlp_layer_0);  blocks_3_layers_1_layers_window_attention_mlp_layer_0 = None
    blocks_3_layers_1_layers_window_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.mlp_layer, "2")(blocks_3_layers_1_layers_window_attention_mlp_layer_1);  blocks_3_layers_1_layers_window_attention_mlp_layer_1 = None
    blocks_3_layers_1_layers_window_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.mlp_layer, "3")(blocks_3_layers_1_layers_window_attention_mlp_layer_2);  blocks_3_layers_1_layers_window_attention_mlp_layer_2 = None
    blocks_3_layers_1_layers_window_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.mlp_layer, "4")(blocks_3_layers_1_layers_window_attention_mlp_layer_3);  blocks_3_layers_1_layers_window_attention_mlp_layer_3 = None
    stochastic_depth_51 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_3_layers_1_layers_window_attention_mlp_layer_4, 0.2, 'row', False);  blocks_3_layers_1_layers_window_attention_mlp_layer_4 = None
    add_73 = add_72 + stochastic_depth_51;  add_72 = stochastic_depth_51 = None
    blocks_3_layers_1_layers_window_attention_departition_swap = getattr(getattr(self.blocks, "3").layers, "1").layers.window_attention.departition_swap(add_73);  add_73 = None
    getattr_63 = blocks_3_layers_1_layers_window_attention_departition_swap.shape
    getitem_332 = getattr_63[0]
    getitem_333 = getattr_63[1];  getitem_333 = None
    getitem_334 = getattr_63[2];  getitem_334 = None
    getitem_335 = getattr_63[3];  getattr_63 = None
    reshape_166 = blocks_3_layers_1_layers_window_attention_departition_swap.reshape(getitem_332, 1, 1, 7, 7, getitem_335);  blocks_3_layers_1_layers_window_attention_departition_swap = None
    permute_146 = reshape_166.permute(0, 5, 1, 3, 2, 4);  reshape_166 = None
    reshape_167 = permute_146.reshape(getitem_332, getitem_335, 7, 7);  permute_146 = getitem_332 = getitem_335 = None
    getattr_64 = reshape_167.shape
    getitem_336 = getattr_64[0]
    getitem_337 = getattr_64[1]
    getitem_338 = getattr_64[2]
    getitem_339 = getattr_64[3];  getattr_64 = None
    floordiv_84 = getitem_338 // 1
    floordiv_85 = getitem_339 // 1
    reshape_168 = reshape_167.reshape(getitem_336, getitem_337, floordiv_84, 1, floordiv_85, 1);  reshape_167 = floordiv_84 = floordiv_85 = None
    permute_147 = reshape_168.permute(0, 2, 4, 3, 5, 1);  reshape_168 = None
    floordiv_86 = getitem_338 // 1;  getitem_338 = None
    floordiv_87 = getitem_339 // 1;  getitem_339 = None
    mul_53 = floordiv_86 * floordiv_87;  floordiv_86 = floordiv_87 = None
    reshape_169 = permute_147.reshape(getitem_336, mul_53, 1, getitem_337);  permute_147 = getitem_336 = mul_53 = getitem_337 = None
    swapaxes_20 = torch.swapaxes(reshape_169, -2, -3);  reshape_169 = None
    blocks_3_layers_1_layers_grid_attention_attn_layer_0 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.grid_attention.attn_layer, "0")(swapaxes_20)
    getattr_65 = blocks_3_layers_1_layers_grid_attention_attn_layer_0.shape
    getitem_340 = getattr_65[0]
    getitem_341 = getattr_65[1]
    getitem_342 = getattr_65[2]
    getitem_343 = getattr_65[3];  getattr_65 = None
    blocks_3_layers_1_layers_grid_attention_attn_layer_1_to_qkv = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.grid_attention.attn_layer, "1").to_qkv(blocks_3_layers_1_layers_grid_attention_attn_layer_0);  blocks_3_layers_1_layers_grid_attention_attn_layer_0 = None
    chunk_21 = torch.chunk(blocks_3_layers_1_layers_grid_attention_attn_layer_1_to_qkv, 3, dim = -1);  blocks_3_layers_1_layers_grid_attention_attn_layer_1_to_qkv = None
    getitem_344 = chunk_21[0]
    getitem_345 = chunk_21[1]
    getitem_346 = chunk_21[2];  chunk_21 = None
    reshape_170 = getitem_344.reshape(getitem_340, getitem_341, getitem_342, 16, 32);  getitem_344 = None
    permute_148 = reshape_170.permute(0, 1, 3, 2, 4);  reshape_170 = None
    reshape_171 = getitem_345.reshape(getitem_340, getitem_341, getitem_342, 16, 32);  getitem_345 = None
    permute_149 = reshape_171.permute(0, 1, 3, 2, 4);  reshape_171 = None
    reshape_172 = getitem_346.reshape(getitem_340, getitem_341, getitem_342, 16, 32);  getitem_346 = None
    permute_150 = reshape_172.permute(0, 1, 3, 2, 4);  reshape_172 = None
    mul_54 = permute_149 * 0.04419417382415922;  permute_149 = None
    einsum_42 = torch.functional.einsum('B G H I D, B G H J D -> B G H I J', permute_148, mul_54);  permute_148 = mul_54 = None
    blocks_3_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.grid_attention.attn_layer, "1").relative_position_bias_table
    _tensor_constant21 = self._tensor_constant21
    getitem_347 = blocks_3_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table[_tensor_constant21];  blocks_3_layers_1_layers_grid_attention_attn_layer_1_relative_position_bias_table = _tensor_constant21 = None
    view_21 = getitem_347.view(49, 49, -1);  getitem_347 = None
    permute_151 = view_21.permute(2, 0, 1);  view_21 = None
    contiguous_21 = permute_151.contiguous();  permute_151 = None
    unsqueeze_21 = contiguous_21.unsqueeze(0);  contiguous_21 = None
    add_74 = einsum_42 + unsqueeze_21;  einsum_42 = unsqueeze_21 = None
    softmax_21 = torch.nn.functional.softmax(add_74, dim = -1, _stacklevel = 3, dtype = None);  add_74 = None
    einsum_43 = torch.functional.einsum('B G H I J, B G H J D -> B G H I D', softmax_21, permute_150);  softmax_21 = permute_150 = None
    permute_152 = einsum_43.permute(0, 1, 3, 2, 4);  einsum_43 = None
    reshape_173 = permute_152.reshape(getitem_340, getitem_341, getitem_342, getitem_343);  permute_152 = getitem_340 = getitem_341 = getitem_342 = getitem_343 = None
    blocks_3_layers_1_layers_grid_attention_attn_layer_1_merge = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.grid_attention.attn_layer, "1").merge(reshape_173);  reshape_173 = None
    blocks_3_layers_1_layers_grid_attention_attn_layer_2 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.grid_attention.attn_layer, "2")(blocks_3_layers_1_layers_grid_attention_attn_layer_1_merge);  blocks_3_layers_1_layers_grid_attention_attn_layer_1_merge = None
    stochastic_depth_52 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_3_layers_1_layers_grid_attention_attn_layer_2, 0.2, 'row', False);  blocks_3_layers_1_layers_grid_attention_attn_layer_2 = None
    add_75 = swapaxes_20 + stochastic_depth_52;  swapaxes_20 = stochastic_depth_52 = None
    blocks_3_layers_1_layers_grid_attention_mlp_layer_0 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.grid_attention.mlp_layer, "0")(add_75)
    blocks_3_layers_1_layers_grid_attention_mlp_layer_1 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.grid_attention.mlp_layer, "1")(blocks_3_layers_1_layers_grid_attention_mlp_layer_0);  blocks_3_layers_1_layers_grid_attention_mlp_layer_0 = None
    blocks_3_layers_1_layers_grid_attention_mlp_layer_2 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.grid_attention.mlp_layer, "2")(blocks_3_layers_1_layers_grid_attention_mlp_layer_1);  blocks_3_layers_1_layers_grid_attention_mlp_layer_1 = None
    blocks_3_layers_1_layers_grid_attention_mlp_layer_3 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.grid_attention.mlp_layer, "3")(blocks_3_layers_1_layers_grid_attention_mlp_layer_2);  blocks_3_layers_1_layers_grid_attention_mlp_layer_2 = None
    blocks_3_layers_1_layers_grid_attention_mlp_layer_4 = getattr(getattr(getattr(self.blocks, "3").layers, "1").layers.grid_attention.mlp_layer, "4")(blocks_3_layers_1_layers_grid_attention_mlp_layer_3);  blocks_3_layers_1_layers_grid_attention_mlp_layer_3 = None
    stochastic_depth_53 = torchvision_ops_stochastic_depth_stochastic_depth(blocks_3_layers_1_layers_grid_attention_mlp_layer_4, 0.2, 'row', False);  blocks_3_layers_1_layers_grid_attention_mlp_layer_4 = None
    add_76 = add_75 + stochastic_depth_53;  add_75 = stochastic_depth_53 = None
    swapaxes_21 = torch.swapaxes(add_76, -2, -3);  add_76 = None
    getattr_66 = swapaxes_21.shape
    getitem_348 = getattr_66[0]
    getitem_349 = getattr_66[1];  getitem_349 = None
    getitem_350 = getattr_66[2];  getitem_350 = None
    getitem_351 = getattr_66[3];  getattr_66 = None
    reshape_174 = swapaxes_21.reshape(getitem_348, 7, 7, 1, 1, getitem_351);  swapaxes_21 = None
    permute_153 = reshape_174.permute(0, 5, 1, 3, 2, 4);  reshape_174 = None
    reshape_175 = permute_153.reshape(getitem_348, getitem_351, 7, 7);  permute_153 = getitem_348 = getitem_351 = None
    classifier_0 = getattr(self.classifier, "0")(reshape_175);  reshape_175 = None
    classifier_1 = getattr(self.classifier, "1")(classifier_0);  classifier_0 = None
    classifier_2 = getattr(self.classifier, "2")(classifier_1);  classifier_1 = None
    classifier_3 = getattr(self.classifier, "3")(classifier_2);  classifier_2 = None
    classifier_4 = getattr(self.classifier, "4")(classifier_3);  classifier_3 = None
    classifier_5 = getattr(self.classifier, "5")(classifier_4);  classifier_4 = None
    return classifier_5
