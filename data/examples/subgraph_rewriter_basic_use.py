"""Rewriting a subgraph with torch.fx, the example Graft is built around.

torch.fx turns a module's forward into a graph of operations.
`replace_pattern(gm, pattern, replacement)` then looks for every place where
the operations of `pattern` appear in that graph, connected the same way, and
swaps each one for the operations of `replacement`.  Nodes are matched by how
data flows between them, never by their names: `pattern` below calls its
inputs `a1` and `a2`, yet it matches code that reads `w1` and `w2`.  Matches
never share nodes; when two would, the first one wins.

Run it with torch installed (python3 subgraph_rewriter_basic_use.py) to see
torch.fx's own result, or open it with Graft, which reads the same file
without running it:

    graft rewrite subgraph_rewriter_basic_use.py
"""
import torch
from torch.fx import replace_pattern, symbolic_trace


class M(torch.nn.Module):
    """The module to rewrite.  Its forward computes the same subexpression,
    neg(w1) concatenated with w2 and summed, twice."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w1, w2):
        val1 = torch.neg(w1)
        m1 = torch.cat([val1, w2]).sum()
        val2 = torch.neg(w1)
        m2 = torch.cat([val2, w2]).sum()
        return x + torch.max(m1) + torch.max(m2)


def pattern(a1, a2):
    """What to look for: negate the first input, concatenate it with the
    second, sum.  The parameters stand for whatever values flow in; only the
    operations that lead to the returned value belong to the pattern."""
    val1 = torch.neg(a1)
    return torch.cat([val1, a2]).sum()


def replacement(w1, w2):
    """What to put in its place.  It takes the pattern's inputs, in the same
    order, and its result takes over every use of the pattern's result."""
    return torch.stack([w1, w2])


if __name__ == "__main__":
    traced = symbolic_trace(M())
    replace_pattern(traced, pattern, replacement)
    # Both occurrences are replaced; the printed code is:
    #
    # def forward(self, x, w1, w2):
    #     stack = torch.stack([w1, w2])
    #     max_1 = torch.max(stack);  stack = None
    #     add = x + max_1;  x = max_1 = None
    #     stack_1 = torch.stack([w1, w2]);  w1 = w2 = None
    #     max_2 = torch.max(stack_1);  stack_1 = None
    #     add_1 = add + max_2;  add = max_2 = None
    #     return add_1
    print(traced.code)
