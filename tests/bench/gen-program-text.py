#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gen-program-text.py: writes a torch.export program of about N nodes as print(ep)
prints one (`ExportedProgram:`, the graph module's readable code with shapes
and `# File:` comments, the graph signature), for the editor's benchmark.

    tests/bench/gen-program-text.py N [-o FILE]

The program is a chain of resnet basic blocks of 64 channels (two
convolutions and batch norms in the decomposed form torch.export gives in
eval mode, an add and relus; 25 nodes a block with its parameters and
buffers), in the layout torch 2.6 prints: every parameter and buffer first,
then the user input.  Plain Python 3, no torch; deterministic.
"""
import argparse
import sys

SHAPE = "f32[1, 64, 56, 56]"
RESNET = "/usr/lib/python3/dist-packages/torchvision/models/resnet.py"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nodes", type=int)
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    blocks = max(1, (args.nodes - 2) // 25)
    per_layer = max(1, (blocks + 3) // 4)

    params = []  # (name, annotation, kind, target)
    body = []
    prev = "x"
    n = 0
    for b in range(blocks):
        block = "layer%d.%d" % (1 + b // per_layer, b % per_layer)
        flat = block.replace(".", "_")
        for half in (1, 2):
            conv, bn = "%s.conv%d" % (block, half), "%s.bn%d" % (block, half)
            cw = "p_%s_conv%d_weight" % (flat, half)
            params.append((cw, "f32[64, 64, 3, 3]", "PARAMETER", conv + ".weight"))
            names = {}
            for part, kind in (("weight", "PARAMETER"), ("bias", "PARAMETER"),
                               ("running_mean", "BUFFER"), ("running_var", "BUFFER"),
                               ("num_batches_tracked", "BUFFER")):
                prefix = "p" if kind == "PARAMETER" else "b"
                names[part] = "%s_%s_bn%d_%s" % (prefix, flat, half, part)
                annotation = "i64[]" if part == "num_batches_tracked" else "f32[64]"
                params.append((names[part], annotation, kind, "%s.%s" % (bn, part)))
            line = 92 if half == 1 else 96
            code = "out = self.conv1(x)" if half == 1 else "out = self.conv2(out)"
            body.append("")
            body.append(" # File: %s:%d in forward, code: %s" % (RESNET, line, code))
            c = "convolution_%d" % n if n else "convolution"
            body.append('%s: "%s" = torch.ops.aten.convolution.default(%s, %s, None, [1, 1], '
                        '[1, 1], [1, 1], False, [0, 0], 1);  %s = None'
                        % (c, SHAPE, prev, cw, cw))
            suffix = "_%d" % n if n else ""
            nb = "_native_batch_norm_legit_no_training_default" + suffix
            body.append("")
            body.append(" # File: %s:%d in forward, code: out = self.bn%d(out)"
                        % (RESNET, line + 1, half))
            body.append("%s = torch.ops.aten._native_batch_norm_legit_no_training.default("
                        "%s, %s, %s, %s, %s, 0.1, 1e-05)"
                        % (nb, c, names["weight"], names["bias"], names["running_mean"],
                           names["running_var"]))
            g = "getitem_%d" % (3 * n) if n else "getitem"
            body.append('%s: "%s" = %s[0]' % (g, SHAPE, nb))
            for k in (1, 2):
                unused = "_native_batch_norm_legit_no_training%s_unused_%d" % (
                    "_%d" % n if n else "", k)
                body.append('%s: "f32[64]" = %s[%d];  %s = None' % (unused, nb, k, unused))
            prev = g
            if half == 1:
                r = "relu_%d" % (2 * b) if b else "relu"
                body.append('%s: "%s" = torch.ops.aten.relu.default(%s)' % (r, SHAPE, prev))
                prev = r
            n += 1
        body.append("")
        body.append(" # File: %s:102 in forward, code: out += identity" % RESNET)
        a = "add_%d" % b if b else "add"
        identity = "x" if b == 0 else "relu_%d" % (2 * b - 1)
        body.append('%s: "%s" = torch.ops.aten.add.Tensor(%s, %s)' % (a, SHAPE, prev, identity))
        r = "relu_%d" % (2 * b + 1)
        body.append('%s: "%s" = torch.ops.aten.relu.default(%s)' % (r, SHAPE, a))
        prev = r

    out = ["ExportedProgram:", "    class GraphModule(torch.nn.Module):"]
    signature = ", ".join('%s: "%s"' % (p[0], p[1]) for p in params)
    out.append('        def forward(self, %s, x: "%s"):' % (signature, SHAPE))
    for line in body:
        out.append(("            " + line) if line else "            ")
    out.append("            return (%s,)" % prev)
    out.append("            ")
    specs = []
    for name, _, kind, target in params:
        number = 2 if kind == "PARAMETER" else 3
        persistent = "None" if kind == "PARAMETER" else "True"
        specs.append("InputSpec(kind=<InputKind.%s: %d>, arg=TensorArgument(name='%s'), "
                     "target='%s', persistent=%s)" % (kind, number, name, target, persistent))
    specs.append("InputSpec(kind=<InputKind.USER_INPUT: 1>, arg=TensorArgument(name='x'), "
                 "target=None, persistent=None)")
    out.append("Graph signature: ExportGraphSignature(input_specs=[%s], output_specs=["
               "OutputSpec(kind=<OutputKind.USER_OUTPUT: 1>, arg=TensorArgument(name='%s'), "
               "target=None)])" % (", ".join(specs), prev))
    out.append("Range constraints: {}")
    text = "\n".join(out) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
