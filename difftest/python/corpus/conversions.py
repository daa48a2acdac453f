# pydiff: all-compiled
"""int(x) and str(x) with one argument, which compiled code makes without a type call
(jit/hir/known_calls.h): exact ints and strs are returned as they are; everything else
through the conversion int's and str's constructors make (PyNumber_Long, PyObject_Str),
errors, subclasses, __int__/__index__/__str__ of one's own, recursion at the limit, and the
names rebound or shadowed (the callable's identity decides)."""
import builtins
import sys


class MyInt(int):
    pass


class MyStr(str):
    def __str__(self):
        return "MyStr.__str__"


class Named:
    def __repr__(self):
        return type(self).__name__ + "()"


class HasIndex(Named):
    def __index__(self):
        return 7


class HasInt(Named):
    def __int__(self):
        return 8


class BadStr(Named):
    def __str__(self):
        raise KeyError("no str")


class WrongStr(Named):
    def __str__(self):
        return 5


class Deep(Named):
    def __int__(self):
        return int(self)  # recurses until RecursionError


def to_int(x):
    return int(x)


def to_str(x):
    return str(x)


def show(f, x):
    try:
        r = f(x)
        print(f.__name__, repr(x)[:40], "->", type(r).__name__, repr(r)[:60], r is x)
    except Exception as e:
        print(f.__name__, repr(x)[:40], "raises", type(e).__name__, str(e)[:80])


values = [0, -5, 256, 2**70, True, 3.9, -2.5, "12", " 42 ", "x1", "", b"7", MyInt(3),
          MyStr("s"), HasIndex(), HasInt(), BadStr(), WrongStr(), None, [1], 1e300,
          float("nan"), float("inf"), "١٢", "hello", "é"]
for v in values:
    show(to_int, v)
    show(to_str, v)
show(to_int, Deep())

total = 0
for i in range(2000):
    total += int(str(i)) + len(str(-i)) + int(i * 0.5)
print(total)


def shadowed(x):
    int = float  # a local named int is not the builtin
    return int(x)


print(shadowed(3), shadowed("2.5"))
saved = builtins.int, builtins.str
builtins.int = lambda x: ("patched int", x)
builtins.str = lambda x: ("patched str", x)
print(to_int(1), to_str(2))
builtins.int, builtins.str = saved
print(to_int(1), to_str(2))
print(sys.getrefcount(values[3]) == sys.getrefcount(values[3]))
