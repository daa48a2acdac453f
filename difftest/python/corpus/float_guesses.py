# pydiff: all-compiled
"""Locals and temporaries guessed to be floats (jit/hir/probable_floats.h): float constants,
+ - * / with such an operand, and locals every store of which is one. Their arithmetic and
comparisons get the float form and no small-int form. Here the guess holds, and here it is
wrong: an accumulator that meets ints, bools, big ints, complex numbers, Decimals and
objects with operators of their own, so every other path must give the interpreter's
results and errors."""
import decimal
import fractions
import math


class Meters:
    def __init__(self, v):
        self.v = v

    def __radd__(self, other):
        return 7  # an int where a float was guessed

    def __rmul__(self, other):
        return Meters(other)

    def __repr__(self):
        return "Meters(%r)" % (self.v,)


def accumulate(values):
    s = 0.0
    for v in values:
        s += v
    return s


def scaled_sum(values, k):
    total = 0.0
    for v in values:
        total = total + v * k
        if total > 1e6:
            total = total / 2
    return total


def compare_loop(limit):
    x = 1.0
    steps = 0
    while x < limit:
        x = x * 1.5
        steps += 1
    return steps, x


def mixed(n):
    acc = 0.5
    for i in range(n):
        acc = acc - i
        acc = acc * 2 - acc
    return acc


def show(label, f, *args):
    try:
        print(label, repr(f(*args)))
    except Exception as e:
        print(label, "raises", type(e).__name__, e)


show("floats", accumulate, [0.5, 1.25, 3.0])
show("ints", accumulate, [1, 2, 3])
show("bools", accumulate, [True, True, False])
show("big", accumulate, [2**80, 2**80])
show("complex", accumulate, [1j, 2])
show("decimal", accumulate, [decimal.Decimal("1.5")])
show("fraction", accumulate, [fractions.Fraction(1, 3), fractions.Fraction(2, 3)])
show("meters", accumulate, [Meters(1), 2.0])
show("str", accumulate, ["a"])
show("nan", accumulate, [float("nan"), 1.0])
show("inf", accumulate, [float("inf"), -float("inf")])
show("scaled floats", scaled_sum, [1.0, 2.0, 3.0], 0.5)
show("scaled ints", scaled_sum, list(range(2000)), 3)
show("scaled meters", scaled_sum, [1.0], Meters(2))
show("scaled zero", scaled_sum, [1e300, 1e300], 1e10)
show("compare", compare_loop, 1000.0)
show("compare int", compare_loop, 10**6)
show("compare nan", compare_loop, float("nan"))
show("mixed", mixed, 50)
print(math.fsum([accumulate([0.1] * 10), scaled_sum([0.1] * 10, 0.1)]))
