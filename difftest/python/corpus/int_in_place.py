# pydiff: all-compiled
# `n = n op m` over ints may make the result in the local's old int when nothing else holds
# it (lower.int-store-in-place). Everything that still sees the old value must keep it: an
# alias, a list or dict holding it, a tuple built before the store, a value being unpacked;
# the small ints (-5 to 256) stay the interpreter's singletons on the way through them, and
# results past one digit (2**30) or of int subclasses are new objects.
import sys


class Count(int):
    pass


def climb(n, steps, step):
    seen = []
    for _ in range(steps):
        n = n + step
        seen.append(n is (n + 0) if -5 <= n <= 256 else n)
    return n, seen[:3], seen[-3:]


def into_small(n, step):
    same = []
    for _ in range(6):
        n = n - step  # from one-digit ints only the local holds into the small ints
        same.append(n is (n + 0))
    return n, same


def aliases(n):
    kept, keys = [], {}
    for i in range(6):
        m = n
        kept.append(n)
        keys[n] = i
        n = n * 3 + 1000
        kept.append(m)
    return n, kept, sorted(keys.items())


def borrowed(x):
    out = []
    for _ in range(4):
        t = (x, (x := x + 1000))
        out.append(t)
        x, y = x + 1000, x
        out.append((x, y))
        print_later = [x, x - 1]
        x = x - 1
        out.append(print_later)
    return out


def edges():
    out = []
    for start, step in ((2**30 - 3, 1), (-(2**30) + 3, -1), (-300, 7), (300, -7)):
        n = start
        for _ in range(6):
            n = n + step
            out.append(n)
    return out


def subclass(c):
    for _ in range(3):
        c = c + 1000
    return type(c).__name__, c


def counters(limit):
    a = b = 1000
    total = 1000
    while a < limit:
        a = a + 1
        b = b - 3
        total = total + a * b
    return a, b, total


def main():
    print(climb(240, 30, 1))
    print(climb(20, 10, -3))
    print(climb(-2000, 5, 700))
    print(into_small(560, 100), into_small(-560, -100))
    print(aliases(1000))
    print(borrowed(5000))
    print(edges())
    print(subclass(Count(2000)))
    print(counters(3000))
    marker = 1234567
    before = sys.getrefcount(marker)
    counters(1100)
    print("marker references:", sys.getrefcount(marker) - before)


main()
