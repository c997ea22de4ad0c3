# torchvision 0.21.0 models.vit_b_16(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx

def forward(self, x : torch.Tensor):
    getattr_1 = x.shape
    getitem = getattr_1[0]
    getitem_1 = getattr_1[1];  getitem_1 = None
    getitem_2 = getattr_1[2]
    getitem_3 = getattr_1[3];  getattr_1 = None
    eq = getitem_2 == 224
    _assert = torch._assert(eq, 'Wrong image height! Expected 224 but got Proxy(getitem_2)!');  eq = _assert = None
    eq_1 = getitem_3 == 224
    _assert_1 = torch._assert(eq_1, 'Wrong image width! Expected 224 but got Proxy(getitem_3)!');  eq_1 = _assert_1 = None
    floordiv = getitem_2 // 16;  getitem_2 = None
    floordiv_1 = getitem_3 // 16;  getitem_3 = None
    conv_proj = self.conv_proj(x);  x = None
    mul = floordiv * floordiv_1;  floordiv = floordiv_1 = None
    reshape = conv_proj.reshape(getitem, 768, mul);  conv_proj = getitem = mul = None
    permute = reshape.permute(0, 2, 1);  reshape = None
    getattr_2 = permute.shape
    getitem_4 = getattr_2[0];  getattr_2 = None
    class_token = self.class_token
    expand = class_token.expand(getitem_4, -1, -1);  class_token = getitem_4 = None
    cat = torch.cat([expand, permute], dim = 1);  expand = permute = None
    dim = cat.dim()
    eq_2 = dim == 3;  dim = None
    getattr_3 = cat.shape;  getattr_3 = None
    _assert_2 = torch._assert(eq_2, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_3)');  eq_2 = _assert_2 = None
    encoder_pos_embedding = self.encoder.pos_embedding
    add = cat + encoder_pos_embedding;  cat = encoder_pos_embedding = None
    encoder_dropout = self.encoder.dropout(add);  add = None
    dim_1 = encoder_dropout.dim()
    eq_3 = dim_1 == 3;  dim_1 = None
    getattr_4 = encoder_dropout.shape;  getattr_4 = None
    _assert_3 = torch._assert(eq_3, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_4)');  eq_3 = _assert_3 = None
    encoder_layers_encoder_layer_0_ln_1 = self.encoder.layers.encoder_layer_0.ln_1(encoder_dropout)
    encoder_layers_encoder_layer_0_self_attention = self.encoder.layers.encoder_layer_0.self_attention(encoder_layers_encoder_layer_0_ln_1, encoder_layers_encoder_layer_0_ln_1, encoder_layers_encoder_layer_0_ln_1, need_weights = False);  encoder_layers_encoder_layer_0_ln_1 = None
    getitem_5 = encoder_layers_encoder_layer_0_self_attention[0]
    getitem_6 = encoder_layers_encoder_layer_0_self_attention[1];  encoder_layers_encoder_layer_0_self_attention = getitem_6 = None
    encoder_layers_encoder_layer_0_dropout = self.encoder.layers.encoder_layer_0.dropout(getitem_5);  getitem_5 = None
    add_1 = encoder_layers_encoder_layer_0_dropout + encoder_dropout;  encoder_layers_encoder_layer_0_dropout = encoder_dropout = None
    encoder_layers_encoder_layer_0_ln_2 = self.encoder.layers.encoder_layer_0.ln_2(add_1)
    encoder_layers_encoder_layer_0_mlp_0 = getattr(self.encoder.layers.encoder_layer_0.mlp, "0")(encoder_layers_encoder_layer_0_ln_2);  encoder_layers_encoder_layer_0_ln_2 = None
    encoder_layers_encoder_layer_0_mlp_1 = getattr(self.encoder.layers.encoder_layer_0.mlp, "1")(encoder_layers_encoder_layer_0_mlp_0);  encoder_layers_encoder_layer_0_mlp_0 = None
    encoder_layers_encoder_layer_0_mlp_2 = getattr(self.encoder.layers.encoder_layer_0.mlp, "2")(encoder_layers_encoder_layer_0_mlp_1);  encoder_layers_encoder_layer_0_mlp_1 = None
    encoder_layers_encoder_layer_0_mlp_3 = getattr(self.encoder.layers.encoder_layer_0.mlp, "3")(encoder_layers_encoder_layer_0_mlp_2);  encoder_layers_encoder_layer_0_mlp_2 = None
    encoder_layers_encoder_layer_0_mlp_4 = getattr(self.encoder.layers.encoder_layer_0.mlp, "4")(encoder_layers_encoder_layer_0_mlp_3);  encoder_layers_encoder_layer_0_mlp_3 = None
    add_2 = add_1 + encoder_layers_encoder_layer_0_mlp_4;  add_1 = encoder_layers_encoder_layer_0_mlp_4 = None
    dim_2 = add_2.dim()
    eq_4 = dim_2 == 3;  dim_2 = None
    getattr_5 = add_2.shape;  getattr_5 = None
    _assert_4 = torch._assert(eq_4, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_5)');  eq_4 = _assert_4 = None
    encoder_layers_encoder_layer_1_ln_1 = self.encoder.layers.encoder_layer_1.ln_1(add_2)
    encoder_layers_encoder_layer_1_self_attention = self.encoder.layers.encoder_layer_1.self_attention(encoder_layers_encoder_layer_1_ln_1, encoder_layers_encoder_layer_1_ln_1, encoder_layers_encoder_layer_1_ln_1, need_weights = False);  encoder_layers_encoder_layer_1_ln_1 = None
    getitem_7 = encoder_layers_encoder_layer_1_self_attention[0]
    getitem_8 = encoder_layers_encoder_layer_1_self_attention[1];  encoder_layers_encoder_layer_1_self_attention = getitem_8 = None
    encoder_layers_encoder_layer_1_dropout = self.encoder.layers.encoder_layer_1.dropout(getitem_7);  getitem_7 = None
    add_3 = encoder_layers_encoder_layer_1_dropout + add_2;  encoder_layers_encoder_layer_1_dropout = add_2 = None
    encoder_layers_encoder_layer_1_ln_2 = self.encoder.layers.encoder_layer_1.ln_2(add_3)
    encoder_layers_encoder_layer_1_mlp_0 = getattr(self.encoder.layers.encoder_layer_1.mlp, "0")(encoder_layers_encoder_layer_1_ln_2);  encoder_layers_encoder_layer_1_ln_2 = None
    encoder_layers_encoder_layer_1_mlp_1 = getattr(self.encoder.layers.encoder_layer_1.mlp, "1")(encoder_layers_encoder_layer_1_mlp_0);  encoder_layers_encoder_layer_1_mlp_0 = None
    encoder_layers_encoder_layer_1_mlp_2 = getattr(self.encoder.layers.encoder_layer_1.mlp, "2")(encoder_layers_encoder_layer_1_mlp_1);  encoder_layers_encoder_layer_1_mlp_1 = None
    encoder_layers_encoder_layer_1_mlp_3 = getattr(self.encoder.layers.encoder_layer_1.mlp, "3")(encoder_layers_encoder_layer_1_mlp_2);  encoder_layers_encoder_layer_1_mlp_2 = None
    encoder_layers_encoder_layer_1_mlp_4 = getattr(self.encoder.layers.encoder_layer_1.mlp, "4")(encoder_layers_encoder_layer_1_mlp_3);  encoder_layers_encoder_layer_1_mlp_3 = None
    add_4 = add_3 + encoder_layers_encoder_layer_1_mlp_4;  add_3 = encoder_layers_encoder_layer_1_mlp_4 = None
    dim_3 = add_4.dim()
    eq_5 = dim_3 == 3;  dim_3 = None
    getattr_6 = add_4.shape;  getattr_6 = None
    _assert_5 = torch._assert(eq_5, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_6)');  eq_5 = _assert_5 = None
    encoder_layers_encoder_layer_2_ln_1 = self.encoder.layers.encoder_layer_2.ln_1(add_4)
    encoder_layers_encoder_layer_2_self_attention = self.encoder.layers.encoder_layer_2.self_attention(encoder_layers_encoder_layer_2_ln_1, encoder_layers_encoder_layer_2_ln_1, encoder_layers_encoder_layer_2_ln_1, need_weights = False);  encoder_layers_encoder_layer_2_ln_1 = None
    getitem_9 = encoder_layers_encoder_layer_2_self_attention[0]
    getitem_10 = encoder_layers_encoder_layer_2_self_attention[1];  encoder_layers_encoder_layer_2_self_attention = getitem_10 = None
    encoder_layers_encoder_layer_2_dropout = self.encoder.layers.encoder_layer_2.dropout(getitem_9);  getitem_9 = None
    add_5 = encoder_layers_encoder_layer_2_dropout + add_4;  encoder_layers_encoder_layer_2_dropout = add_4 = None
    encoder_layers_encoder_layer_2_ln_2 = self.encoder.layers.encoder_layer_2.ln_2(add_5)
    encoder_layers_encoder_layer_2_mlp_0 = getattr(self.encoder.layers.encoder_layer_2.mlp, "0")(encoder_layers_encoder_layer_2_ln_2);  encoder_layers_encoder_layer_2_ln_2 = None
    encoder_layers_encoder_layer_2_mlp_1 = getattr(self.encoder.layers.encoder_layer_2.mlp, "1")(encoder_layers_encoder_layer_2_mlp_0);  encoder_layers_encoder_layer_2_mlp_0 = None
    encoder_layers_encoder_layer_2_mlp_2 = getattr(self.encoder.layers.encoder_layer_2.mlp, "2")(encoder_layers_encoder_layer_2_mlp_1);  encoder_layers_encoder_layer_2_mlp_1 = None
    encoder_layers_encoder_layer_2_mlp_3 = getattr(self.encoder.layers.encoder_layer_2.mlp, "3")(encoder_layers_encoder_layer_2_mlp_2);  encoder_layers_encoder_layer_2_mlp_2 = None
    encoder_layers_encoder_layer_2_mlp_4 = getattr(self.encoder.layers.encoder_layer_2.mlp, "4")(encoder_layers_encoder_layer_2_mlp_3);  encoder_layers_encoder_layer_2_mlp_3 = None
    add_6 = add_5 + encoder_layers_encoder_layer_2_mlp_4;  add_5 = encoder_layers_encoder_layer_2_mlp_4 = None
    dim_4 = add_6.dim()
    eq_6 = dim_4 == 3;  dim_4 = None
    getattr_7 = add_6.shape;  getattr_7 = None
    _assert_6 = torch._assert(eq_6, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_7)');  eq_6 = _assert_6 = None
    encoder_layers_encoder_layer_3_ln_1 = self.encoder.layers.encoder_layer_3.ln_1(add_6)
    encoder_layers_encoder_layer_3_self_attention = self.encoder.layers.encoder_layer_3.self_attention(encoder_layers_encoder_layer_3_ln_1, encoder_layers_encoder_layer_3_ln_1, encoder_layers_encoder_layer_3_ln_1, need_weights = False);  encoder_layers_encoder_layer_3_ln_1 = None
    getitem_11 = encoder_layers_encoder_layer_3_self_attention[0]
    getitem_12 = encoder_layers_encoder_layer_3_self_attention[1];  encoder_layers_encoder_layer_3_self_attention = getitem_12 = None
    encoder_layers_encoder_layer_3_dropout = self.encoder.layers.encoder_layer_3.dropout(getitem_11);  getitem_11 = None
    add_7 = encoder_layers_encoder_layer_3_dropout + add_6;  encoder_layers_encoder_layer_3_dropout = add_6 = None
    encoder_layers_encoder_layer_3_ln_2 = self.encoder.layers.encoder_layer_3.ln_2(add_7)
    encoder_layers_encoder_layer_3_mlp_0 = getattr(self.encoder.layers.encoder_layer_3.mlp, "0")(encoder_layers_encoder_layer_3_ln_2);  encoder_layers_encoder_layer_3_ln_2 = None
    encoder_layers_encoder_layer_3_mlp_1 = getattr(self.encoder.layers.encoder_layer_3.mlp, "1")(encoder_layers_encoder_layer_3_mlp_0);  encoder_layers_encoder_layer_3_mlp_0 = None
    encoder_layers_encoder_layer_3_mlp_2 = getattr(self.encoder.layers.encoder_layer_3.mlp, "2")(encoder_layers_encoder_layer_3_mlp_1);  encoder_layers_encoder_layer_3_mlp_1 = None
    encoder_layers_encoder_layer_3_mlp_3 = getattr(self.encoder.layers.encoder_layer_3.mlp, "3")(encoder_layers_encoder_layer_3_mlp_2);  encoder_layers_encoder_layer_3_mlp_2 = None
    encoder_layers_encoder_layer_3_mlp_4 = getattr(self.encoder.layers.encoder_layer_3.mlp, "4")(encoder_layers_encoder_layer_3_mlp_3);  encoder_layers_encoder_layer_3_mlp_3 = None
    add_8 = add_7 + encoder_layers_encoder_layer_3_mlp_4;  add_7 = encoder_layers_encoder_layer_3_mlp_4 = None
    dim_5 = add_8.dim()
    eq_7 = dim_5 == 3;  dim_5 = None
    getattr_8 = add_8.shape;  getattr_8 = None
    _assert_7 = torch._assert(eq_7, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_8)');  eq_7 = _assert_7 = None
    encoder_layers_encoder_layer_4_ln_1 = self.encoder.layers.encoder_layer_4.ln_1(add_8)
    encoder_layers_encoder_layer_4_self_attention = self.encoder.layers.encoder_layer_4.self_attention(encoder_layers_encoder_layer_4_ln_1, encoder_layers_encoder_layer_4_ln_1, encoder_layers_encoder_layer_4_ln_1, need_weights = False);  encoder_layers_encoder_layer_4_ln_1 = None
    getitem_13 = encoder_layers_encoder_layer_4_self_attention[0]
    getitem_14 = encoder_layers_encoder_layer_4_self_attention[1];  encoder_layers_encoder_layer_4_self_attention = getitem_14 = None
    encoder_layers_encoder_layer_4_dropout = self.encoder.layers.encoder_layer_4.dropout(getitem_13);  getitem_13 = None
    add_9 = encoder_layers_encoder_layer_4_dropout + add_8;  encoder_layers_encoder_layer_4_dropout = add_8 = None
    encoder_layers_encoder_layer_4_ln_2 = self.encoder.layers.encoder_layer_4.ln_2(add_9)
    encoder_layers_encoder_layer_4_mlp_0 = getattr(self.encoder.layers.encoder_layer_4.mlp, "0")(encoder_layers_encoder_layer_4_ln_2);  encoder_layers_encoder_layer_4_ln_2 = None
    encoder_layers_encoder_layer_4_mlp_1 = getattr(self.encoder.layers.encoder_layer_4.mlp, "1")(encoder_layers_encoder_layer_4_mlp_0);  encoder_layers_encoder_layer_4_mlp_0 = None
    encoder_layers_encoder_layer_4_mlp_2 = getattr(self.encoder.layers.encoder_layer_4.mlp, "2")(encoder_layers_encoder_layer_4_mlp_1);  encoder_layers_encoder_layer_4_mlp_1 = None
    encoder_layers_encoder_layer_4_mlp_3 = getattr(self.encoder.layers.encoder_layer_4.mlp, "3")(encoder_layers_encoder_layer_4_mlp_2);  encoder_layers_encoder_layer_4_mlp_2 = None
    encoder_layers_encoder_layer_4_mlp_4 = getattr(self.encoder.layers.encoder_layer_4.mlp, "4")(encoder_layers_encoder_layer_4_mlp_3);  encoder_layers_encoder_layer_4_mlp_3 = None
    add_10 = add_9 + encoder_layers_encoder_layer_4_mlp_4;  add_9 = encoder_layers_encoder_layer_4_mlp_4 = None
    dim_6 = add_10.dim()
    eq_8 = dim_6 == 3;  dim_6 = None
    getattr_9 = add_10.shape;  getattr_9 = None
    _assert_8 = torch._assert(eq_8, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_9)');  eq_8 = _assert_8 = None
    encoder_layers_encoder_layer_5_ln_1 = self.encoder.layers.encoder_layer_5.ln_1(add_10)
    encoder_layers_encoder_layer_5_self_attention = self.encoder.layers.encoder_layer_5.self_attention(encoder_layers_encoder_layer_5_ln_1, encoder_layers_encoder_layer_5_ln_1, encoder_layers_encoder_layer_5_ln_1, need_weights = False);  encoder_layers_encoder_layer_5_ln_1 = None
    getitem_15 = encoder_layers_encoder_layer_5_self_attention[0]
    getitem_16 = encoder_layers_encoder_layer_5_self_attention[1];  encoder_layers_encoder_layer_5_self_attention = getitem_16 = None
    encoder_layers_encoder_layer_5_dropout = self.encoder.layers.encoder_layer_5.dropout(getitem_15);  getitem_15 = None
    add_11 = encoder_layers_encoder_layer_5_dropout + add_10;  encoder_layers_encoder_layer_5_dropout = add_10 = None
    encoder_layers_encoder_layer_5_ln_2 = self.encoder.layers.encoder_layer_5.ln_2(add_11)
    encoder_layers_encoder_layer_5_mlp_0 = getattr(self.encoder.layers.encoder_layer_5.mlp, "0")(encoder_layers_encoder_layer_5_ln_2);  encoder_layers_encoder_layer_5_ln_2 = None
    encoder_layers_encoder_layer_5_mlp_1 = getattr(self.encoder.layers.encoder_layer_5.mlp, "1")(encoder_layers_encoder_layer_5_mlp_0);  encoder_layers_encoder_layer_5_mlp_0 = None
    encoder_layers_encoder_layer_5_mlp_2 = getattr(self.encoder.layers.encoder_layer_5.mlp, "2")(encoder_layers_encoder_layer_5_mlp_1);  encoder_layers_encoder_layer_5_mlp_1 = None
    encoder_layers_encoder_layer_5_mlp_3 = getattr(self.encoder.layers.encoder_layer_5.mlp, "3")(encoder_layers_encoder_layer_5_mlp_2);  encoder_layers_encoder_layer_5_mlp_2 = None
    encoder_layers_encoder_layer_5_mlp_4 = getattr(self.encoder.layers.encoder_layer_5.mlp, "4")(encoder_layers_encoder_layer_5_mlp_3);  encoder_layers_encoder_layer_5_mlp_3 = None
    add_12 = add_11 + encoder_layers_encoder_layer_5_mlp_4;  add_11 = encoder_layers_encoder_layer_5_mlp_4 = None
    dim_7 = add_12.dim()
    eq_9 = dim_7 == 3;  dim_7 = None
    getattr_10 = add_12.shape;  getattr_10 = None
    _assert_9 = torch._assert(eq_9, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_10)');  eq_9 = _assert_9 = None
    encoder_layers_encoder_layer_6_ln_1 = self.encoder.layers.encoder_layer_6.ln_1(add_12)
    encoder_layers_encoder_layer_6_self_attention = self.encoder.layers.encoder_layer_6.self_attention(encoder_layers_encoder_layer_6_ln_1, encoder_layers_encoder_layer_6_ln_1, encoder_layers_encoder_layer_6_ln_1, need_weights = False);  encoder_layers_encoder_layer_6_ln_1 = None
    getitem_17 = encoder_layers_encoder_layer_6_self_attention[0]
    getitem_18 = encoder_layers_encoder_layer_6_self_attention[1];  encoder_layers_encoder_layer_6_self_attention = getitem_18 = None
    encoder_layers_encoder_layer_6_dropout = self.encoder.layers.encoder_layer_6.dropout(getitem_17);  getitem_17 = None
    add_13 = encoder_layers_encoder_layer_6_dropout + add_12;  encoder_layers_encoder_layer_6_dropout = add_12 = None
    encoder_layers_encoder_layer_6_ln_2 = self.encoder.layers.encoder_layer_6.ln_2(add_13)
    encoder_layers_encoder_layer_6_mlp_0 = getattr(self.encoder.layers.encoder_layer_6.mlp, "0")(encoder_layers_encoder_layer_6_ln_2);  encoder_layers_encoder_layer_6_ln_2 = None
    encoder_layers_encoder_layer_6_mlp_1 = getattr(self.encoder.layers.encoder_layer_6.mlp, "1")(encoder_layers_encoder_layer_6_mlp_0);  encoder_layers_encoder_layer_6_mlp_0 = None
    encoder_layers_encoder_layer_6_mlp_2 = getattr(self.encoder.layers.encoder_layer_6.mlp, "2")(encoder_layers_encoder_layer_6_mlp_1);  encoder_layers_encoder_layer_6_mlp_1 = None
    encoder_layers_encoder_layer_6_mlp_3 = getattr(self.encoder.layers.encoder_layer_6.mlp, "3")(encoder_layers_encoder_layer_6_mlp_2);  encoder_layers_encoder_layer_6_mlp_2 = None
    encoder_layers_encoder_layer_6_mlp_4 = getattr(self.encoder.layers.encoder_layer_6.mlp, "4")(encoder_layers_encoder_layer_6_mlp_3);  encoder_layers_encoder_layer_6_mlp_3 = None
    add_14 = add_13 + encoder_layers_encoder_layer_6_mlp_4;  add_13 = encoder_layers_encoder_layer_6_mlp_4 = None
    dim_8 = add_14.dim()
    eq_10 = dim_8 == 3;  dim_8 = None
    getattr_11 = add_14.shape;  getattr_11 = None
    _assert_10 = torch._assert(eq_10, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_11)');  eq_10 = _assert_10 = None
    encoder_layers_encoder_layer_7_ln_1 = self.encoder.layers.encoder_layer_7.ln_1(add_14)
    encoder_layers_encoder_layer_7_self_attention = self.encoder.layers.encoder_layer_7.self_attention(encoder_layers_encoder_layer_7_ln_1, encoder_layers_encoder_layer_7_ln_1, encoder_layers_encoder_layer_7_ln_1, need_weights = False);  encoder_layers_encoder_layer_7_ln_1 = None
    getitem_19 = encoder_layers_encoder_layer_7_self_attention[0]
    getitem_20 = encoder_layers_encoder_layer_7_self_attention[1];  encoder_layers_encoder_layer_7_self_attention = getitem_20 = None
    encoder_layers_encoder_layer_7_dropout = self.encoder.layers.encoder_layer_7.dropout(getitem_19);  getitem_19 = None
    add_15 = encoder_layers_encoder_layer_7_dropout + add_14;  encoder_layers_encoder_layer_7_dropout = add_14 = None
    encoder_layers_encoder_layer_7_ln_2 = self.encoder.layers.encoder_layer_7.ln_2(add_15)
    encoder_layers_encoder_layer_7_mlp_0 = getattr(self.encoder.layers.encoder_layer_7.mlp, "0")(encoder_layers_encoder_layer_7_ln_2);  encoder_layers_encoder_layer_7_ln_2 = None
    encoder_layers_encoder_layer_7_mlp_1 = getattr(self.encoder.layers.encoder_layer_7.mlp, "1")(encoder_layers_encoder_layer_7_mlp_0);  encoder_layers_encoder_layer_7_mlp_0 = None
    encoder_layers_encoder_layer_7_mlp_2 = getattr(self.encoder.layers.encoder_layer_7.mlp, "2")(encoder_layers_encoder_layer_7_mlp_1);  encoder_layers_encoder_layer_7_mlp_1 = None
    encoder_layers_encoder_layer_7_mlp_3 = getattr(self.encoder.layers.encoder_layer_7.mlp, "3")(encoder_layers_encoder_layer_7_mlp_2);  encoder_layers_encoder_layer_7_mlp_2 = None
    encoder_layers_encoder_layer_7_mlp_4 = getattr(self.encoder.layers.encoder_layer_7.mlp, "4")(encoder_layers_encoder_layer_7_mlp_3);  encoder_layers_encoder_layer_7_mlp_3 = None
    add_16 = add_15 + encoder_layers_encoder_layer_7_mlp_4;  add_15 = encoder_layers_encoder_layer_7_mlp_4 = None
    dim_9 = add_16.dim()
    eq_11 = dim_9 == 3;  dim_9 = None
    getattr_12 = add_16.shape;  getattr_12 = None
    _assert_11 = torch._assert(eq_11, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_12)');  eq_11 = _assert_11 = None
    encoder_layers_encoder_layer_8_ln_1 = self.encoder.layers.encoder_layer_8.ln_1(add_16)
    encoder_layers_encoder_layer_8_self_attention = self.encoder.layers.encoder_layer_8.self_attention(encoder_layers_encoder_layer_8_ln_1, encoder_layers_encoder_layer_8_ln_1, encoder_layers_encoder_layer_8_ln_1, need_weights = False);  encoder_layers_encoder_layer_8_ln_1 = None
    getitem_21 = encoder_layers_encoder_layer_8_self_attention[0]
    getitem_22 = encoder_layers_encoder_layer_8_self_attention[1];  encoder_layers_encoder_layer_8_self_attention = getitem_22 = None
    encoder_layers_encoder_layer_8_dropout = self.encoder.layers.encoder_layer_8.dropout(getitem_21);  getitem_21 = None
    add_17 = encoder_layers_encoder_layer_8_dropout + add_16;  encoder_layers_encoder_layer_8_dropout = add_16 = None
    encoder_layers_encoder_layer_8_ln_2 = self.encoder.layers.encoder_layer_8.ln_2(add_17)
    encoder_layers_encoder_layer_8_mlp_0 = getattr(self.encoder.layers.encoder_layer_8.mlp, "0")(encoder_layers_encoder_layer_8_ln_2);  encoder_layers_encoder_layer_8_ln_2 = None
    encoder_layers_encoder_layer_8_mlp_1 = getattr(self.encoder.layers.encoder_layer_8.mlp, "1")(encoder_layers_encoder_layer_8_mlp_0);  encoder_layers_encoder_layer_8_mlp_0 = None
    encoder_layers_encoder_layer_8_mlp_2 = getattr(self.encoder.layers.encoder_layer_8.mlp, "2")(encoder_layers_encoder_layer_8_mlp_1);  encoder_layers_encoder_layer_8_mlp_1 = None
    encoder_layers_encoder_layer_8_mlp_3 = getattr(self.encoder.layers.encoder_layer_8.mlp, "3")(encoder_layers_encoder_layer_8_mlp_2);  encoder_layers_encoder_layer_8_mlp_2 = None
    encoder_layers_encoder_layer_8_mlp_4 = getattr(self.encoder.layers.encoder_layer_8.mlp, "4")(encoder_layers_encoder_layer_8_mlp_3);  encoder_layers_encoder_layer_8_mlp_3 = None
    add_18 = add_17 + encoder_layers_encoder_layer_8_mlp_4;  add_17 = encoder_layers_encoder_layer_8_mlp_4 = None
    dim_10 = add_18.dim()
    eq_12 = dim_10 == 3;  dim_10 = None
    getattr_13 = add_18.shape;  getattr_13 = None
    _assert_12 = torch._assert(eq_12, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_13)');  eq_12 = _assert_12 = None
    encoder_layers_encoder_layer_9_ln_1 = self.encoder.layers.encoder_layer_9.ln_1(add_18)
    encoder_layers_encoder_layer_9_self_attention = self.encoder.layers.encoder_layer_9.self_attention(encoder_layers_encoder_layer_9_ln_1, encoder_layers_encoder_layer_9_ln_1, encoder_layers_encoder_layer_9_ln_1, need_weights = False);  encoder_layers_encoder_layer_9_ln_1 = None
    getitem_23 = encoder_layers_encoder_layer_9_self_attention[0]
    getitem_24 = encoder_layers_encoder_layer_9_self_attention[1];  encoder_layers_encoder_layer_9_self_attention = getitem_24 = None
    encoder_layers_encoder_layer_9_dropout = self.encoder.layers.encoder_layer_9.dropout(getitem_23);  getitem_23 = None
    add_19 = encoder_layers_encoder_layer_9_dropout + add_18;  encoder_layers_encoder_layer_9_dropout = add_18 = None
    encoder_layers_encoder_layer_9_ln_2 = self.encoder.layers.encoder_layer_9.ln_2(add_19)
    encoder_layers_encoder_layer_9_mlp_0 = getattr(self.encoder.layers.encoder_layer_9.mlp, "0")(encoder_layers_encoder_layer_9_ln_2);  encoder_layers_encoder_layer_9_ln_2 = None
    encoder_layers_encoder_layer_9_mlp_1 = getattr(self.encoder.layers.encoder_layer_9.mlp, "1")(encoder_layers_encoder_layer_9_mlp_0);  encoder_layers_encoder_layer_9_mlp_0 = None
    encoder_layers_encoder_layer_9_mlp_2 = getattr(self.encoder.layers.encoder_layer_9.mlp, "2")(encoder_layers_encoder_layer_9_mlp_1);  encoder_layers_encoder_layer_9_mlp_1 = None
    encoder_layers_encoder_layer_9_mlp_3 = getattr(self.encoder.layers.encoder_layer_9.mlp, "3")(encoder_layers_encoder_layer_9_mlp_2);  encoder_layers_encoder_layer_9_mlp_2 = None
    encoder_layers_encoder_layer_9_mlp_4 = getattr(self.encoder.layers.encoder_layer_9.mlp, "4")(encoder_layers_encoder_layer_9_mlp_3);  encoder_layers_encoder_layer_9_mlp_3 = None
    add_20 = add_19 + encoder_layers_encoder_layer_9_mlp_4;  add_19 = encoder_layers_encoder_layer_9_mlp_4 = None
    dim_11 = add_20.dim()
    eq_13 = dim_11 == 3;  dim_11 = None
    getattr_14 = add_20.shape;  getattr_14 = None
    _assert_13 = torch._assert(eq_13, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_14)');  eq_13 = _assert_13 = None
    encoder_layers_encoder_layer_10_ln_1 = self.encoder.layers.encoder_layer_10.ln_1(add_20)
    encoder_layers_encoder_layer_10_self_attention = self.encoder.layers.encoder_layer_10.self_attention(encoder_layers_encoder_layer_10_ln_1, encoder_layers_encoder_layer_10_ln_1, encoder_layers_encoder_layer_10_ln_1, need_weights = False);  encoder_layers_encoder_layer_10_ln_1 = None
    getitem_25 = encoder_layers_encoder_layer_10_self_attention[0]
    getitem_26 = encoder_layers_encoder_layer_10_self_attention[1];  encoder_layers_encoder_layer_10_self_attention = getitem_26 = None
    encoder_layers_encoder_layer_10_dropout = self.encoder.layers.encoder_layer_10.dropout(getitem_25);  getitem_25 = None
    add_21 = encoder_layers_encoder_layer_10_dropout + add_20;  encoder_layers_encoder_layer_10_dropout = add_20 = None
    encoder_layers_encoder_layer_10_ln_2 = self.encoder.layers.encoder_layer_10.ln_2(add_21)
    encoder_layers_encoder_layer_10_mlp_0 = getattr(self.encoder.layers.encoder_layer_10.mlp, "0")(encoder_layers_encoder_layer_10_ln_2);  encoder_layers_encoder_layer_10_ln_2 = None
    encoder_layers_encoder_layer_10_mlp_1 = getattr(self.encoder.layers.encoder_layer_10.mlp, "1")(encoder_layers_encoder_layer_10_mlp_0);  encoder_layers_encoder_layer_10_mlp_0 = None
    encoder_layers_encoder_layer_10_mlp_2 = getattr(self.encoder.layers.encoder_layer_10.mlp, "2")(encoder_layers_encoder_layer_10_mlp_1);  encoder_layers_encoder_layer_10_mlp_1 = None
    encoder_layers_encoder_layer_10_mlp_3 = getattr(self.encoder.layers.encoder_layer_10.mlp, "3")(encoder_layers_encoder_layer_10_mlp_2);  encoder_layers_encoder_layer_10_mlp_2 = None
    encoder_layers_encoder_layer_10_mlp_4 = getattr(self.encoder.layers.encoder_layer_10.mlp, "4")(encoder_layers_encoder_layer_10_mlp_3);  encoder_layers_encoder_layer_10_mlp_3 = None
    add_22 = add_21 + encoder_layers_encoder_layer_10_mlp_4;  add_21 = encoder_layers_encoder_layer_10_mlp_4 = None
    dim_12 = add_22.dim()
    eq_14 = dim_12 == 3;  dim_12 = None
    getattr_15 = add_22.shape;  getattr_15 = None
    _assert_14 = torch._assert(eq_14, 'Expected (batch_size, seq_length, hidden_dim) got Proxy(getattr_15)');  eq_14 = _assert_14 = None
    encoder_layers_encoder_layer_11_ln_1 = self.encoder.layers.encoder_layer_11.ln_1(add_22)
    encoder_layers_encoder_layer_11_self_attention = self.encoder.layers.encoder_layer_11.self_attention(encoder_layers_encoder_layer_11_ln_1, encoder_layers_encoder_layer_11_ln_1, encoder_layers_encoder_layer_11_ln_1, need_weights = False);  encoder_layers_encoder_layer_11_ln_1 = None
    getitem_27 = encoder_layers_encoder_layer_11_self_attention[0]
    getitem_28 = encoder_layers_encoder_layer_11_self_attention[1];  encoder_layers_encoder_layer_11_self_attention = getitem_28 = None
    encoder_layers_encoder_layer_11_dropout = self.encoder.layers.encoder_layer_11.dropout(getitem_27);  getitem_27 = None
    add_23 = encoder_layers_encoder_layer_11_dropout + add_22;  encoder_layers_encoder_layer_11_dropout = add_22 = None
    encoder_layers_encoder_layer_11_ln_2 = self.encoder.layers.encoder_layer_11.ln_2(add_23)
    encoder_layers_encoder_layer_11_mlp_0 = getattr(self.encoder.layers.encoder_layer_11.mlp, "0")(encoder_layers_encoder_layer_11_ln_2);  encoder_layers_encoder_layer_11_ln_2 = None
    encoder_layers_encoder_layer_11_mlp_1 = getattr(self.encoder.layers.encoder_layer_11.mlp, "1")(encoder_layers_encoder_layer_11_mlp_0);  encoder_layers_encoder_layer_11_mlp_0 = None
    encoder_layers_encoder_layer_11_mlp_2 = getattr(self.encoder.layers.encoder_layer_11.mlp, "2")(encoder_layers_encoder_layer_11_mlp_1);  encoder_layers_encoder_layer_11_mlp_1 = None
    encoder_layers_encoder_layer_11_mlp_3 = getattr(self.encoder.layers.encoder_layer_11.mlp, "3")(encoder_layers_encoder_layer_11_mlp_2);  encoder_layers_encoder_layer_11_mlp_2 = None
    encoder_layers_encoder_layer_11_mlp_4 = getattr(self.encoder.layers.encoder_layer_11.mlp, "4")(encoder_layers_encoder_layer_11_mlp_3);  encoder_layers_encoder_layer_11_mlp_3 = None
    add_24 = add_23 + encoder_layers_encoder_layer_11_mlp_4;  add_23 = encoder_layers_encoder_layer_11_mlp_4 = None
    encoder_ln = self.encoder.ln(add_24);  add_24 = None
    getitem_29 = encoder_ln[(slice(None, None, None), 0)];  encoder_ln = None
    heads_head = self.heads.head(getitem_29);  getitem_29 = None
    return heads_head
