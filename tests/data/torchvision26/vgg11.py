# torchvision 0.21.0 models.vgg11(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx

def forward(self, x : torch.Tensor) -> torch.Tensor:
    features_0 = getattr(self.features, "0")(x);  x = None
    features_1 = getattr(self.features, "1")(features_0);  features_0 = None
    features_2 = getattr(self.features, "2")(features_1);  features_1 = None
    features_3 = getattr(self.features, "3")(features_2);  features_2 = None
    features_4 = getattr(self.features, "4")(features_3);  features_3 = None
    features_5 = getattr(self.features, "5")(features_4);  features_4 = None
    features_6 = getattr(self.features, "6")(features_5);  features_5 = None
    features_7 = getattr(self.features, "7")(features_6);  features_6 = None
    features_8 = getattr(self.features, "8")(features_7);  features_7 = None
    features_9 = getattr(self.features, "9")(features_8);  features_8 = None
    features_10 = getattr(self.features, "10")(features_9);  features_9 = None
    features_11 = getattr(self.features, "11")(features_10);  features_10 = None
    features_12 = getattr(self.features, "12")(features_11);  features_11 = None
    features_13 = getattr(self.features, "13")(features_12);  features_12 = None
    features_14 = getattr(self.features, "14")(features_13);  features_13 = None
    features_15 = getattr(self.features, "15")(features_14);  features_14 = None
    features_16 = getattr(self.features, "16")(features_15);  features_15 = None
    features_17 = getattr(self.features, "17")(features_16);  features_16 = None
    features_18 = getattr(self.features, "18")(features_17);  features_17 = None
    features_19 = getattr(self.features, "19")(features_18);  features_18 = None
    features_20 = getattr(self.features, "20")(features_19);  features_19 = None
    avgpool = self.avgpool(features_20);  features_20 = None
    flatten = torch.flatten(avgpool, 1);  avgpool = None
    classifier_0 = getattr(self.classifier, "0")(flatten);  flatten = None
    classifier_1 = getattr(self.classifier, "1")(classifier_0);  classifier_0 = None
    classifier_2 = getattr(self.classifier, "2")(classifier_1);  classifier_1 = None
    classifier_3 = getattr(self.classifier, "3")(classifier_2);  classifier_2 = None
    classifier_4 = getattr(self.classifier, "4")(classifier_3);  classifier_3 = None
    classifier_5 = getattr(self.classifier, "5")(classifier_4);  classifier_4 = None
    classifier_6 = getattr(self.classifier, "6")(classifier_5);  classifier_5 = None
    return classifier_6
