import torch
import torch.nn as nn


class MyErr(Exception):
    pass


def lookup(d, k):
    return d[k]


class M(nn.Module):
    def forward(self, x):
        # __cause__, __context__ and __suppress_context__ of exceptions a
        # raise statement and Python raise, caught as the same objects.
        n = 0
        try:
            try:
                raise KeyError("k")
            except KeyError as e:
                raise MyErr("chained") from e
        except MyErr as e:
            n = n * 7 + isinstance(e.__cause__, KeyError) + (e.__context__ is e.__cause__)
        try:
            try:
                raise KeyError("k")
            except KeyError:
                raise MyErr("implicit")
        except MyErr as e:
            n = n * 7 + isinstance(e.__context__, KeyError) + (e.__cause__ is None)
        try:
            try:
                raise KeyError("k")
            except KeyError:
                raise MyErr("none") from None
        except MyErr as e:
            n = n * 7 + (e.__cause__ is None) + e.__suppress_context__
        try:
            try:
                raise KeyError("k")
            except KeyError as first:
                lookup({}, "missing")
        except KeyError as e:
            n = n + isinstance(e.__context__, KeyError) + (e.__cause__ is None)
            n = n * 3 + (e.__context__ is first if False else 1)
        try:
            try:
                raise ValueError("a")
            except ValueError as e:
                raise e
        except ValueError as e:
            n = n * 5 + (e.__context__ is None) + (e.__cause__ is None)
        try:
            try:
                raise ValueError("a")
            except ValueError:
                raise
        except ValueError as e:
            n = n * 7 + (e.__context__ is None) + len(e.args)
        try:
            raise MyErr("plain")
        except MyErr as e:
            n = n * 11 + (e.__context__ is None) + (e.__suppress_context__ is False)
        try:
            try:
                raise KeyError("k")
            except KeyError as k:
                try:
                    raise ValueError("v")
                except ValueError as v:
                    raise MyErr("m") from k
        except MyErr as e:
            n = n * 13 + isinstance(e.__context__, ValueError) + isinstance(e.__cause__, KeyError)
            n = n * 2 + isinstance(e.__context__.__context__, KeyError)
        return x + n
