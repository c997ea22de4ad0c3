import torch
import torch.nn as nn
import torch.fx
from torch.fx.proxy import TraceError


class MyErr(Exception):
    pass


class SubErr(MyErr):
    pass


class NotErr:
    pass


def make():
    errs = (KeyError, MyErr)
    return errs


class M(nn.Module):
    def forward(self, x):
        # An except clause is evaluated when an exception reaches it: its
        # attributes (torch.fx.proxy.TraceError), names the code binds
        # (a tuple, an alias), a file's exception classes.
        n = 0
        try:
            raise MyErr("x")
        except MyErr as e:
            n = n + len(e.args[0])
        try:
            raise SubErr("yy")
        except MyErr as e:
            n = n * 2 + len(str(e))
        try:
            raise ValueError("v")
        except (KeyError, torch.fx.proxy.TraceError):
            n = n + 100
        except ValueError as e:
            n = n * 3 + isinstance(e, ValueError)
        try:
            raise torch.fx.proxy.TraceError("t")
        except (ValueError, torch.fx.proxy.TraceError) as e:
            n = n * 5 + isinstance(e, ValueError) + isinstance(e, torch.fx.proxy.TraceError)
        errs = make()
        E = ValueError
        try:
            raise MyErr("m")
        except errs as e:
            n = n + 1 + isinstance(e, errs)
        try:
            raise ValueError("v")
        except E:
            n = n * 2 + 1
        try:
            if x.sum() > 0:
                n = n + 100
        except TraceError as e:
            n = n * 3 + isinstance(e, ValueError) + isinstance(e, torch.fx.proxy.TraceError)
        # A class that is no exception class is a TypeError where reached
        # (none is raised where nothing reaches it).
        try:
            y = x + 1
        except nn.ReLU:
            y = x + 2
        try:
            try:
                raise ValueError("v")
            except NotErr:
                n = n + 100
        except TypeError as e:
            n = n * 5 + len(e.args)
        try:
            try:
                raise ValueError("v")
            except (ValueError, nn.Module):
                n = n + 100
        except TypeError as e:
            n = n * 7 + len(str(e))
        try:
            try:
                raise KeyError("k")
            except ValueError("x"):
                n = n + 100
        except TypeError:
            n = n * 11 + 1
        try:
            try:
                raise RuntimeError("r")
            except torch.nn.Module:
                n = n + 100
        except TypeError:
            n = n * 13 + 1
        return y + n
