import torch
import torch.nn as nn

TABLE = {'a': 1}


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.d = {'a': 1, 'b': 2}
        self.s = {1, 2}

    def forward(self, x):
        msgs = []
        cfg = {'inner': {'a': 1}, 'set': {3}}
        try:
            for k in self.d:
                self.d['c'] = 3
        except RuntimeError as e:
            msgs.append('attribute: ' + str(e))
        try:
            for k in cfg['inner']:
                cfg['inner'][k + k] = 2
        except RuntimeError as e:
            msgs.append('value: ' + str(e))
        try:
            for k in TABLE:
                TABLE.pop(k)
        except RuntimeError as e:
            msgs.append('global: ' + str(e))
        d = {'a': 1}
        try:
            for k in d.keys():
                d['keys'] = 0
        except RuntimeError as e:
            msgs.append('keys(): ' + str(e))
        try:
            for k in d.values():
                d['values'] = 0
        except RuntimeError as e:
            msgs.append('values(): ' + str(e))
        try:
            for k in d.items():
                d['z'] = 0
        except RuntimeError as e:
            msgs.append('items() written: ' + str(e))
        try:
            for v in self.s:
                self.s.add(v + 10)
        except RuntimeError as e:
            msgs.append('set attribute: ' + str(e))
        try:
            for v in cfg['set']:
                cfg['set'].discard(v)
        except RuntimeError as e:
            msgs.append('set value: ' + str(e))
        for k in self.d:
            self.d[k] = 5
        return x + len(self.d), msgs, self.d, TABLE, d
