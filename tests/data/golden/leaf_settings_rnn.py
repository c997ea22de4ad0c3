import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = torch.nn.RNN(8, 6, 2, nonlinearity="relu", bidirectional=True)
        self.rnn2 = torch.nn.RNN(8, 6, bias=False)
        self.gru = torch.nn.GRU(8, 6)

    def forward(self, x):
        y, h = self.rnn(x)
        names = [n for n, _ in self.named_parameters()]
        return (y, h, self.rnn.nonlinearity, self.rnn.mode, self.rnn.hidden_size, self.rnn.num_layers,
                self.rnn2.nonlinearity, self.rnn2.bias, names, self.rnn.weight_hh_l1_reverse + 1)
