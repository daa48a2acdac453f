# pydiff: all-compiled
# pydiff: threshold=0,10
"""type(x) and tuple(x) with one argument, which compiled code makes without the call stub
(jit/hir/known_calls.h, as 3.11's PRECALL_NO_KW_TYPE_1 and PRECALL_NO_KW_TUPLE_1): x's type with
a reference of its own, even when x held the last reference to its class; an exact tuple
returned as it is, anything else through PySequence_Tuple, with its errors and tracebacks;
the names rebound, shadowed or patched in builtins (the callable's identity decides); the
reference counts of the arguments and of the classes."""
import builtins
import sys


class Point:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = x, y


class Meta(type):
    pass


class WithMeta(metaclass=Meta):
    pass


class Pair(tuple):
    pass


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n, 0, -1):
            yield i


class BadIter:
    def __iter__(self):
        yield 1
        raise KeyError("broken iterator")


class Noisy:
    def __del__(self):
        print("Noisy released")


def type_of(x):
    return type(x)


def same_type(a, b):
    return type(a) is type(b)


def name_of_type(x):
    return type(x).__name__


def as_tuple(x):
    return tuple(x)


def tuple_of_squares(n):
    return tuple(i * i for i in range(n))


def last_instance():
    class Temporary:
        pass

    return Temporary()


def type_of_last_instance():
    # The instance holds the only reference to its class and dies inside type(): the class the
    # call returns must have a reference of its own.
    return type(last_instance())


def type_of_noisy():
    return type(Noisy()).__name__


def three_argument_type():
    return type("Made", (object,), {"k": 1})


def shadowed_type(x):
    type = len  # a local named type is not the builtin
    return type(x)


def shadowed_tuple(x):
    tuple = list
    return tuple(x)


def show(f, *args):
    try:
        r = f(*args)
        print(f.__name__, "->", repr(r)[:70])
        return r
    except Exception as e:
        print(f.__name__, "raises", type(e).__name__, str(e)[:70])


values = [0, 2**70, -1.5, "s", b"b", None, True, [1, 2], (3, 4), {5: 6}, {7}, frozenset(),
          Point(1, 2), WithMeta(), WithMeta, Meta, type, object(), Pair((1, 2)), range(3)]
for v in values:
    show(type_of, v)
    show(name_of_type, v)
for v in [(), (1,), (1, 2, 3), [1, 2], "abc", {1: 2, 3: 4}, range(4), Pair((8, 9)),
          Countdown(3), iter([5, 6]), 5, None, BadIter()]:
    r = show(as_tuple, v)
    if r is not None:
        print("  same object:", r is v, "exact tuple:", type(r) is tuple)
print(same_type(1, 2), same_type(1, 2.0), same_type(Point(0, 0), Point(1, 1)))
print(tuple_of_squares(6), tuple_of_squares(0))

t = type_of_last_instance()
print(t.__name__, sys.getrefcount(t))
print(type_of_noisy())
made = three_argument_type()
print(made.__name__, made.k, type_of(made()) is made)
print(shadowed_type([1, 2, 3]), shadowed_tuple((1, 2)))

p = Point(3, 4)
exact = (1, 2, 3)
before = sys.getrefcount(Point), sys.getrefcount(p), sys.getrefcount(exact)
count = 0
for i in range(3000):
    count += type_of(p) is Point
    count += len(as_tuple(exact))
after = sys.getrefcount(Point), sys.getrefcount(p), sys.getrefcount(exact)
print(count, before == after)

saved_type, saved_tuple = builtins.type, builtins.tuple
builtins.type = lambda x: ("patched type", x)
builtins.tuple = lambda x: ("patched tuple", x)
print(type_of(1), as_tuple([1]))
builtins.type, builtins.tuple = saved_type, saved_tuple
print(type_of(1), as_tuple([1]))


def deep_type(n):
    return type(n) if n == 0 else deep_type(n - 1)


print(deep_type(300))
as_tuple(BadIter())
