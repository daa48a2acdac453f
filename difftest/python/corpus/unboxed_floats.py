# pydiff: all-compiled
# Float temporaries kept unboxed (jit/hir/unboxed_temporaries.h): a BINARY_OP result used
# by one later float operation. Without type feedback most are of both kinds (`a * b` may be
# ints or floats), so each way in and out is covered: ints, floats and a mix of the two as
# operands, ints past one digit, division by a temporary that is 0.0 or -0.0, NaN and
# infinities, an exception between producer and consumer (caught in the function or not),
# long chains, subclasses of float, and objects that are neither.
import math


class MyFloat(float):
    def __add__(self, other):
        return "MyFloat+"

    def __rmul__(self, other):
        return "MyFloat*r"


class Meters:
    def __init__(self, v):
        self.v = v

    def __radd__(self, other):
        return Meters(other + self.v)

    def __rmul__(self, other):
        return Meters(other * self.v)

    def __add__(self, other):
        return Meters(self.v + other)

    def __repr__(self):
        return f"Meters({self.v!r})"


def distance2(dx, dy, soft):
    return dx * dx + dy * dy + soft


def chains(a, b, c):
    return (a * b + c * c - a / 4, (a - b) * (b - c) * (c + a), a * b * c * a - b,
            (a + b) / (b - a), 1.0 / (a * b * c), (a * a) * (b * b) + (c * c) * (a * a))


def step(x, v, acc, dt):
    v = v + 0.5 * dt * acc
    x = x + dt * v
    return x, v, 0.5 * v * v - 0.5 * dt * dt * acc * acc


def divide(a, b, c):
    try:
        return a / (b * c - b * c)
    except ZeroDivisionError as e:
        return "caught " + str(e)


def divide_uncaught(a, b):
    return a * b / (a - a)


def between(a, b, d):
    try:
        return a * b + a * b // d
    except ZeroDivisionError as e:
        return "caught " + str(e)


def odd_objects(a, m):
    return a * 2.0 + m, a * a * m, m + a * a


def specials(a, b):
    return a * b + a, a * b - a * b, (a + b) * 0.0, a / b * b


def int_then_float(a, x, y):
    # a % 7 has no float form: an int temporary only, beside one of both kinds
    return (a % 7) + (x * y), (x * y) - (a // 3), (a & 5) * (x + y)


def total(points):
    s = 0.0
    for x, y in points:
        s += x * x + y * y - x * y / 2.0
    return s


for _ in range(3):
    for args in [(1.5, -2.25, 0.01), (3, 4, 5), (2.0, 3, 1), (3, 2.5, 1), (2 ** 40, 0.5, 1),
                 (2 ** 20, 2 ** 20, 3), (1e308, 1e308, 1.0), (-0.0, 0.0, 0.0)]:
        print(distance2(*args))
        try:
            print(chains(*args))
        except ZeroDivisionError as e:
            print("chains", e)
        print(step(*args, 0.001))
    print(divide(1.0, 2.0, 3.0), divide(1.0, -2.0, 3.0), divide(1, 2, 3))
    try:
        divide_uncaught(1.5, 2.0)
    except ZeroDivisionError as e:
        print("uncaught", e)
    print(between(1.5, 2.0, 0.0), between(1.5, 2.0, 0.5), between(3, 4, 0))
    print(odd_objects(1.5, MyFloat(2.0)), odd_objects(1.5, Meters(1.0)), odd_objects(3, 2))
    try:
        odd_objects(1.5, "x")
    except TypeError as e:
        print("TypeError", e)
    print(specials(math.inf, 2.0), specials(math.nan, 1.0), specials(-math.inf, -math.inf))
    print(specials(1e-310, 1e-10), specials(7, 3), specials(2.5, -0.5))
    print(int_then_float(10, 1.5, 2.0), int_then_float(10, 3, 4), int_then_float(-9, 2, 0.5))
    print(total([(float(i), i * 0.5) for i in range(50)]), total([(i, i + 1) for i in range(9)]))
