#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gen-program.py N -o FILE.pt2: writes a torch.export program of about N
# nodes with torch.export.save: a residual MLP of (N - 2) / 5 blocks,
# `x = x + relu(layers[i](x))`, each block five nodes (two parameters, the
# linear, the relu and the add), plus the input and the output.  Runs under
# torch 2.6 (../shared/tools/torch26 python3 tests/bench/gen-program.py ...);
# the model lives on the meta device, so no weights are computed, and is
# exported without dynamo (strict=False), which takes seconds rather than
# minutes for thousands of layers.
import argparse
import sys

import torch


class Residual(torch.nn.Module):
    def __init__(self, blocks, width):
        super().__init__()
        self.layers = torch.nn.ModuleList(torch.nn.Linear(width, width) for _ in range(blocks))

    def forward(self, x):
        for layer in self.layers:
            x = x + torch.relu(layer(x))
        return x


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("nodes", type=int)
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--width", type=int, default=8)
    args = parser.parse_args()
    blocks = max(1, (args.nodes - 2) // 5)
    with torch.device("meta"):
        model = Residual(blocks, args.width)
    x = torch.randn(2, args.width, device="meta")
    ep = torch.export.export(model, (x,), strict=False)
    torch.export.save(ep, args.output)
    print(len(ep.graph.nodes), file=sys.stderr)


if __name__ == "__main__":
    main()
