import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        x = torch.sigmoid(x) * y + 0
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 1
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 2
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 3
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 4
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 5
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 6
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 7
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 8
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 9
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 10
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 11
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 12
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 13
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 14
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 15
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 16
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 17
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 18
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 19
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 20
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 21
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 22
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 23
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 24
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 25
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 26
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 27
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 28
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 29
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 30
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 31
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 32
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 33
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 34
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 35
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 36
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 37
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 38
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 39
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 40
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 41
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 42
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 43
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 44
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 45
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 46
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 47
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 48
        y = torch.relu(y - x)
        x = torch.sigmoid(x) * y + 49
        y = torch.relu(y - x)
        return x, y


def pattern(a, b):
    return torch.sigmoid(a) * b


def replacement(a, b):
    return torch.addcmul(torch.zeros_like(a), torch.sigmoid(a), b)
