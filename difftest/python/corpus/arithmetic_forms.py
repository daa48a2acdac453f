# pydiff: all-compiled
# BINARY_OP's inline forms and every way out of them: small ints (|v| < 2**30) for
# + - * // % (divisor > 0), exact floats for + - * /, in-place forms; at and past the
# bounds, with negative and zero divisors, bools, subclasses, mixed and other types.
import math


class MyInt(int):
    pass


class MyFloat(float):
    pass


def ops(a, b):
    out = []
    for f in (lambda x, y: x + y, lambda x, y: x - y, lambda x, y: x * y,
              lambda x, y: x // y, lambda x, y: x % y, lambda x, y: x / y):
        try:
            out.append(f(a, b))
        except (ZeroDivisionError, TypeError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    return out


def inplace(a, b):
    x = a
    x += b
    y = a
    y -= b
    z = a
    z *= b
    w = a
    try:
        w //= b
        w %= b
    except ZeroDivisionError as e:
        w = str(e)
    v = a
    try:
        v /= b
    except ZeroDivisionError as e:
        v = str(e)
    return x, y, z, w, v


def const_divisors(a):
    return a // 7, a % 7, a // 1, a % 1, a // -3, a % -3, 10 // (a or 1), 10 % (a or 1), a * 3


BIG = 2**30
CASES = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 5), (5, 0), (-1, 3), (BIG - 1, BIG - 1),
         (-(BIG - 1), BIG - 1), (BIG, 1), (-BIG, 3), (2**62, 3), (True, 2), (3, False),
         (MyInt(9), 4), (9, MyInt(4)), (2.5, 0.5), (-2.5, 0.0), (1.0, -0.0), (0.0, 0.0),
         (1e308, 10.0), (float("inf"), 2.0), (float("nan"), 1.0), (MyFloat(1.5), 2.0),
         (3, 0.5), (0.5, 3), ("ab", "cd"), ([1], 2), ("x", 3)]


def run_cases():
    out = []
    for a, b in CASES:
        out.append((a, b, ops(a, b)))
        try:
            out.append(inplace(a, b))
        except TypeError as e:
            out.append("TypeError: " + str(e))
    for a in (0, 1, -1, 20, -20, BIG - 1, -(BIG - 1), BIG, 2**45):
        out.append(const_divisors(a))
    return out


def reprs(rows):
    # nan != nan: compare printed forms.
    return [repr(r) for r in rows]


def loops(n):
    s = 0
    p = 1
    f = 0.0
    g = 1.0
    for i in range(n):
        s += i * i - (i // 3) + (i % 5)
        p = (p * 31) % 1000003
        f += i * 0.5 - f / 7.0
        g = g * 1.0001 - 0.00001
    return s, p, f, g, math.isclose(f, f)


for row in reprs(run_cases()):
    print(row)
print(loops(2000))
