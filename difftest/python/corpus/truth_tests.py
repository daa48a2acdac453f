# pydiff: threshold=3
# pydiff: all-compiled
# Truth tests (`if x:`, `not x`, `x and y`, `while x:`) of objects that are neither bools nor
# None: the truth stub (jit/lower/site_stubs.h) reads an exact str's, list's, dict's, tuple's or
# int's size word, empty and not, a negative int, a big int; everything else goes through
# PyObject_IsTrue: subclasses of those types that define __bool__ or __len__ (or inherit them),
# bytes, floats, sets, objects with __bool__ or __len__ or neither, a __bool__ that returns a
# non-bool, a __len__ that is negative, and __bool__ and __len__ that raise, caught inside and
# outside the compiled function.
import sys


class Falsy:
    def __bool__(self):
        return False


class Sized:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n


class Plain:
    pass


class NoList(list):
    def __len__(self):
        return 0


class AlwaysStr(str):
    def __bool__(self):
        return True


class EmptyDict(dict):
    def __len__(self):
        return 0


class PlainTuple(tuple):
    pass


class IntZeroIsTrue(int):
    def __bool__(self):
        return True


class BadBool:
    def __bool__(self):
        return 1


class Boom:
    def __bool__(self):
        raise KeyError("boom")


class NegativeLen:
    def __len__(self):
        return -1


def truth(x):
    if x:
        return 1
    return 0


def negated(x):
    return not x


def chosen(x, y):
    return x and y, x or y


def drain(stack):
    n = 0
    while stack:
        stack.pop()
        n += 1
    return n


def count_true(xs):
    return sum(1 for x in xs if x)


def caught(x):
    try:
        return truth(x)
    except (KeyError, TypeError, ValueError) as e:
        return type(e).__name__


def values():
    return [
        "", "a", "héllo", "\U0001f600", [], [0], {}, {0: 0}, (), (None,), 0, 7, -3, 10**30,
        -(10**30), True, False, None, b"", b"x", 0.0, -0.5, set(), {1}, frozenset(),
        NoList([1, 2]), AlwaysStr(""), EmptyDict(a=1), PlainTuple(), PlainTuple((1,)),
        IntZeroIsTrue(0), Falsy(), Sized(0), Sized(4), Plain(), range(0), range(3),
    ]


def main():
    out = []
    for _ in range(5):
        vs = values()
        out.append([truth(v) for v in vs])
        out.append([negated(v) for v in vs])
        out.append([chosen(v, "y") for v in vs[:14]])
        out.append(count_true(vs))
        out.append(drain([1, 2, 3]) + drain(list("abcd")))
        out.append([caught(v) for v in (BadBool(), Boom(), NegativeLen(), "", "z")])
    held = ["x" * 3, [1], {1: 2}, (1, 2)]
    before = [sys.getrefcount(h) for h in held]
    for _ in range(10):
        for h in held:
            truth(h)
            negated(h)
    del h
    out.append([sys.getrefcount(h) for h in held] == before)
    return out


for line in main():
    print(line)
