#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gen-nested.py: writes a module shaped like a deep residual network, as
# gm.code prints one (a top-level `def forward(self, x)`), whose graph has
# about N nodes in nested module scopes: `stages.S.blocks.B.conv1` and so
# on, ten stages of residual blocks of seven nodes each (five submodule
# calls, an add and a second relu).  For the editor's large-graph figures:
# the graphs bench-trace uses are flat and have nothing to fold.
#
#   gen-nested.py N [-o FILE]

import argparse
import sys

STAGES = 10
BLOCK_NODES = 7


def generate(n_nodes):
    blocks = max(1, (n_nodes - 4) // (STAGES * BLOCK_NODES))
    out = ["import torch", "", "", "def forward(self, x):", "    h = self.stem(x)"]
    for s in range(STAGES):
        for b in range(blocks):
            m = f'getattr(getattr(self.stages, "{s}").blocks, "{b}")'
            out += [
                f"    a = {m}.conv1(h)",
                f"    a = {m}.bn1(a)",
                f"    a = {m}.relu(a)",
                f"    a = {m}.conv2(a)",
                f"    a = {m}.bn2(a)",
                "    a = a + h",
                f"    h = {m}.relu(a)",
            ]
    out += ["    h = torch.flatten(h, 1)", "    return self.head(h)", ""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("n", type=int)
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    text = generate(args.n)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
