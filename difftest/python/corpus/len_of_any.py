# pydiff: all-compiled
# pydiff: threshold=0,10
"""len(x) of every kind of object, which compiled code makes without the call stub
(jit/hir/known_calls.h kLen): strs, lists, tuples and dicts read inline; sets, bytes, ranges,
deques, subclasses and classes with __len__ through PyObject_Size, with its errors (no
__len__, a negative or non-int or huge length, __len__ raising) and their tracebacks; lengths
past the small ints and past one digit; len patched in builtins; reference counts."""
import builtins
import collections
import sys


class Named:
    def __repr__(self):
        return type(self).__name__


class Sized(Named):
    def __init__(self, n):
        self.n = n

    def __repr__(self):
        return "Sized(%r)" % self.n

    def __len__(self):
        return self.n


class Raising(Named):
    def __len__(self):
        raise KeyError("no length here")


class Wrong(Named):
    def __len__(self):
        return "three"


class MyDict(dict):
    def __len__(self):
        return 99


class MyList(list):
    pass


def length(x):
    return len(x)


def empty(x):
    return not len(x)


def longer(a, b):
    return len(a) > len(b)


def show(f, *args):
    try:
        print(f.__name__, repr(args)[:50], "->", f(*args))
    except Exception as e:
        print(f.__name__, repr(args)[:50], "raises", type(e).__name__, str(e)[:60])


values = ["", "abc", "é" * 3, [], [1, 2], (), (1, 2, 3), {}, {1: 2, 3: 4}, set(), {1, 2},
          frozenset({3}), b"", b"xy", bytearray(b"abc"), range(10), range(2**40),
          collections.deque([1, 2]), MyDict(a=1), MyList([1, 2, 3]), Sized(7), Sized(300),
          Sized(2**31), Sized(-1), Sized(2**70), Raising(), Wrong(), 5, None, object]
for i in range(12):
    for v in values:
        try:
            length(v)
        except Exception:
            pass
for v in values:
    show(length, v)
    show(empty, v)
show(longer, {1: 1, 2: 2}, [1])
show(longer, {1, 2, 3}, b"abcd")

d = {i: i for i in range(1000)}
marker = Sized(5)
before = sys.getrefcount(d), sys.getrefcount(marker)
total = 0
for i in range(3000):
    total += length(d) + length(marker)
print(total, before == (sys.getrefcount(d), sys.getrefcount(marker)))

saved = builtins.len
builtins.len = lambda x: ("patched", x)
print(length([1]))
builtins.len = saved
print(length([1]))
length(Raising())
