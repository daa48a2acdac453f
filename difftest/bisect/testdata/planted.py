"""The program the bisector's tests break on purpose (bisect_test.sh plants a miscompile in
one of its functions with A64JIT_TEST_PLANT). Correct, it prints "ok" and exits 0; each
check that fails prints what it expected and the program exits 1.

Each plant has a function whose first decision of the planted kind changes its result:
  flip-branch  count_below   (its `x < n` fused into a compare-and-branch)
  drop-decref  replace_first (its `lst[0] = value` stored inline: the old item leaks)
  cache-index  xs_of         (its `p.x` read inline from the instance's values)
"""
import sys
import weakref


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


class Tracked:
    pass


def count_below(xs, n):
    c = 0
    for x in xs:
        if x < n:
            c += 1
    return c


def replace_first(lst, value):
    lst[0] = value


def xs_of(points):
    out = []
    for p in points:
        out.append(p.x)
    return out


def scale(v, k):
    return [x * k for x in v]


def words(text):
    return [w.lower() for w in text.split() if w]


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def dead_after_replacing(count):
    objs = [Tracked() for _ in range(count)]
    refs = [weakref.ref(o) for o in objs]
    lst = [None]
    for o in objs:
        replace_first(lst, o)
    del objs, o
    return sum(r() is None for r in refs)


def main():
    failures = []

    def check(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    check("count_below", count_below(list(range(10)), 4), 4)
    check("released on replace", dead_after_replacing(4), 3)
    check("xs_of", xs_of([Point(1, 2), Point(3, 4)]), [1, 3])
    check("scale", scale([1, 2, 3], 3), [3, 6, 9])
    check("words", words("The Quick  brown"), ["the", "quick", "brown"])
    check("fib", fib(10), 55)
    for f in failures:
        print("FAIL", f)
    print("ok" if not failures else f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
