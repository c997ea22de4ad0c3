# torchvision 0.21.0 models.shufflenet_v2_x1_0(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx

def forward(self, x : torch.Tensor) -> torch.Tensor:
    conv1_0 = getattr(self.conv1, "0")(x);  x = None
    conv1_1 = getattr(self.conv1, "1")(conv1_0);  conv1_0 = None
    conv1_2 = getattr(self.conv1, "2")(conv1_1);  conv1_1 = None
    maxpool = self.maxpool(conv1_2);  conv1_2 = None
    stage2_0_branch1_0 = getattr(getattr(self.stage2, "0").branch1, "0")(maxpool)
    stage2_0_branch1_1 = getattr(getattr(self.stage2, "0").branch1, "1")(stage2_0_branch1_0);  stage2_0_branch1_0 = None
    stage2_0_branch1_2 = getattr(getattr(self.stage2, "0").branch1, "2")(stage2_0_branch1_1);  stage2_0_branch1_1 = None
    stage2_0_branch1_3 = getattr(getattr(self.stage2, "0").branch1, "3")(stage2_0_branch1_2);  stage2_0_branch1_2 = None
    stage2_0_branch1_4 = getattr(getattr(self.stage2, "0").branch1, "4")(stage2_0_branch1_3);  stage2_0_branch1_3 = None
    stage2_0_branch2_0 = getattr(getattr(self.stage2, "0").branch2, "0")(maxpool);  maxpool = None
    stage2_0_branch2_1 = getattr(getattr(self.stage2, "0").branch2, "1")(stage2_0_branch2_0);  stage2_0_branch2_0 = None
    stage2_0_branch2_2 = getattr(getattr(self.stage2, "0").branch2, "2")(stage2_0_branch2_1);  stage2_0_branch2_1 = None
    stage2_0_branch2_3 = getattr(getattr(self.stage2, "0").branch2, "3")(stage2_0_branch2_2);  stage2_0_branch2_2 = None
    stage2_0_branch2_4 = getattr(getattr(self.stage2, "0").branch2, "4")(stage2_0_branch2_3);  stage2_0_branch2_3 = None
    stage2_0_branch2_5 = getattr(getattr(self.stage2, "0").branch2, "5")(stage2_0_branch2_4);  stage2_0_branch2_4 = None
    stage2_0_branch2_6 = getattr(getattr(self.stage2, "0").branch2, "6")(stage2_0_branch2_5);  stage2_0_branch2_5 = None
    stage2_0_branch2_7 = getattr(getattr(self.stage2, "0").branch2, "7")(stage2_0_branch2_6);  stage2_0_branch2_6 = None
    cat = torch.cat((stage2_0_branch1_4, stage2_0_branch2_7), dim = 1);  stage2_0_branch1_4 = stage2_0_branch2_7 = None
    size = cat.size()
    getitem = size[0]
    getitem_1 = size[1]
    getitem_2 = size[2]
    getitem_3 = size[3];  size = None
    floordiv = getitem_1 // 2
    view = cat.view(getitem, 2, floordiv, getitem_2, getitem_3);  cat = floordiv = None
    transpose = torch.transpose(view, 1, 2);  view = None
    contiguous = transpose.contiguous();  transpose = None
    view_1 = contiguous.view(getitem, getitem_1, getitem_2, getitem_3);  contiguous = getitem = getitem_1 = getitem_2 = getitem_3 = None
    chunk = view_1.chunk(2, dim = 1);  view_1 = None
    getitem_4 = chunk[0]
    getitem_5 = chunk[1];  chunk = None
    stage2_1_branch2_0 = getattr(getattr(self.stage2, "1").branch2, "0")(getitem_5);  getitem_5 = None
    stage2_1_branch2_1 = getattr(getattr(self.stage2, "1").branch2, "1")(stage2_1_branch2_0);  stage2_1_branch2_0 = None
    stage2_1_branch2_2 = getattr(getattr(self.stage2, "1").branch2, "2")(stage2_1_branch2_1);  stage2_1_branch2_1 = None
    stage2_1_branch2_3 = getattr(getattr(self.stage2, "1").branch2, "3")(stage2_1_branch2_2);  stage2_1_branch2_2 = None
    stage2_1_branch2_4 = getattr(getattr(self.stage2, "1").branch2, "4")(stage2_1_branch2_3);  stage2_1_branch2_3 = None
    stage2_1_branch2_5 = getattr(getattr(self.stage2, "1").branch2, "5")(stage2_1_branch2_4);  stage2_1_branch2_4 = None
    stage2_1_branch2_6 = getattr(getattr(self.stage2, "1").branch2, "6")(stage2_1_branch2_5);  stage2_1_branch2_5 = None
    stage2_1_branch2_7 = getattr(getattr(self.stage2, "1").branch2, "7")(stage2_1_branch2_6);  stage2_1_branch2_6 = None
    cat_1 = torch.cat((getitem_4, stage2_1_branch2_7), dim = 1);  getitem_4 = stage2_1_branch2_7 = None
    size_1 = cat_1.size()
    getitem_6 = size_1[0]
    getitem_7 = size_1[1]
    getitem_8 = size_1[2]
    getitem_9 = size_1[3];  size_1 = None
    floordiv_1 = getitem_7 // 2
    view_2 = cat_1.view(getitem_6, 2, floordiv_1, getitem_8, getitem_9);  cat_1 = floordiv_1 = None
    transpose_1 = torch.transpose(view_2, 1, 2);  view_2 = None
    contiguous_1 = transpose_1.contiguous();  transpose_1 = None
    view_3 = contiguous_1.view(getitem_6, getitem_7, getitem_8, getitem_9);  contiguous_1 = getitem_6 = getitem_7 = getitem_8 = getitem_9 = None
    chunk_1 = view_3.chunk(2, dim = 1);  view_3 = None
    getitem_10 = chunk_1[0]
    getitem_11 = chunk_1[1];  chunk_1 = None
    stage2_2_branch2_0 = getattr(getattr(self.stage2, "2").branch2, "0")(getitem_11);  getitem_11 = None
    stage2_2_branch2_1 = getattr(getattr(self.stage2, "2").branch2, "1")(stage2_2_branch2_0);  stage2_2_branch2_0 = None
    stage2_2_branch2_2 = getattr(getattr(self.stage2, "2").branch2, "2")(stage2_2_branch2_1);  stage2_2_branch2_1 = None
    stage2_2_branch2_3 = getattr(getattr(self.stage2, "2").branch2, "3")(stage2_2_branch2_2);  stage2_2_branch2_2 = None
    stage2_2_branch2_4 = getattr(getattr(self.stage2, "2").branch2, "4")(stage2_2_branch2_3);  stage2_2_branch2_3 = None
    stage2_2_branch2_5 = getattr(getattr(self.stage2, "2").branch2, "5")(stage2_2_branch2_4);  stage2_2_branch2_4 = None
    stage2_2_branch2_6 = getattr(getattr(self.stage2, "2").branch2, "6")(stage2_2_branch2_5);  stage2_2_branch2_5 = None
    stage2_2_branch2_7 = getattr(getattr(self.stage2, "2").branch2, "7")(stage2_2_branch2_6);  stage2_2_branch2_6 = None
    cat_2 = torch.cat((getitem_10, stage2_2_branch2_7), dim = 1);  getitem_10 = stage2_2_branch2_7 = None
    size_2 = cat_2.size()
    getitem_12 = size_2[0]
    getitem_13 = size_2[1]
    getitem_14 = size_2[2]
    getitem_15 = size_2[3];  size_2 = None
    floordiv_2 = getitem_13 // 2
    view_4 = cat_2.view(getitem_12, 2, floordiv_2, getitem_14, getitem_15);  cat_2 = floordiv_2 = None
    transpose_2 = torch.transpose(view_4, 1, 2);  view_4 = None
    contiguous_2 = transpose_2.contiguous();  transpose_2 = None
    view_5 = contiguous_2.view(getitem_12, getitem_13, getitem_14, getitem_15);  contiguous_2 = getitem_12 = getitem_13 = getitem_14 = getitem_15 = None
    chunk_2 = view_5.chunk(2, dim = 1);  view_5 = None
    getitem_16 = chunk_2[0]
    getitem_17 = chunk_2[1];  chunk_2 = None
    stage2_3_branch2_0 = getattr(getattr(self.stage2, "3").branch2, "0")(getitem_17);  getitem_17 = None
    stage2_3_branch2_1 = getattr(getattr(self.stage2, "3").branch2, "1")(stage2_3_branch2_0);  stage2_3_branch2_0 = None
    stage2_3_branch2_2 = getattr(getattr(self.stage2, "3").branch2, "2")(stage2_3_branch2_1);  stage2_3_branch2_1 = None
    stage2_3_branch2_3 = getattr(getattr(self.stage2, "3").branch2, "3")(stage2_3_branch2_2);  stage2_3_branch2_2 = None
    stage2_3_branch2_4 = getattr(getattr(self.stage2, "3").branch2, "4")(stage2_3_branch2_3);  stage2_3_branch2_3 = None
    stage2_3_branch2_5 = getattr(getattr(self.stage2, "3").branch2, "5")(stage2_3_branch2_4);  stage2_3_branch2_4 = None
    stage2_3_branch2_6 = getattr(getattr(self.stage2, "3").branch2, "6")(stage2_3_branch2_5);  stage2_3_branch2_5 = None
    stage2_3_branch2_7 = getattr(getattr(self.stage2, "3").branch2, "7")(stage2_3_branch2_6);  stage2_3_branch2_6 = None
    cat_3 = torch.cat((getitem_16, stage2_3_branch2_7), dim = 1);  getitem_16 = stage2_3_branch2_7 = None
    size_3 = cat_3.size()
    getitem_18 = size_3[0]
    getitem_19 = size_3[1]
    getitem_20 = size_3[2]
    getitem_21 = size_3[3];  size_3 = None
    floordiv_3 = getitem_19 // 2
    view_6 = cat_3.view(getitem_18, 2, floordiv_3, getitem_20, getitem_21);  cat_3 = floordiv_3 = None
    transpose_3 = torch.transpose(view_6, 1, 2);  view_6 = None
    contiguous_3 = transpose_3.contiguous();  transpose_3 = None
    view_7 = contiguous_3.view(getitem_18, getitem_19, getitem_20, getitem_21);  contiguous_3 = getitem_18 = getitem_19 = getitem_20 = getitem_21 = None
    stage3_0_branch1_0 = getattr(getattr(self.stage3, "0").branch1, "0")(view_7)
    stage3_0_branch1_1 = getattr(getattr(self.stage3, "0").branch1, "1")(stage3_0_branch1_0);  stage3_0_branch1_0 = None
    stage3_0_branch1_2 = getattr(getattr(self.stage3, "0").branch1, "2")(stage3_0_branch1_1);  stage3_0_branch1_1 = None
    stage3_0_branch1_3 = getattr(getattr(self.stage3, "0").branch1, "3")(stage3_0_branch1_2);  stage3_0_branch1_2 = None
    stage3_0_branch1_4 = getattr(getattr(self.stage3, "0").branch1, "4")(stage3_0_branch1_3);  stage3_0_branch1_3 = None
    stage3_0_branch2_0 = getattr(getattr(self.stage3, "0").branch2, "0")(view_7);  view_7 = None
    stage3_0_branch2_1 = getattr(getattr(self.stage3, "0").branch2, "1")(stage3_0_branch2_0);  stage3_0_branch2_0 = None
    stage3_0_branch2_2 = getattr(getattr(self.stage3, "0").branch2, "2")(stage3_0_branch2_1);  stage3_0_branch2_1 = None
    stage3_0_branch2_3 = getattr(getattr(self.stage3, "0").branch2, "3")(stage3_0_branch2_2);  stage3_0_branch2_2 = None
    stage3_0_branch2_4 = getattr(getattr(self.stage3, "0").branch2, "4")(stage3_0_branch2_3);  stage3_0_branch2_3 = None
    stage3_0_branch2_5 = getattr(getattr(self.stage3, "0").branch2, "5")(stage3_0_branch2_4);  stage3_0_branch2_4 = None
    stage3_0_branch2_6 = getattr(getattr(self.stage3, "0").branch2, "6")(stage3_0_branch2_5);  stage3_0_branch2_5 = None
    stage3_0_branch2_7 = getattr(getattr(self.stage3, "0").branch2, "7")(stage3_0_branch2_6);  stage3_0_branch2_6 = None
    cat_4 = torch.cat((stage3_0_branch1_4, stage3_0_branch2_7), dim = 1);  stage3_0_branch1_4 = stage3_0_branch2_7 = None
    size_4 = cat_4.size()
    getitem_22 = size_4[0]
    getitem_23 = size_4[1]
    getitem_24 = size_4[2]
    getitem_25 = size_4[3];  size_4 = None
    floordiv_4 = getitem_23 // 2
    view_8 = cat_4.view(getitem_22, 2, floordiv_4, getitem_24, getitem_25);  cat_4 = floordiv_4 = None
    transpose_4 = torch.transpose(view_8, 1, 2);  view_8 = None
    contiguous_4 = transpose_4.contiguous();  transpose_4 = None
    view_9 = contiguous_4.view(getitem_22, getitem_23, getitem_24, getitem_25);  contiguous_4 = getitem_22 = getitem_23 = getitem_24 = getitem_25 = None
    chunk_3 = view_9.chunk(2, dim = 1);  view_9 = None
    getitem_26 = chunk_3[0]
    getitem_27 = chunk_3[1];  chunk_3 = None
    stage3_1_branch2_0 = getattr(getattr(self.stage3, "1").branch2, "0")(getitem_27);  getitem_27 = None
    stage3_1_branch2_1 = getattr(getattr(self.stage3, "1").branch2, "1")(stage3_1_branch2_0);  stage3_1_branch2_0 = None
    stage3_1_branch2_2 = getattr(getattr(self.stage3, "1").branch2, "2")(stage3_1_branch2_1);  stage3_1_branch2_1 = None
    stage3_1_branch2_3 = getattr(getattr(self.stage3, "1").branch2, "3")(stage3_1_branch2_2);  stage3_1_branch2_2 = None
    stage3_1_branch2_4 = getattr(getattr(self.stage3, "1").branch2, "4")(stage3_1_branch2_3);  stage3_1_branch2_3 = None
    stage3_1_branch2_5 = getattr(getattr(self.stage3, "1").branch2, "5")(stage3_1_branch2_4);  stage3_1_branch2_4 = None
    stage3_1_branch2_6 = getattr(getattr(self.stage3, "1").branch2, "6")(stage3_1_branch2_5);  stage3_1_branch2_5 = None
    stage3_1_branch2_7 = getattr(getattr(self.stage3, "1").branch2, "7")(stage3_1_branch2_6);  stage3_1_branch2_6 = None
    cat_5 = torch.cat((getitem_26, stage3_1_branch2_7), dim = 1);  getitem_26 = stage3_1_branch2_7 = None
    size_5 = cat_5.size()
    getitem_28 = size_5[0]
    getitem_29 = size_5[1]
    getitem_30 = size_5[2]
    getitem_31 = size_5[3];  size_5 = None
    floordiv_5 = getitem_29 // 2
    view_10 = cat_5.view(getitem_28, 2, floordiv_5, getitem_30, getitem_31);  cat_5 = floordiv_5 = None
    transpose_5 = torch.transpose(view_10, 1, 2);  view_10 = None
    contiguous_5 = transpose_5.contiguous();  transpose_5 = None
    view_11 = contiguous_5.view(getitem_28, getitem_29, getitem_30, getitem_31);  contiguous_5 = getitem_28 = getitem_29 = getitem_30 = getitem_31 = None
    chunk_4 = view_11.chunk(2, dim = 1);  view_11 = None
    getitem_32 = chunk_4[0]
    getitem_33 = chunk_4[1];  chunk_4 = None
    stage3_2_branch2_0 = getattr(getattr(self.stage3, "2").branch2, "0")(getitem_33);  getitem_33 = None
    stage3_2_branch2_1 = getattr(getattr(self.stage3, "2").branch2, "1")(stage3_2_branch2_0);  stage3_2_branch2_0 = None
    stage3_2_branch2_2 = getattr(getattr(self.stage3, "2").branch2, "2")(stage3_2_branch2_1);  stage3_2_branch2_1 = None
    stage3_2_branch2_3 = getattr(getattr(self.stage3, "2").branch2, "3")(stage3_2_branch2_2);  stage3_2_branch2_2 = None
    stage3_2_branch2_4 = getattr(getattr(self.stage3, "2").branch2, "4")(stage3_2_branch2_3);  stage3_2_branch2_3 = None
    stage3_2_branch2_5 = getattr(getattr(self.stage3, "2").branch2, "5")(stage3_2_branch2_4);  stage3_2_branch2_4 = None
    stage3_2_branch2_6 = getattr(getattr(self.stage3, "2").branch2, "6")(stage3_2_branch2_5);  stage3_2_branch2_5 = None
    stage3_2_branch2_7 = getattr(getattr(self.stage3, "2").branch2, "7")(stage3_2_branch2_6);  stage3_2_branch2_6 = None
    cat_6 = torch.cat((getitem_32, stage3_2_branch2_7), dim = 1);  getitem_32 = stage3_2_branch2_7 = None
    size_6 = cat_6.size()
    getitem_34 = size_6[0]
    getitem_35 = size_6[1]
    getitem_36 = size_6[2]
    getitem_37 = size_6[3];  size_6 = None
    floordiv_6 = getitem_35 // 2
    view_12 = cat_6.view(getitem_34, 2, floordiv_6, getitem_36, getitem_37);  cat_6 = floordiv_6 = None
    transpose_6 = torch.transpose(view_12, 1, 2);  view_12 = None
    contiguous_6 = transpose_6.contiguous();  transpose_6 = None
    view_13 = contiguous_6.view(getitem_34, getitem_35, getitem_36, getitem_37);  contiguous_6 = getitem_34 = getitem_35 = getitem_36 = getitem_37 = None
    chunk_5 = view_13.chunk(2, dim = 1);  view_13 = None
    getitem_38 = chunk_5[0]
    getitem_39 = chunk_5[1];  chunk_5 = None
    stage3_3_branch2_0 = getattr(getattr(self.stage3, "3").branch2, "0")(getitem_39);  getitem_39 = None
    stage3_3_branch2_1 = getattr(getattr(self.stage3, "3").branch2, "1")(stage3_3_branch2_0);  stage3_3_branch2_0 = None
    stage3_3_branch2_2 = getattr(getattr(self.stage3, "3").branch2, "2")(stage3_3_branch2_1);  stage3_3_branch2_1 = None
    stage3_3_branch2_3 = getattr(getattr(self.stage3, "3").branch2, "3")(stage3_3_branch2_2);  stage3_3_branch2_2 = None
    stage3_3_branch2_4 = getattr(getattr(self.stage3, "3").branch2, "4")(stage3_3_branch2_3);  stage3_3_branch2_3 = None
    stage3_3_branch2_5 = getattr(getattr(self.stage3, "3").branch2, "5")(stage3_3_branch2_4);  stage3_3_branch2_4 = None
    stage3_3_branch2_6 = getattr(getattr(self.stage3, "3").branch2, "6")(stage3_3_branch2_5);  stage3_3_branch2_5 = None
    stage3_3_branch2_7 = getattr(getattr(self.stage3, "3").branch2, "7")(stage3_3_branch2_6);  stage3_3_branch2_6 = None
    cat_7 = torch.cat((getitem_38, stage3_3_branch2_7), dim = 1);  getitem_38 = stage3_3_branch2_7 = None
    size_7 = cat_7.size()
    getitem_40 = size_7[0]
    getitem_41 = size_7[1]
    getitem_42 = size_7[2]
    getitem_43 = size_7[3];  size_7 = None
    floordiv_7 = getitem_41 // 2
    view_14 = cat_7.view(getitem_40, 2, floordiv_7, getitem_42, getitem_43);  cat_7 = floordiv_7 = None
    transpose_7 = torch.transpose(view_14, 1, 2);  view_14 = None
    contiguous_7 = transpose_7.contiguous();  transpose_7 = None
    view_15 = contiguous_7.view(getitem_40, getitem_41, getitem_42, getitem_43);  contiguous_7 = getitem_40 = getitem_41 = getitem_42 = getitem_43 = None
    chunk_6 = view_15.chunk(2, dim = 1);  view_15 = None
    getitem_44 = chunk_6[0]
    getitem_45 = chunk_6[1];  chunk_6 = None
    stage3_4_branch2_0 = getattr(getattr(self.stage3, "4").branch2, "0")(getitem_45);  getitem_45 = None
    stage3_4_branch2_1 = getattr(getattr(self.stage3, "4").branch2, "1")(stage3_4_branch2_0);  stage3_4_branch2_0 = None
    stage3_4_branch2_2 = getattr(getattr(self.stage3, "4").branch2, "2")(stage3_4_branch2_1);  stage3_4_branch2_1 = None
    stage3_4_branch2_3 = getattr(getattr(self.stage3, "4").branch2, "3")(stage3_4_branch2_2);  stage3_4_branch2_2 = None
    stage3_4_branch2_4 = getattr(getattr(self.stage3, "4").branch2, "4")(stage3_4_branch2_3);  stage3_4_branch2_3 = None
    stage3_4_branch2_5 = getattr(getattr(self.stage3, "4").branch2, "5")(stage3_4_branch2_4);  stage3_4_branch2_4 = None
    stage3_4_branch2_6 = getattr(getattr(self.stage3, "4").branch2, "6")(stage3_4_branch2_5);  stage3_4_branch2_5 = None
    stage3_4_branch2_7 = getattr(getattr(self.stage3, "4").branch2, "7")(stage3_4_branch2_6);  stage3_4_branch2_6 = None
    cat_8 = torch.cat((getitem_44, stage3_4_branch2_7), dim = 1);  getitem_44 = stage3_4_branch2_7 = None
    size_8 = cat_8.size()
    getitem_46 = size_8[0]
    getitem_47 = size_8[1]
    getitem_48 = size_8[2]
    getitem_49 = size_8[3];  size_8 = None
    floordiv_8 = getitem_47 // 2
    view_16 = cat_8.view(getitem_46, 2, floordiv_8, getitem_48, getitem_49);  cat_8 = floordiv_8 = None
    transpose_8 = torch.transpose(view_16, 1, 2);  view_16 = None
    contiguous_8 = transpose_8.contiguous();  transpose_8 = None
    view_17 = contiguous_8.view(getitem_46, getitem_47, getitem_48, getitem_49);  contiguous_8 = getitem_46 = getitem_47 = getitem_48 = getitem_49 = None
    chunk_7 = view_17.chunk(2, dim = 1);  view_17 = None
    getitem_50 = chunk_7[0]
    getitem_51 = chunk_7[1];  chunk_7 = None
    stage3_5_branch2_0 = getattr(getattr(self.stage3, "5").branch2, "0")(getitem_51);  getitem_51 = None
    stage3_5_branch2_1 = getattr(getattr(self.stage3, "5").branch2, "1")(stage3_5_branch2_0);  stage3_5_branch2_0 = None
    stage3_5_branch2_2 = getattr(getattr(self.stage3, "5").branch2, "2")(stage3_5_branch2_1);  stage3_5_branch2_1 = None
    stage3_5_branch2_3 = getattr(getattr(self.stage3, "5").branch2, "3")(stage3_5_branch2_2);  stage3_5_branch2_2 = None
    stage3_5_branch2_4 = getattr(getattr(self.stage3, "5").branch2, "4")(stage3_5_branch2_3);  stage3_5_branch2_3 = None
    stage3_5_branch2_5 = getattr(getattr(self.stage3, "5").branch2, "5")(stage3_5_branch2_4);  stage3_5_branch2_4 = None
    stage3_5_branch2_6 = getattr(getattr(self.stage3, "5").branch2, "6")(stage3_5_branch2_5);  stage3_5_branch2_5 = None
    stage3_5_branch2_7 = getattr(getattr(self.stage3, "5").branch2, "7")(stage3_5_branch2_6);  stage3_5_branch2_6 = None
    cat_9 = torch.cat((getitem_50, stage3_5_branch2_7), dim = 1);  getitem_50 = stage3_5_branch2_7 = None
    size_9 = cat_9.size()
    getitem_52 = size_9[0]
    getitem_53 = size_9[1]
    getitem_54 = size_9[2]
    getitem_55 = size_9[3];  size_9 = None
    floordiv_9 = getitem_53 // 2
    view_18 = cat_9.view(getitem_52, 2, floordiv_9, getitem_54, getitem_55);  cat_9 = floordiv_9 = None
    transpose_9 = torch.transpose(view_18, 1, 2);  view_18 = None
    contiguous_9 = transpose_9.contiguous();  transpose_9 = None
    view_19 = contiguous_9.view(getitem_52, getitem_53, getitem_54, getitem_55);  contiguous_9 = getitem_52 = getitem_53 = getitem_54 = getitem_55 = None
    chunk_8 = view_19.chunk(2, dim = 1);  view_19 = None
    getitem_56 = chunk_8[0]
    getitem_57 = chunk_8[1];  chunk_8 = None
    stage3_6_branch2_0 = getattr(getattr(self.stage3, "6").branch2, "0")(getitem_57);  getitem_57 = None
    stage3_6_branch2_1 = getattr(getattr(self.stage3, "6").branch2, "1")(stage3_6_branch2_0);  stage3_6_branch2_0 = None
    stage3_6_branch2_2 = getattr(getattr(self.stage3, "6").branch2, "2")(stage3_6_branch2_1);  stage3_6_branch2_1 = None
    stage3_6_branch2_3 = getattr(getattr(self.stage3, "6").branch2, "3")(stage3_6_branch2_2);  stage3_6_branch2_2 = None
    stage3_6_branch2_4 = getattr(getattr(self.stage3, "6").branch2, "4")(stage3_6_branch2_3);  stage3_6_branch2_3 = None
    stage3_6_branch2_5 = getattr(getattr(self.stage3, "6").branch2, "5")(stage3_6_branch2_4);  stage3_6_branch2_4 = None
    stage3_6_branch2_6 = getattr(getattr(self.stage3, "6").branch2, "6")(stage3_6_branch2_5);  stage3_6_branch2_5 = None
    stage3_6_branch2_7 = getattr(getattr(self.stage3, "6").branch2, "7")(stage3_6_branch2_6);  stage3_6_branch2_6 = None
    cat_10 = torch.cat((getitem_56, stage3_6_branch2_7), dim = 1);  getitem_56 = stage3_6_branch2_7 = None
    size_10 = cat_10.size()
    getitem_58 = size_10[0]
    getitem_59 = size_10[1]
    getitem_60 = size_10[2]
    getitem_61 = size_10[3];  size_10 = None
    floordiv_10 = getitem_59 // 2
    view_20 = cat_10.view(getitem_58, 2, floordiv_10, getitem_60, getitem_61);  cat_10 = floordiv_10 = None
    transpose_10 = torch.transpose(view_20, 1, 2);  view_20 = None
    contiguous_10 = transpose_10.contiguous();  transpose_10 = None
    view_21 = contiguous_10.view(getitem_58, getitem_59, getitem_60, getitem_61);  contiguous_10 = getitem_58 = getitem_59 = getitem_60 = getitem_61 = None
    chunk_9 = view_21.chunk(2, dim = 1);  view_21 = None
    getitem_62 = chunk_9[0]
    getitem_63 = chunk_9[1];  chunk_9 = None
    stage3_7_branch2_0 = getattr(getattr(self.stage3, "7").branch2, "0")(getitem_63);  getitem_63 = None
    stage3_7_branch2_1 = getattr(getattr(self.stage3, "7").branch2, "1")(stage3_7_branch2_0);  stage3_7_branch2_0 = None
    stage3_7_branch2_2 = getattr(getattr(self.stage3, "7").branch2, "2")(stage3_7_branch2_1);  stage3_7_branch2_1 = None
    stage3_7_branch2_3 = getattr(getattr(self.stage3, "7").branch2, "3")(stage3_7_branch2_2);  stage3_7_branch2_2 = None
    stage3_7_branch2_4 = getattr(getattr(self.stage3, "7").branch2, "4")(stage3_7_branch2_3);  stage3_7_branch2_3 = None
    stage3_7_branch2_5 = getattr(getattr(self.stage3, "7").branch2, "5")(stage3_7_branch2_4);  stage3_7_branch2_4 = None
    stage3_7_branch2_6 = getattr(getattr(self.stage3, "7").branch2, "6")(stage3_7_branch2_5);  stage3_7_branch2_5 = None
    stage3_7_branch2_7 = getattr(getattr(self.stage3, "7").branch2, "7")(stage3_7_branch2_6);  stage3_7_branch2_6 = None
    cat_11 = torch.cat((getitem_62, stage3_7_branch2_7), dim = 1);  getitem_62 = stage3_7_branch2_7 = None
    size_11 = cat_11.size()
    getitem_64 = size_11[0]
    getitem_65 = size_11[1]
    getitem_66 = size_11[2]
    getitem_67 = size_11[3];  size_11 = None
    floordiv_11 = getitem_65 // 2
    view_22 = cat_11.view(getitem_64, 2, floordiv_11, getitem_66, getitem_67);  cat_11 = floordiv_11 = None
    transpose_11 = torch.transpose(view_22, 1, 2);  view_22 = None
    contiguous_11 = transpose_11.contiguous();  transpose_11 = None
    view_23 = contiguous_11.view(getitem_64, getitem_65, getitem_66, getitem_67);  contiguous_11 = getitem_64 = getitem_65 = getitem_66 = getitem_67 = None
    stage4_0_branch1_0 = getattr(getattr(self.stage4, "0").branch1, "0")(view_23)
    stage4_0_branch1_1 = getattr(getattr(self.stage4, "0").branch1, "1")(stage4_0_branch1_0);  stage4_0_branch1_0 = None
    stage4_0_branch1_2 = getattr(getattr(self.stage4, "0").branch1, "2")(stage4_0_branch1_1);  stage4_0_branch1_1 = None
    stage4_0_branch1_3 = getattr(getattr(self.stage4, "0").branch1, "3")(stage4_0_branch1_2);  stage4_0_branch1_2 = None
    stage4_0_branch1_4 = getattr(getattr(self.stage4, "0").branch1, "4")(stage4_0_branch1_3);  stage4_0_branch1_3 = None
    stage4_0_branch2_0 = getattr(getattr(self.stage4, "0").branch2, "0")(view_23);  view_23 = None
    stage4_0_branch2_1 = getattr(getattr(self.stage4, "0").branch2, "1")(stage4_0_branch2_0);  stage4_0_branch2_0 = None
    stage4_0_branch2_2 = getattr(getattr(self.stage4, "0").branch2, "2")(stage4_0_branch2_1);  stage4_0_branch2_1 = None
    stage4_0_branch2_3 = getattr(getattr(self.stage4, "0").branch2, "3")(stage4_0_branch2_2);  stage4_0_branch2_2 = None
    stage4_0_branch2_4 = getattr(getattr(self.stage4, "0").branch2, "4")(stage4_0_branch2_3);  stage4_0_branch2_3 = None
    stage4_0_branch2_5 = getattr(getattr(self.stage4, "0").branch2, "5")(stage4_0_branch2_4);  stage4_0_branch2_4 = None
    stage4_0_branch2_6 = getattr(getattr(self.stage4, "0").branch2, "6")(stage4_0_branch2_5);  stage4_0_branch2_5 = None
    stage4_0_branch2_7 = getattr(getattr(self.stage4, "0").branch2, "7")(stage4_0_branch2_6);  stage4_0_branch2_6 = None
    cat_12 = torch.cat((stage4_0_branch1_4, stage4_0_branch2_7), dim = 1);  stage4_0_branch1_4 = stage4_0_branch2_7 = None
    size_12 = cat_12.size()
    getitem_68 = size_12[0]
    getitem_69 = size_12[1]
    getitem_70 = size_12[2]
    getitem_71 = size_12[3];  size_12 = None
    floordiv_12 = getitem_69 // 2
    view_24 = cat_12.view(getitem_68, 2, floordiv_12, getitem_70, getitem_71);  cat_12 = floordiv_12 = None
    transpose_12 = torch.transpose(view_24, 1, 2);  view_24 = None
    contiguous_12 = transpose_12.contiguous();  transpose_12 = None
    view_25 = contiguous_12.view(getitem_68, getitem_69, getitem_70, getitem_71);  contiguous_12 = getitem_68 = getitem_69 = getitem_70 = getitem_71 = None
    chunk_10 = view_25.chunk(2, dim = 1);  view_25 = None
    getitem_72 = chunk_10[0]
    getitem_73 = chunk_10[1];  chunk_10 = None
    stage4_1_branch2_0 = getattr(getattr(self.stage4, "1").branch2, "0")(getitem_73);  getitem_73 = None
    stage4_1_branch2_1 = getattr(getattr(self.stage4, "1").branch2, "1")(stage4_1_branch2_0);  stage4_1_branch2_0 = None
    stage4_1_branch2_2 = getattr(getattr(self.stage4, "1").branch2, "2")(stage4_1_branch2_1);  stage4_1_branch2_1 = None
    stage4_1_branch2_3 = getattr(getattr(self.stage4, "1").branch2, "3")(stage4_1_branch2_2);  stage4_1_branch2_2 = None
    stage4_1_branch2_4 = getattr(getattr(self.stage4, "1").branch2, "4")(stage4_1_branch2_3);  stage4_1_branch2_3 = None
    stage4_1_branch2_5 = getattr(getattr(self.stage4, "1").branch2, "5")(stage4_1_branch2_4);  stage4_1_branch2_4 = None
    stage4_1_branch2_6 = getattr(getattr(self.stage4, "1").branch2, "6")(stage4_1_branch2_5);  stage4_1_branch2_5 = None
    stage4_1_branch2_7 = getattr(getattr(self.stage4, "1").branch2, "7")(stage4_1_branch2_6);  stage4_1_branch2_6 = None
    cat_13 = torch.cat((getitem_72, stage4_1_branch2_7), dim = 1);  getitem_72 = stage4_1_branch2_7 = None
    size_13 = cat_13.size()
    getitem_74 = size_13[0]
    getitem_75 = size_13[1]
    getitem_76 = size_13[2]
    getitem_77 = size_13[3];  size_13 = None
    floordiv_13 = getitem_75 // 2
    view_26 = cat_13.view(getitem_74, 2, floordiv_13, getitem_76, getitem_77);  cat_13 = floordiv_13 = None
    transpose_13 = torch.transpose(view_26, 1, 2);  view_26 = None
    contiguous_13 = transpose_13.contiguous();  transpose_13 = None
    view_27 = contiguous_13.view(getitem_74, getitem_75, getitem_76, getitem_77);  contiguous_13 = getitem_74 = getitem_75 = getitem_76 = getitem_77 = None
    chunk_11 = view_27.chunk(2, dim = 1);  view_27 = None
    getitem_78 = chunk_11[0]
    getitem_79 = chunk_11[1];  chunk_11 = None
    stage4_2_branch2_0 = getattr(getattr(self.stage4, "2").branch2, "0")(getitem_79);  getitem_79 = None
    stage4_2_branch2_1 = getattr(getattr(self.stage4, "2").branch2, "1")(stage4_2_branch2_0);  stage4_2_branch2_0 = None
    stage4_2_branch2_2 = getattr(getattr(self.stage4, "2").branch2, "2")(stage4_2_branch2_1);  stage4_2_branch2_1 = None
    stage4_2_branch2_3 = getattr(getattr(self.stage4, "2").branch2, "3")(stage4_2_branch2_2);  stage4_2_branch2_2 = None
    stage4_2_branch2_4 = getattr(getattr(self.stage4, "2").branch2, "4")(stage4_2_branch2_3);  stage4_2_branch2_3 = None
    stage4_2_branch2_5 = getattr(getattr(self.stage4, "2").branch2, "5")(stage4_2_branch2_4);  stage4_2_branch2_4 = None
    stage4_2_branch2_6 = getattr(getattr(self.stage4, "2").branch2, "6")(stage4_2_branch2_5);  stage4_2_branch2_5 = None
    stage4_2_branch2_7 = getattr(getattr(self.stage4, "2").branch2, "7")(stage4_2_branch2_6);  stage4_2_branch2_6 = None
    cat_14 = torch.cat((getitem_78, stage4_2_branch2_7), dim = 1);  getitem_78 = stage4_2_branch2_7 = None
    size_14 = cat_14.size()
    getitem_80 = size_14[0]
    getitem_81 = size_14[1]
    getitem_82 = size_14[2]
    getitem_83 = size_14[3];  size_14 = None
    floordiv_14 = getitem_81 // 2
    view_28 = cat_14.view(getitem_80, 2, floordiv_14, getitem_82, getitem_83);  cat_14 = floordiv_14 = None
    transpose_14 = torch.transpose(view_28, 1, 2);  view_28 = None
    contiguous_14 = transpose_14.contiguous();  transpose_14 = None
    view_29 = contiguous_14.view(getitem_80, getitem_81, getitem_82, getitem_83);  contiguous_14 = getitem_80 = getitem_81 = getitem_82 = getitem_83 = None
    chunk_12 = view_29.chunk(2, dim = 1);  view_29 = None
    getitem_84 = chunk_12[0]
    getitem_85 = chunk_12[1];  chunk_12 = None
    stage4_3_branch2_0 = getattr(getattr(self.stage4, "3").branch2, "0")(getitem_85);  getitem_85 = None
    stage4_3_branch2_1 = getattr(getattr(self.stage4, "3").branch2, "1")(stage4_3_branch2_0);  stage4_3_branch2_0 = None
    stage4_3_branch2_2 = getattr(getattr(self.stage4, "3").branch2, "2")(stage4_3_branch2_1);  stage4_3_branch2_1 = None
    stage4_3_branch2_3 = getattr(getattr(self.stage4, "3").branch2, "3")(stage4_3_branch2_2);  stage4_3_branch2_2 = None
    stage4_3_branch2_4 = getattr(getattr(self.stage4, "3").branch2, "4")(stage4_3_branch2_3);  stage4_3_branch2_3 = None
    stage4_3_branch2_5 = getattr(getattr(self.stage4, "3").branch2, "5")(stage4_3_branch2_4);  stage4_3_branch2_4 = None
    stage4_3_branch2_6 = getattr(getattr(self.stage4, "3").branch2, "6")(stage4_3_branch2_5);  stage4_3_branch2_5 = None
    stage4_3_branch2_7 = getattr(getattr(self.stage4, "3").branch2, "7")(stage4_3_branch2_6);  stage4_3_branch2_6 = None
    cat_15 = torch.cat((getitem_84, stage4_3_branch2_7), dim = 1);  getitem_84 = stage4_3_branch2_7 = None
    size_15 = cat_15.size()
    getitem_86 = size_15[0]
    getitem_87 = size_15[1]
    getitem_88 = size_15[2]
    getitem_89 = size_15[3];  size_15 = None
    floordiv_15 = getitem_87 // 2
    view_30 = cat_15.view(getitem_86, 2, floordiv_15, getitem_88, getitem_89);  cat_15 = floordiv_15 = None
    transpose_15 = torch.transpose(view_30, 1, 2);  view_30 = None
    contiguous_15 = transpose_15.contiguous();  transpose_15 = None
    view_31 = contiguous_15.view(getitem_86, getitem_87, getitem_88, getitem_89);  contiguous_15 = getitem_86 = getitem_87 = getitem_88 = getitem_89 = None
    conv5_0 = getattr(self.conv5, "0")(view_31);  view_31 = None
    conv5_1 = getattr(self.conv5, "1")(conv5_0);  conv5_0 = None
    conv5_2 = getattr(self.conv5, "2")(conv5_1);  conv5_1 = None
    mean = conv5_2.mean([2, 3]);  conv5_2 = None
    fc = self.fc(mean);  mean = None
    return fc
