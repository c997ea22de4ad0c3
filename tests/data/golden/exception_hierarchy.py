# Python's exception classes and their bases, as except clauses catch them
# (tests/tools/gen-python-builtins.py asks each Python).
import torch
import torch.nn as nn


class TimeoutError(Exception):
    """Takes the name of a builtin (an OSError): not one."""


def attempt(kind):
    try:
        if kind == 0:
            raise FileNotFoundError("missing")
        if kind == 1:
            raise UnicodeDecodeError("utf-8", b"x", 0, 1, "bad")
        if kind == 2:
            raise RecursionError("deep")
        if kind == 3:
            raise IOError("io")
        if kind == 4:
            raise UserWarning("w")
        if kind == 5:
            raise FloatingPointError("fp")
        raise TabError("tab")
    except OSError:
        return 1
    except ValueError:
        return 2
    except RuntimeError:
        return 3
    except Warning:
        return 4
    except ArithmeticError:
        return 5
    except SyntaxError:
        return 6


class M(nn.Module):
    def forward(self, x):
        out = [x + attempt(k) for k in range(7)]
        try:
            raise OSError("os")
        except EnvironmentError:
            out.append(x * 2)
        try:
            raise KeyboardInterrupt()
        except Exception:
            out.append(x * 3)
        except BaseException:
            out.append(x * 4)
        try:
            raise TimeoutError("slow")
        except OSError:
            out.append(x * 5)
        except Exception:
            out.append(x * 6)
        return out
