"""Exact rational arithmetic in a class of its own: operator methods, gcd, big integers, as
pure-Python numeric types are written."""
import math

import harness


class Q:
    __slots__ = ("n", "d")

    def __init__(self, n, d=1):
        if d < 0:
            n, d = -n, -d
        g = math.gcd(n, d)
        self.n = n // g
        self.d = d // g

    def __add__(self, o):
        if isinstance(o, int):
            o = Q(o)
        return Q(self.n * o.d + o.n * self.d, self.d * o.d)

    def __sub__(self, o):
        return Q(self.n * o.d - o.n * self.d, self.d * o.d)

    def __mul__(self, o):
        return Q(self.n * o.n, self.d * o.d)

    def __truediv__(self, o):
        return Q(self.n * o.d, self.d * o.n)

    def __lt__(self, o):
        return self.n * o.d < o.n * self.d

    def __eq__(self, o):
        return self.n == o.n and self.d == o.d

    def __hash__(self):
        return hash((self.n, self.d))


def harmonic(n):
    s = Q(0)
    for k in range(1, n + 1):
        s = s + Q(1, k)
    return s


def bernoulli(m):
    a = [Q(0)] * (m + 1)
    for i in range(m + 1):
        a[i] = Q(1, i + 1)
        for j in range(i, 0, -1):
            a[j - 1] = Q(j) * (a[j - 1] - a[j])
    return a[0]


def workload():
    h = harmonic(250)
    b = bernoulli(40)
    pts = sorted({Q(i % 13, i % 7 + 1) for i in range(3000)}, key=lambda q: (q.n * 1000) // q.d)
    return h.d.bit_length(), b.n, b.d, len(pts), pts[5].n


WANT = (354, -261082718496449122051, 13530, 58, 2)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("rationals", workload, check)
