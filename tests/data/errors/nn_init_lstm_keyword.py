import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        # LSTM passes its arguments on to RNNBase.__init__
        self.rnn = nn.LSTM(16, 32, bacth_first=True)

    def forward(self, x):
        out, _ = self.rnn(x)
        return out
