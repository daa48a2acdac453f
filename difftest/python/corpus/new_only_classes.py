# pydiff: threshold=5
# pydiff: all-compiled
# Classes whose __new__ is a Python function and whose __init__ is object's (namedtuples,
# Fraction), called at compiled sites: the site caches the class, and a64_instantiate calls
# __new__ with the class first, as type_call and slot_tp_new do. What type_call does after
# must hold: an object of another type returned as it is, one of a subclass with an __init__
# of its own initialised with the arguments, errors from __new__ and from that __init__ with
# their tracebacks, __new__ replaced after the site cached the class, an __init__ added to the
# class later, a metaclass given a __call__, keyword calls, and the references of the class
# and of what __new__ returns.
import collections
import fractions
import sys
import traceback

Point = collections.namedtuple("Point", "x y")
Row = collections.namedtuple("Row", "a b c", defaults=(0, 1))


class Other:
    pass


class Initialised(tuple):
    def __init__(self, *args):
        self.seen = args


class Maker:
    made = []

    def __new__(cls, v):
        if v == "other":
            return Other()
        if v == "sub":
            return tuple.__new__(Initialised, (1, 2))  # not of the class: not initialised
        if v == "child":
            return object.__new__(Child)  # of a subclass: its own __init__ runs
        if v == "bad child":
            return object.__new__(BadChild)
        if v == "none":
            return None
        if v == "raise":
            raise ValueError("no %s" % cls.__name__)
        obj = object.__new__(cls)
        obj.v = v
        Maker.made.append(v)
        return obj


class Child(Maker):
    def __init__(self, *args):
        self.seen = args


class BadChild(Maker):
    def __init__(self, v):
        raise KeyError("child of %r" % (v,))


class Meta(type):
    pass


class Metered(metaclass=Meta):
    def __new__(cls, v):
        obj = object.__new__(cls)
        obj.v = v
        return obj


def points(n):
    return [Point(i, -i) for i in range(n)]


def rows(n):
    return [Row(i) + Row(i, i) + Row(i, i, i) for i in range(n)]


def fracs(n):
    return sum(fractions.Fraction(i, i + 1) for i in range(n))


def made(values):
    out = []
    for v in values:
        try:
            r = Maker(v)
        except (ValueError, KeyError) as e:
            out.append("line %d: %s" % (traceback.extract_tb(e.__traceback__)[-1].lineno, e))
            continue
        out.append(type(r).__name__ + (" v=%r" % (r.v,) if hasattr(r, "v") else "") +
                   (" seen=%r" % (r.seen,) if hasattr(r, "seen") else ""))
    return out


def bad_calls():
    out = []
    for call in (lambda: Point(1), lambda: Point(1, 2, 3), lambda: Row()):
        try:
            out.append(call())
        except TypeError as e:
            out.append("TypeError: %s" % e)
    return out


def metered(n):
    return [repr(getattr(Metered(i), "v", "no v")) for i in range(n)]


def keywords(n):
    return [Point(x=i, y=2 * i) for i in range(n)]


for _ in range(8):  # warm every function past the threshold, then use them
    points(2)
    rows(2)
    fracs(2)
    made([1])
    bad_calls()
    metered(2)
    keywords(2)

print(points(5), rows(3), fracs(20))
print(made([1, "other", "sub", "child", "none", "raise", "bad child", 2]))
print(bad_calls())
print(keywords(3))
print(metered(3))
Meta.__call__ = lambda cls, *args: ("made by Meta.__call__", args)
print("after Meta.__call__", metered(3))
del Meta.__call__
original = Maker.__new__
Maker.__new__ = staticmethod(lambda cls, v: ("replaced", v))
print("after __new__ replaced", made([3, 4]))
Maker.__new__ = original
Maker.__init__ = lambda self, v: setattr(self, "v", ("init", v))
print("with an __init__", made([5, "sub"]))
del Maker.__init__
print("without again", made([6]), Maker.made[-3:])
base = sys.getrefcount(Point)
kept = points(40)
print("Point references while alive:", sys.getrefcount(Point) - base)
del kept
print("Point references after:", sys.getrefcount(Point) - base)
