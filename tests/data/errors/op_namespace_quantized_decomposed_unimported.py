import torch


# quantized_decomposed's operators exist once torch.ao.quantization's FX or
# PT2E modules are imported, not with torch alone (Graft printed the call).
def forward(x):
    return torch.ops.quantized_decomposed.quantize_per_tensor(x, 1.0, 0, 0, 255, torch.uint8)
