import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        msgs = []
        for cls in (OSError, FileNotFoundError, PermissionError, TimeoutError, EOFError,
                    UnicodeError, RecursionError, MemoryError, BufferError, UserWarning,
                    SystemError, ConnectionError, BlockingIOError, IOError, EnvironmentError):
            try:
                raise cls('boom')
            except Exception as e:
                msgs.append(type(e).__name__ + ' ' + str(e) + ' ' + repr(e) + ' ' + repr(e.args))
        for f in (lambda: KeyError('k'), lambda: OSError(), lambda: LookupError('a', 2),
                  lambda: ConnectionResetError(x.dim()), lambda: UnicodeError('u', [1, (2,)])):
            e = f()
            msgs.append(str(e) + ' ' + repr(e) + ' ' + str(type(e)) + ' ' + str(len(e.args)))
        try:
            raise IOError
        except EnvironmentError as e:
            msgs.append(repr(e))
        msgs.append(str(TimeoutError) + str(ZeroDivisionError) + str(map))
        return x, msgs
