# pydiff: all-compiled
# Comparisons whose value is kept rather than branched on (`return a < b`, a list of
# comparisons, a generator's `yield a <= b`), decided inline for small ints, a str constant's
# equality and a str against a one-character constant (compares.cc LowerCompareOp), and every
# way they fall back: ints past one digit, bools, floats, mixed types, objects with rich
# comparisons of their own, an unboxed temporary as an operand, and a TypeError.


def every_op(a, b):
    return [a < b, a <= b, a == b, a != b, a > b, a >= b]


def squares_below(x, y):
    return x * x < y, x * x + 1 == y, y - x >= x  # unboxed temporaries as operands


def against_constants(s, n):
    return s == "key", s != "key", "a" <= s, s < "n", n == 7, 300 < n


def pairwise(xs):
    return all(a <= b for a, b in zip(xs, xs[1:]))


class Loud:
    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return "lt %r" % (other,)

    def __eq__(self, other):
        return ["eq", other]


values = [0, 1, -1, 5, 256, 257, -5, -6, 2 ** 30 - 1, 2 ** 30, -(2 ** 30), 2 ** 62, 2 ** 70,
          True, False, 1.5, float("nan"), "1"]
for a in values:
    print(a, [every_op(a, b) for b in values[:8]])
for x in range(-3, 40, 7):
    print(squares_below(x, 10 * x + 4), squares_below(x, x * x))
for s in ["key", "kez", "", "a", "m", "n", "zz", "é", 5]:
    for n in [7, 300, 301, 2 ** 40]:
        try:
            print(repr(s), n, against_constants(s, n))
        except TypeError as e:
            print(repr(s), n, "TypeError", e)
print(pairwise([1, 2, 2, 3]), pairwise([3, 2]), pairwise([2 ** 40, 2 ** 41]), pairwise(["a", "b"]))
print(every_op(Loud(1), 3)[:3], every_op(3, Loud(1))[2])
try:
    every_op([1], 2)
except TypeError as e:
    print("TypeError", e)
