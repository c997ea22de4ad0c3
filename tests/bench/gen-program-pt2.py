#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gen-program-pt2.py: exports, with torch 2.6 and torchvision, a large
program as a .pt2 archive for the editor's benchmark: a stem convolution,
four Sequentials of BLOCKS/4 torchvision BasicBlocks of 8 channels each, and
a linear head, exported in eval mode (19 nodes a block: 528 blocks give
10,041 nodes), with its module frames and source lines.  Prints how long
torch.export.export and torch.export.load took.

    ../shared/tools/torch26 python3 tests/bench/gen-program-pt2.py BLOCKS OUT.pt2

Exporting 528 blocks takes several minutes.
"""
import sys
import time

import torch
from torchvision.models.resnet import BasicBlock


class Net(torch.nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.layers = torch.nn.ModuleList(
            [torch.nn.Sequential(*[BasicBlock(8, 8) for _ in range(blocks // 4)])
             for _ in range(4)])
        self.fc = torch.nn.Linear(8, 10)

    def forward(self, x):
        x = self.stem(x)
        for layer in self.layers:
            x = layer(x)
        return self.fc(x.mean((2, 3)))


def main():
    blocks, out = int(sys.argv[1]), sys.argv[2]
    model = Net(blocks).eval()
    start = time.time()
    ep = torch.export.export(model, (torch.randn(1, 3, 8, 8),))
    print("export %.1f s, %d nodes" % (time.time() - start, len(ep.graph.nodes)))
    torch.export.save(ep, out)
    start = time.time()
    torch.export.load(out)
    print("torch.export.load %.1f s" % (time.time() - start))


if __name__ == "__main__":
    main()
