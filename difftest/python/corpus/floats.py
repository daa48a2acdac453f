# pydiff: all-compiled
# Floats: arithmetic, comparisons, mixing with ints, rounding-sensitive printing.


def poly(x):
    return 3.0 * x * x - 2.5 * x + 0.125


def stats(values):
    total = 0.0
    lo = values[0]
    hi = values[0]
    for v in values:
        total += v
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    return total / len(values), lo, hi


def specials(x):
    return x / 3, x // 0.5, x % 0.7, -x, x ** 0.5 if x >= 0 else -x, x != x


print([poly(i / 4) for i in range(-4, 5)])
print(stats([1.5, -2.25, 3.125, 1e10, -1e-10]))
print(specials(2.0), specials(1e300 * 10), specials(7.25))
try:
    specials(0.0) and poly(1) / 0.0
    print(1.0 / 0.0)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
