# relu is idempotent: relu(relu(x)) -> relu(x).  On a chain of eight relus each pass folds the
# pairs that do not overlap, so the chain halves per pass (8 -> 4 -> 2 -> 1) and the loop
# needs a fourth pass to see that nothing is left.
# Cases: collapse_fixpoint (--fixpoint 4: converges, no warning), collapse_fixpoint_hit
# (--fixpoint 3: the third pass still replaced one match, so the warning line is printed even
# though a fourth pass would have replaced nothing).
import torch


def relu_relu(x):
    return torch.relu(torch.relu(x))


def relu_once(x):
    return torch.relu(x)


RULES = [(relu_relu, relu_once)]
