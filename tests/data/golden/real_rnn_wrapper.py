"""Recurrent encoders: the tuple outputs of LSTM and GRU taken apart."""
from typing import Tuple

import torch
import torch.nn as nn


class SeqEncoder(nn.Module):
    def __init__(self, vocab: int = 50, emb: int = 16, hidden: int = 24, classes: int = 3) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, num_layers=2, batch_first=True, bidirectional=True)
        self.gru = nn.GRU(2 * hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden * 3, classes)

    def forward(self, tokens: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        e = self.embed(tokens)
        seq, (h_n, c_n) = self.lstm(e)
        fwd_last = h_n[-2, :, :]
        bwd_last = h_n[-1]
        g_seq, g_h = self.gru(seq)
        pooled = g_seq.mean(dim=1)
        feats = torch.cat([fwd_last, bwd_last, pooled], dim=-1)
        return self.out(feats), c_n.sum(0) + g_h.squeeze(0).sum()
