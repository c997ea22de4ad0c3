import torch


def forward(self, x):
    special_expit = torch._C._special.special_expit(x);  x = None
    fft_fft = torch._C._fft.fft_fft(special_expit);  special_expit = None
    linalg_norm = torch._C._linalg.linalg_norm(fft_fft);  fft_fft = None
    _threshold = torch.nn.functional._threshold(linalg_norm, 0.1, 0.0);  linalg_norm = None
    return _threshold
