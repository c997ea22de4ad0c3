import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.input = torch.nn.ReLU()
        self.add_1 = torch.nn.ReLU()
        self.relu_01 = torch.nn.ReLU()
        self.seq = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.ReLU())
        self.add = torch.nn.ReLU()
        self.abcdefgh = torch.nn.ReLU()
        self.abcdefghi = torch.nn.ReLU()

    def forward(self, x, input, add_1):
        a = self.input(x)
        b = self.add_1(a) + input
        c = self.relu_01(b) + add_1
        d = self.seq(c) + b
        e = self.add(d) + self.add(d)
        f = self.abcdefgh(e) + self.abcdefghi(e) + torch.relu(e)
        g = f + f + f
        return g
