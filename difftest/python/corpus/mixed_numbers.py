# pydiff: all-compiled
# + - * / on a float and an int, either way round, and / on two ints: 3.11 never
# specialises these sites, and compiled code's generic path (a64_number_add and its kin)
# computes them itself when the int has at most one digit (|v| < 2**30). Covered: ints at and
# past that bound, zero and negative ints, signed zeros, infinities and NaN, zero divisors
# (whose errors stock words), overflow to inf, ints whose quotient is not exact, bool and
# subclasses (never taken), other types, and the in-place operators; `**` on the same pairs
# (a64_power: a positive finite base and a finite exponent; overflow, zero and negative bases,
# NaN and infinities left to stock). Comparisons that feed a
# branch (a64_compare_bool) or kept as values (a64_compare_value) take the same numbers: a
# float against an int (NaN and the infinities against any int), and two ints, of one digit
# or more.
import math

DIGIT = 2**30


class MyInt(int):
    pass


class MyFloat(float):
    pass


def plain(a, b):
    out = []
    for f in (lambda x, y: x + y, lambda x, y: x - y, lambda x, y: x * y,
              lambda x, y: x / y):
        try:
            out.append(f(a, b))
        except (ZeroDivisionError, TypeError, OverflowError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    return out


def in_place(a, b):
    out = []
    x = a
    x += b
    out.append(x)
    x = a
    x -= b
    out.append(x)
    x = a
    x *= b
    out.append(x)
    x = a
    try:
        x /= b
    except ZeroDivisionError as e:
        x = "ZeroDivisionError: " + str(e)
    out.append(x)
    return out


INTS = [0, 1, -1, 7, -7, DIGIT - 1, -(DIGIT - 1), DIGIT, -DIGIT, 2**53 + 1, 10**30, True,
        False, MyInt(3)]
FLOATS = [0.0, -0.0, 0.5, -2.25, 1e308, -1e-308, float("inf"), float("-inf"),
          float("nan"), 3.0, MyFloat(1.5)]


def powers(a, b):
    out = []
    for f in (lambda x, y: x ** y, lambda x, y: y ** x):
        try:
            out.append(f(a, b))
        except (ZeroDivisionError, OverflowError, ValueError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    x = a
    try:
        x **= b
    except (ZeroDivisionError, OverflowError, ValueError) as e:
        x = type(e).__name__ + ": " + str(e)
    out.append(x)
    return out


def branches(a, b):
    # Each comparison feeds a jump, as `if` and `while` use it.
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
    return out


def values(a, b):
    # Each comparison kept as a value, which 3.11 never specialises.
    return a < b, a <= b, a == b, a != b, a > b, a >= b


def run_cases():
    rows = []
    for i in INTS:
        for f in FLOATS:
            rows.append((i, f, plain(i, f), plain(f, i), powers(i, f), powers(f, i)))
            try:
                rows.append((in_place(i, f), in_place(f, i)))
            except TypeError as e:
                rows.append("TypeError: " + str(e))
    for a in INTS:
        for b in INTS:
            rows.append((a, b, plain(a, b), branches(a, b), values(a, b)))
    for i in INTS + [2**53, -(2**53)]:
        for f in FLOATS + [2.0**53, float(DIGIT - 1), -float(DIGIT), 7.0000001]:
            rows.append((i, f, branches(i, f), branches(f, i), values(i, f), values(f, i)))
    for a, b in ((1.5, "x"), (None, 1), (1, None)):
        try:
            rows.append((branches(a, b), values(a, b)))
        except TypeError as e:
            rows.append("TypeError: " + str(e))
    for a, b in ((1.5, "x"), ("x", 2), ([1], 2), (2, [1]), (None, 1.0)):
        rows.append(plain(a, b))
    for a in (0.5, 1.0, 2.0, 10.0, 1e-200, 1e300, 7):
        for b in (2, -2, 0.5, -1.5, 400, 1.6, 0, 0.0, 3.0):
            rows.append((a, b, powers(a, b)))
    return rows


def loops(n):
    # The shapes real code has: a float times an int constant, an int loop counter over a
    # float, an int average.
    total = 0.0
    ratio = 0.0
    mean = 0
    for i in range(1, n):
        total += 2 * (total / 3 - i) / n
        ratio = i / (i + 1) - ratio * 0.5
        mean = (mean * (i - 1) + i) / i
        total += (ratio + 1) ** -1.5 - i ** 0.5 / n
    return total, ratio, mean


for row in run_cases():
    print(repr(row))  # nan != nan: compare printed forms
print(loops(3000))
print(math.isnan(float("nan") * 3), 1 / 3, -7 / 2, (DIGIT - 1) / 7, 7 / (DIGIT - 1))
