# pydiff: all-compiled
# Floats that compiled code takes from and gives back to the interpreter's free list inline:
# results of + - * /, locals, list items and attributes overwritten by new floats, the list
# drained and refilled past its 100 entries, float subclasses (never on the list), and
# tracemalloc, which must see every new float (its traceback names the line that made it).
import sys
import tracemalloc


class Point:
    def __init__(self, x):
        self.x = x


class MyFloat(float):
    pass


def churn(n, scale):
    total = 0.0
    xs = [0.0, 1.0]
    p = Point(0.5)
    for i in range(n):
        t = i * scale
        total += t * t - 1.0 / (t + 1.0)
        xs[0] = xs[0] + t
        p.x = p.x * 0.5 + t
    return total, xs, p.x


def hold_many(n):
    # n live floats at once: more than the free list holds, so some come from the allocator
    # and, when freed, some go back to it.
    kept = [i * 0.25 + 0.5 for i in range(n)]
    s = 0.0
    for v in kept:
        s = s + v * 2.0
    del kept
    return s


def subclass_sums(n):
    s = MyFloat(1.5)
    for i in range(n):
        s = s + MyFloat(i) * 1.0
    return type(s).__name__, s


def made_here(a, b):
    return a * b + 0.25  # the line tracemalloc must name


def traced():
    tracemalloc.start()
    try:
        pool = [i + 0.5 for i in range(300)]  # traced blocks, 100 of them kept on the list
        del pool
        out = []
        for i in range(5):
            v = made_here(float(i), 1.5)
            tb = tracemalloc.get_object_traceback(v)
            out.append((v, tb[0].lineno if tb is not None else None))
        return out
    finally:
        tracemalloc.stop()


def main():
    print(churn(2000, 0.001))
    print(churn(300, 1.5))
    print(hold_many(250))
    print(hold_many(30))
    print(subclass_sums(50))
    print(traced())
    print(churn(10, 0.5))
    before = sys.getrefcount(1.0)
    print(churn(100, 2.0), sys.getrefcount(1.0) - before)


main()
