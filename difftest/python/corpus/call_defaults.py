# pydiff: all-compiled
# pydiff: min-stub_entries=3000
# Compiled calls of compiled functions that leave parameters to their defaults, which the
# guest call stub binds itself (jit/lower/call_stub.h): the defaults' own objects arrive (a
# mutable default keeps what earlier calls put in it), a replaced or removed __defaults__ is
# seen by the next call, too few arguments for the defaults is 3.11's TypeError, methods and
# closures count self and cells as they should, and each call adds one reference to a
# default it binds and the callee releases it (the counts stay the same over many calls).
import sys


def scale(x, factor=2, offset=0):
    return x * factor + offset


def accumulate(item, into=[]):
    into.append(item)
    return len(into)


def three(a, b=10, c=100):
    return (a, b, c)


def all_defaulted(a="A", b="B"):
    return a + b


class Point:
    def __init__(self, x, y=0.0):
        self.x = x
        self.y = y

    def moved(self, dx, dy=0.0):
        return Point(self.x + dx, self.y + dy)


def make_adder(base):
    def add(x, extra=1):
        return base + x + extra

    return add


SENTINEL = object()


def identity(x, default=SENTINEL):
    return default


def calls(n):
    total = 0
    for i in range(n):
        total += scale(i) + scale(i, 3) + scale(i, 3, 1)
        total += three(i)[2] + three(i, 1)[1]
    return total


def mutable_default(n):
    last = 0
    for i in range(n):
        last = accumulate(i)
    return last


def replaced_defaults():
    out = [three(1)]
    three.__defaults__ = (20, 200)
    out.append(three(1))
    three.__defaults__ = (300,)  # one default: b is required again
    out.append(three(1, 2))
    try:
        three(1)
    except TypeError as e:
        out.append(str(e))
    three.__defaults__ = None
    try:
        three(1, 2)
    except TypeError as e:
        out.append(str(e))
    three.__defaults__ = (10, 100)
    out.append(three(5))
    return out


def methods_and_closures(n):
    p = Point(1.0)
    for _ in range(n):
        p = p.moved(1.0)
    add = make_adder(10)
    s = 0
    for i in range(n):
        s += add(i) + add(i, 5)
    return (p.x, p.y, s, all_defaulted(), all_defaulted("x"))


def reference_counts(n):
    before = sys.getrefcount(SENTINEL)
    for _ in range(n):
        identity(1)
    after = sys.getrefcount(SENTINEL)
    return after - before


print(calls(500))
print(mutable_default(300))
print(replaced_defaults())
print(methods_and_closures(300))
print(reference_counts(1000))
