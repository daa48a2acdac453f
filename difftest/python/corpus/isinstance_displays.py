# pydiff: all-compiled
# pydiff: env=PYTHONMALLOC=pymalloc_debug
# isinstance() given a tuple display (`isinstance(x, (int, float))`), which compiled code asks
# without making the tuple (hir IsInstanceOfItems). Every answer stock's isinstance gives must
# come out: the first item that matches, none, subclasses, ABCs and a metaclass's
# __instancecheck__ (Python code that runs, in order, and stops at the first True), a
# __class__ property, nested tuples and unions inside the display, an item that is not a
# class (TypeError, after the items before it), recursion to RecursionError, `isinstance`
# rebound in the module to a function of the program's own and back, and references.
import abc
import collections.abc
import sys

LOG = []


class Loud(type):
    def __instancecheck__(cls, obj):
        LOG.append(cls.__name__)
        return getattr(obj, "loud", False)


class A(metaclass=Loud):
    pass


class B(metaclass=Loud):
    pass


class Base:
    pass


class Derived(Base):
    pass


class Masked:
    @property
    def __class__(self):
        LOG.append("masked")
        return Derived


class Shout:
    loud = True


class Named(abc.ABC):
    @abc.abstractmethod
    def name(self):
        ...


class HasName(Named):
    def name(self):
        return "n"


def kinds(x):
    return (isinstance(x, (int, float)), isinstance(x, (str, bytes, list)),
            isinstance(x, (Base, dict)), isinstance(x, (Derived,)),
            isinstance(x, (collections.abc.Mapping, collections.abc.Sequence)),
            isinstance(x, (Named, tuple)))


def loud(x):
    del LOG[:]
    r = isinstance(x, (A, B, int))
    return r, list(LOG)


def nested(x):
    return isinstance(x, ((int, str), (list, (dict,)))), isinstance(x, (int | str, bytes))


def not_a_class(x):
    del LOG[:]
    try:
        return isinstance(x, (A, 3, int))
    except TypeError as e:
        return str(e), list(LOG)


def masked(x):
    del LOG[:]
    return isinstance(x, (str, Base)), list(LOG)


def deep(x, depth):
    t = (int,)
    for _ in range(depth):
        t = (t, str)
    return isinstance(x, (t, bytes))


def recursion():
    try:
        return deep(1.5, sys.getrecursionlimit() * 2)
    except RecursionError as e:
        return "RecursionError", str(e)[:48]


def references(n):
    x, kinds_ = object(), (int, str)
    before = sys.getrefcount(x), sys.getrefcount(int)
    hits = 0
    for _ in range(n):
        hits += isinstance(x, (int, str)) + isinstance(x, (object, int))
        if isinstance(x, (kinds_, float)):
            hits += 100
    return hits, (sys.getrefcount(x), sys.getrefcount(int)) == before


def rebound(x):
    return isinstance(x, (int, str))


def main():
    values = [1, 1.5, True, "s", b"b", [1], {"k": 1}, (1,), Base(), Derived(), HasName(),
              Shout(), None]
    for _ in range(3):  # the later rounds run compiled
        print([kinds(v) for v in values])
        print([loud(v) for v in (1, Shout(), "s")])
        print([nested(v) for v in values])
        print(not_a_class(1), not_a_class(Shout()), not_a_class("s"))
        print(masked(Masked()), masked("s"), deep(1, 30), deep(1.5, 30))
        print(references(300))
    print(recursion())
    global isinstance
    isinstance = lambda x, kinds: ("own", type(x).__name__, len(kinds))
    print(rebound(1), rebound("s"))
    del isinstance
    print(rebound(1), rebound(2.5))


main()
