import torch


class M(torch.nn.Module):
    def forward(self, x):
        # Graft traces this forward while it reads it; the name below is
        # undefined, but the syntax error further down is what Python
        # reports, since it compiles the whole file before running it.
        y = undefined_helper(x)
        z = y + 1
        z = z * 2
        z = z - 3
        z = z / 4
        z = z + 5
        z = z * 6
        z = z - 7
        z = z / 8
        z = z + 9
        z = z * 10
        z = z - 11
        z = z / 12
        z = z + 13
        z = z * 14
        z = z - 15
        z = z / 16
        z = z + 17
        z = z * 18
        z = z - 19
        z = z / 20
        z = z + 21
        z = z * 22
        z = z - 23
        z = z / 24
        z = z + 25
        z = z * 26
        z = z - 27
        z = z / 28
        z = z + 29
        w = z + * 30
        return w
