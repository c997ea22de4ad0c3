import torch
import torch.nn as nn

k = 100


class M(nn.Module):
    def forward(self, x):
        a = 3
        k = 7

        class C:
            v = a
            w = v + 1

            def f(self, t):
                return t * a + k

        class D:
            u = k
            k = 5
            z = k

        class E:
            a = 11

            class F:
                q = a

            r = [a + i for i in range(2)]

        return C().f(x) + C.w, D.u, D.z, E.F.q, E.r, E.a
