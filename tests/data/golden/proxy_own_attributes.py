import torch


class ProxyOwnAttributes(torch.nn.Module):
    # Python finds what a torch.fx Proxy (or an Attribute such as x.T) really
    # holds before __getattr__: x.T.root is x, x.T.attr its name, x.T._node
    # None until the getattr node is made.
    def forward(self, x, y):
        a = x.T.root(y)
        b = x.T.root.T + 1
        return a, b, x.T.attr, x.T._node, x.__module__, x.root
