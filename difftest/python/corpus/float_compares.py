# pydiff: all-compiled
# Float comparisons inline (3.11's COMPARE_OP_FLOAT_JUMP, and the kept-value forms it never
# specialises): < <= == != > >= of two exact floats are ordered, so a NaN makes every one
# false but !=. Covered: each operator over NaN, signed zeros and infinities, as a branch and
# as a value, negated (`not a < b`, which is not a >= b with a NaN), chained, against float
# and int constants, mixed with ints (the generic path), float subclasses, and unboxed
# temporaries (`x * x + y * y < r * r` over floats, ints and a mix). Without type feedback a
# comparison gets the float form when an operand is guessed to be a float (a float constant,
# or a local only ever assigned floats: `x = a * 1.0`, which keeps -0.0, NaN and infinities).
import math

VALUES = [0.0, -0.0, 1.5, -2.25, 1e308, -1e-310, math.inf, -math.inf, math.nan, 3]


class Approx(float):
    def __lt__(self, other):
        return "Approx<"

    def __eq__(self, other):
        return abs(float(self) - other) < 0.5

    __hash__ = float.__hash__


def branches(a, b):
    a, b = float_locals(a, b)
    out = 0
    if a < b:
        out |= 1
    if a <= b:
        out |= 2
    if a == b:
        out |= 4
    if a != b:
        out |= 8
    if a > b:
        out |= 16
    if a >= b:
        out |= 32
    if not a < b:
        out |= 64
    if not a >= b:
        out |= 128
    return out


def float_locals(a, b):
    x = a * 1.0
    y = b * 1.0
    return x, y


def values(a, b):
    x = a * 1.0
    y = b * 1.0
    return x < y, x <= y, x == y, x != y, x > y, x >= y, a < b, a == b


def chained(a, b, c):
    x = a * 1.0
    y = b * 1.0
    z = c * 1.0
    return x < y < z, x <= y >= z, x == y == z


def constants(x):
    return x < 0.5, x >= -1.0, x == 1.5, x < 0, x != 2, 0.5 < x


def inside(x, y, r):
    xf = x * 1.0
    yf = y * 1.0
    rf = r * 1.0
    return (x * x + y * y <= r * r, xf * xf + yf * yf <= rf * rf, xf * yf < rf,
            (xf - yf) * (xf + yf) > rf * 0.5)


def count_below(points, limit):
    n = 0
    lim = limit * 1.0
    for x, y in points:
        if x * x + y * y < lim:
            n += 1
    return n


def bisect_sqrt(v):
    lo, hi = 0.0, max(1.0, v)
    while hi - lo > 1e-12:
        mid = (lo + hi) / 2
        if mid * mid < v:
            lo = mid
        else:
            hi = mid
    return round(lo, 9)


def odd(a, b):
    return a < b, a == b, b == a


for _ in range(3):
    for a in VALUES:
        print(a, [branches(a, b) for b in VALUES], values(a, 1.5), constants(a))
    print(chained(1.0, 2.0, 3.0), chained(1.0, math.nan, 3.0), chained(2.0, 2.0, 2.0))
    for args in [(0.5, 0.5, 1.0), (3, 4, 5), (3.0, 4, 5.0), (1e200, 1e200, 1.0),
                 (math.nan, 1.0, 2.0), (-0.0, 0.0, 0.0)]:
        print(inside(*args))
    print(count_below([(i * 0.1, i * 0.2) for i in range(40)], 4.0),
          count_below([(i, i + 1) for i in range(10)], 50))
    print(bisect_sqrt(2.0), bisect_sqrt(10.0), bisect_sqrt(0.25))
    print(odd(Approx(1.2), 1.0), odd(1.0, Approx(1.2)), odd(2.0, 2), odd(2, 2.5))
