import torch


# A list that holds itself, printed: Python prints `[[...]]`; Graft's
# walk went round until the stack overflowed (now an error).
def forward(x):
    a = []
    a.append(a)
    b = {"k": a}
    return x + len(str(b)) + (a == [a])
