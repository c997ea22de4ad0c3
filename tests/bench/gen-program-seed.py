#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gen-program-seed.py: exports, with torch 2.6 and torchvision, the small
program that gen-program-big.py scales up: a stem convolution, `stages` (a
ModuleList) of 2 Sequentials of 2 Sequentials of 2 torchvision BasicBlocks
of 8 channels, and a linear head, in eval mode (161 nodes; a block is 19:
12 parameters and buffers, 7 computing nodes).  Run from the top of the
tree so that the stack traces name this file by its relative path:

    ../shared/tools/torch26 python3 tests/bench/gen-program-seed.py tests/bench/program-seed.pt2

The archive is committed; run this again only to change the model.
"""
import sys

import torch

NAME = "tests/bench/gen-program-seed.py"
from torchvision.models.resnet import BasicBlock


class Net(torch.nn.Module):
    def __init__(self, stages, groups, blocks, width=8):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, width, 3, padding=1)
        self.stages = torch.nn.ModuleList(
            [torch.nn.Sequential(*[torch.nn.Sequential(*[BasicBlock(width, width)
                                                         for _ in range(blocks)])
                                   for _ in range(groups)])
             for _ in range(stages)])
        self.fc = torch.nn.Linear(width, 10)

    def forward(self, x):
        x = self.stem(x)
        for stage in self.stages:
            x = stage(x)
        return self.fc(x.mean((2, 3)))


def main():
    torch.manual_seed(0)
    model = Net(2, 2, 2).eval()
    ep = torch.export.export(model, (torch.randn(1, 3, 8, 8),))
    torch.export.save(ep, sys.argv[1])
    print("%d nodes" % len(ep.graph.nodes))


if __name__ == "__main__":
    if __file__ != NAME:
        # Run again as NAME, so that the stack traces torch records (and
        # the generated programs repeat) do not name this checkout.
        exec(compile(open(__file__).read(), NAME, "exec"), {"__name__": "__main__", "__file__": NAME})
    else:
        main()
