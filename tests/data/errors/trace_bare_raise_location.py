import torch


def lookup(d):
    return d['missing']


# A bare `raise` keeps the exception's traceback: Python places it where
# it was first raised, inside lookup() (Graft placed it at the `raise`).
def forward(x):
    try:
        lookup({})
    except KeyError:
        try:
            raise ValueError('inner')
        except ValueError:
            pass
        raise
    return x
