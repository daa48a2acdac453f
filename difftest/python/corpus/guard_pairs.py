# pydiff: all-compiled
# Binary operations and comparisons test both operands' types in one guard, then both ints'
# sizes in another (lower.guard-pair: cmp, ccmp, one branch). Each operand must still be
# tested: here the other operand is a value whose layout reads like a small int or a float
# where the tested one's would (0.0's bits are 0, an empty list's size is 0, a
# one-character str's length is 1, an int's size sits where a float's value would), in
# either position, so a guard that tested one operand twice gives a wrong answer or no
# TypeError. Also globals and builtins read in one loop (both version tags in one guard) and
# a loop's eval-breaker and tracing tests (one guard).
import sys


def ints(a, b):
    return (a + b, a - b, a * b, a < b, a == b, a >= b)


def floats(a, b):
    return (a + b, a - b, a * b, a < b, a == b, a >= b)


def attempt(f, a, b):
    try:
        return f(a, b)
    except TypeError as e:
        return "TypeError: " + str(e)


OTHERS = [0.0, 1.5, -0.0, [], [7], "", "x", (), (1,), True, False, None, 2**70, -(2**70)]


def sweep():
    out = []
    for other in OTHERS:
        for small in (0, 1, -1, 7):
            out.append(attempt(ints, small, other))
            out.append(attempt(ints, other, small))
            out.append(attempt(floats, float(small), other))
            out.append(attempt(floats, other, float(small)))
    return out


SCALE = 3


def uses_globals_and_builtins(items):
    total = 0
    for x in items:
        total += len(str(x)) * SCALE + abs(x)
    return total


def spins(n):
    k = 0
    while k < n:
        k += 1
    return k


def main():
    for row in sweep():
        print(row)
    print(uses_globals_and_builtins(range(-50, 50)))
    global SCALE
    SCALE = 5  # the globals' version tag changes: the guard fails and the slow path reloads
    print(uses_globals_and_builtins(range(-50, 50)))
    calls = []
    sys.settrace(lambda frame, event, arg: calls.append(event) or None)
    print(spins(20))
    sys.settrace(None)
    print(len(calls) > 0, spins(1000))


main()
