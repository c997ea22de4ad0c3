# RULES grown after its first assignment, as a rules file that collects its rules one at a time
# does: `RULES = [...]`, then `RULES += [...]` and `RULES.append(...)`.  Each statement counts
# where it stands, as Python runs it: the rule set is the three pairs, in that order.
# Case grown (on models/stacked_activations.py, --fixpoint 4): the collapse of
# collapse_rules.py, then the last relu and the sum after it (pass 1, which leaves the collapse
# one relu fewer to fold), then a rule whose op never occurs.  Were RULES read from its
# assignment alone, only the first rule would run.
import torch


def relu_relu(x):
    return torch.relu(torch.relu(x))


def relu_once(x):
    return torch.relu(x)


RULES = [(relu_relu, relu_once)]


def relu_sum(x):
    return torch.relu(x).sum(1)


def clamp_sum(x):
    return torch.clamp(x, min=0).sum(1)


RULES += [(relu_sum, clamp_sum)]


def sigmoid(x):
    return torch.sigmoid(x)


def hard_sigmoid(x):
    return torch.nn.functional.hardsigmoid(x)


RULES.append((sigmoid, hard_sigmoid))
