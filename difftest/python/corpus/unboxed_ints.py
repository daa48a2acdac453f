# pydiff: all-compiled
# Int temporaries kept unboxed (jit/hir/unboxed_temporaries.h): a BINARY_OP result used by one
# later small-int operation. Each way out of the small-int form must box them first: values
# past one digit (2^30) and past 64 bits, a float or str as the other operand, a big int
# constant, an exception between producer and consumer (caught in the function or not),
# chains of temporaries, comparisons, // and % with negative operands, and subclasses of int.
import sys


class MyInt(int):
    def __add__(self, other):
        return "MyInt+"


def lattice(side):
    inside = 0
    for x in range(-side, side + 1):
        for y in range(-side, side + 1):
            if x * x + y * y <= side * side:
                inside += 1
    return inside


def chains(a, b, c):
    return (a * b + c * c - a // 3 + b % 7, a * b * c * a, (a - b) * (b - c) // (c + 1),
            (a * a) * (b * b), a * b > c * c, a + b == c - 1)


def mixed(a, b):
    return a * b + 1.5, a * b + 2 ** 40, a * b * 2 ** 31, a * 3 - 0.25


def strs(s, n):
    return s * (n * 2), s * (n + 1 - n)


def between(a, b, d):
    try:
        return a * b + a // d
    except ZeroDivisionError as e:
        return "caught " + str(e)


def uncaught(a, b, d):
    return a * b + a % d


def refs(a):
    big = a * 1000
    return sys.getrefcount(big) > 0, a * a + 1


def subclass(a):
    return MyInt(a) + a * 2, a * 2 + MyInt(a)


for _ in range(3):
    print(lattice(20), lattice(3))
    for args in [(3, 4, 5), (-7, 11, -13), (2 ** 29, 2 ** 29, 3), (2 ** 30 - 1, -(2 ** 30) + 1, 2),
                 (2 ** 30, 2, 1), (-(2 ** 30), 5, -2), (10 ** 20, 3, 7), (0, 0, 0)]:
        try:
            print(chains(*args))
        except ZeroDivisionError as e:
            print("chains", e)
        print(mixed(args[0], args[1]))
    print(strs("ab", 3), strs(7, 2), strs([1], 2))
    print(between(7, 6, 0), between(7, 6, 2))
    try:
        uncaught(7, 6, 0)
    except ZeroDivisionError as e:
        print("uncaught", e)
    print(refs(5), subclass(4), subclass(2 ** 40))
