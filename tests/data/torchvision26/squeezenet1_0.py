# torchvision 0.21.0 models.squeezenet1_0(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx

def forward(self, x : torch.Tensor) -> torch.Tensor:
    features_0 = getattr(self.features, "0")(x);  x = None
    features_1 = getattr(self.features, "1")(features_0);  features_0 = None
    features_2 = getattr(self.features, "2")(features_1);  features_1 = None
    features_3_squeeze = getattr(self.features, "3").squeeze(features_2);  features_2 = None
    features_3_squeeze_activation = getattr(self.features, "3").squeeze_activation(features_3_squeeze);  features_3_squeeze = None
    features_3_expand1x1 = getattr(self.features, "3").expand1x1(features_3_squeeze_activation)
    features_3_expand1x1_activation = getattr(self.features, "3").expand1x1_activation(features_3_expand1x1);  features_3_expand1x1 = None
    features_3_expand3x3 = getattr(self.features, "3").expand3x3(features_3_squeeze_activation);  features_3_squeeze_activation = None
    features_3_expand3x3_activation = getattr(self.features, "3").expand3x3_activation(features_3_expand3x3);  features_3_expand3x3 = None
    cat = torch.cat([features_3_expand1x1_activation, features_3_expand3x3_activation], 1);  features_3_expand1x1_activation = features_3_expand3x3_activation = None
    features_4_squeeze = getattr(self.features, "4").squeeze(cat);  cat = None
    features_4_squeeze_activation = getattr(self.features, "4").squeeze_activation(features_4_squeeze);  features_4_squeeze = None
    features_4_expand1x1 = getattr(self.features, "4").expand1x1(features_4_squeeze_activation)
    features_4_expand1x1_activation = getattr(self.features, "4").expand1x1_activation(features_4_expand1x1);  features_4_expand1x1 = None
    features_4_expand3x3 = getattr(self.features, "4").expand3x3(features_4_squeeze_activation);  features_4_squeeze_activation = None
    features_4_expand3x3_activation = getattr(self.features, "4").expand3x3_activation(features_4_expand3x3);  features_4_expand3x3 = None
    cat_1 = torch.cat([features_4_expand1x1_activation, features_4_expand3x3_activation], 1);  features_4_expand1x1_activation = features_4_expand3x3_activation = None
    features_5_squeeze = getattr(self.features, "5").squeeze(cat_1);  cat_1 = None
    features_5_squeeze_activation = getattr(self.features, "5").squeeze_activation(features_5_squeeze);  features_5_squeeze = None
    features_5_expand1x1 = getattr(self.features, "5").expand1x1(features_5_squeeze_activation)
    features_5_expand1x1_activation = getattr(self.features, "5").expand1x1_activation(features_5_expand1x1);  features_5_expand1x1 = None
    features_5_expand3x3 = getattr(self.features, "5").expand3x3(features_5_squeeze_activation);  features_5_squeeze_activation = None
    features_5_expand3x3_activation = getattr(self.features, "5").expand3x3_activation(features_5_expand3x3);  features_5_expand3x3 = None
    cat_2 = torch.cat([features_5_expand1x1_activation, features_5_expand3x3_activation], 1);  features_5_expand1x1_activation = features_5_expand3x3_activation = None
    features_6 = getattr(self.features, "6")(cat_2);  cat_2 = None
    features_7_squeeze = getattr(self.features, "7").squeeze(features_6);  features_6 = None
    features_7_squeeze_activation = getattr(self.features, "7").squeeze_activation(features_7_squeeze);  features_7_squeeze = None
    features_7_expand1x1 = getattr(self.features, "7").expand1x1(features_7_squeeze_activation)
    features_7_expand1x1_activation = getattr(self.features, "7").expand1x1_activation(features_7_expand1x1);  features_7_expand1x1 = None
    features_7_expand3x3 = getattr(self.features, "7").expand3x3(features_7_squeeze_activation);  features_7_squeeze_activation = None
    features_7_expand3x3_activation = getattr(self.features, "7").expand3x3_activation(features_7_expand3x3);  features_7_expand3x3 = None
    cat_3 = torch.cat([features_7_expand1x1_activation, features_7_expand3x3_activation], 1);  features_7_expand1x1_activation = features_7_expand3x3_activation = None
    features_8_squeeze = getattr(self.features, "8").squeeze(cat_3);  cat_3 = None
    features_8_squeeze_activation = getattr(self.features, "8").squeeze_activation(features_8_squeeze);  features_8_squeeze = None
    features_8_expand1x1 = getattr(self.features, "8").expand1x1(features_8_squeeze_activation)
    features_8_expand1x1_activation = getattr(self.features, "8").expand1x1_activation(features_8_expand1x1);  features_8_expand1x1 = None
    features_8_expand3x3 = getattr(self.features, "8").expand3x3(features_8_squeeze_activation);  features_8_squeeze_activation = None
    features_8_expand3x3_activation = getattr(self.features, "8").expand3x3_activation(features_8_expand3x3);  features_8_expand3x3 = None
    cat_4 = torch.cat([features_8_expand1x1_activation, features_8_expand3x3_activation], 1);  features_8_expand1x1_activation = features_8_expand3x3_activation = None
    features_9_squeeze = getattr(self.features, "9").squeeze(cat_4);  cat_4 = None
    features_9_squeeze_activation = getattr(self.features, "9").squeeze_activation(features_9_squeeze);  features_9_squeeze = None
    features_9_expand1x1 = getattr(self.features, "9").expand1x1(features_9_squeeze_activation)
    features_9_expand1x1_activation = getattr(self.features, "9").expand1x1_activation(features_9_expand1x1);  features_9_expand1x1 = None
    features_9_expand3x3 = getattr(self.features, "9").expand3x3(features_9_squeeze_activation);  features_9_squeeze_activation = None
    features_9_expand3x3_activation = getattr(self.features, "9").expand3x3_activation(features_9_expand3x3);  features_9_expand3x3 = None
    cat_5 = torch.cat([features_9_expand1x1_activation, features_9_expand3x3_activation], 1);  features_9_expand1x1_activation = features_9_expand3x3_activation = None
    features_10_squeeze = getattr(self.features, "10").squeeze(cat_5);  cat_5 = None
    features_10_squeeze_activation = getattr(self.features, "10").squeeze_activation(features_10_squeeze);  features_10_squeeze = None
    features_10_expand1x1 = getattr(self.features, "10").expand1x1(features_10_squeeze_activation)
    features_10_expand1x1_activation = getattr(self.features, "10").expand1x1_activation(features_10_expand1x1);  features_10_expand1x1 = None
    features_10_expand3x3 = getattr(self.features, "10").expand3x3(features_10_squeeze_activation);  features_10_squeeze_activation = None
    features_10_expand3x3_activation = getattr(self.features, "10").expand3x3_activation(features_10_expand3x3);  features_10_expand3x3 = None
    cat_6 = torch.cat([features_10_expand1x1_activation, features_10_expand3x3_activation], 1);  features_10_expand1x1_activation = features_10_expand3x3_activation = None
    features_11 = getattr(self.features, "11")(cat_6);  cat_6 = None
    features_12_squeeze = getattr(self.features, "12").squeeze(features_11);  features_11 = None
    features_12_squeeze_activation = getattr(self.features, "12").squeeze_activation(features_12_squeeze);  features_12_squeeze = None
    features_12_expand1x1 = getattr(self.features, "12").expand1x1(features_12_squeeze_activation)
    features_12_expand1x1_activation = getattr(self.features, "12").expand1x1_activation(features_12_expand1x1);  features_12_expand1x1 = None
    features_12_expand3x3 = getattr(self.features, "12").expand3x3(features_12_squeeze_activation);  features_12_squeeze_activation = None
    features_12_expand3x3_activation = getattr(self.features, "12").expand3x3_activation(features_12_expand3x3);  features_12_expand3x3 = None
    cat_7 = torch.cat([features_12_expand1x1_activation, features_12_expand3x3_activation], 1);  features_12_expand1x1_activation = features_12_expand3x3_activation = None
    classifier_0 = getattr(self.classifier, "0")(cat_7);  cat_7 = None
    classifier_1 = getattr(self.classifier, "1")(classifier_0);  classifier_0 = None
    classifier_2 = getattr(self.classifier, "2")(classifier_1);  classifier_1 = None
    classifier_3 = getattr(self.classifier, "3")(classifier_2);  classifier_2 = None
    flatten = torch.flatten(classifier_3, 1);  classifier_3 = None
    return flatten
