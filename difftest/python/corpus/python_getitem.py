# pydiff: threshold=20
# pydiff: all-compiled
# `c[k]` where c's class defines __getitem__ in Python, which 3.11 specialises to
# BINARY_SUBSCR_GETITEM: compiled code calls the class's function directly, remembered by the
# class's version tag. What must still hold: slices and negative keys, errors raised inside with
# their tracebacks, subclasses of list and dict, __getitem__ replaced, deleted and given a new
# __code__ after the site cached it, one taking a default (not taken), a staticmethod, an
# instance attribute named __getitem__ (ignored), a site meeting several classes, and the
# references of containers and keys.
import sys
import traceback


class Vec:
    def __init__(self, items):
        self.items = list(items)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return Vec(self.items[i])
        return self.items[i]

    def __repr__(self):
        return "Vec(%r)" % (self.items,)


class Table:
    def __init__(self):
        self.rows = {"a": 1, "b": 2}

    def __getitem__(self, key):
        if key not in self.rows:
            raise KeyError("no row %r" % (key,))
        return self.rows[key]


class Shouting(list):
    def __getitem__(self, i):
        return str(list.__getitem__(self, i)).upper()


class Defaulted(dict):
    def __getitem__(self, key):
        return dict.get(self, key, "default")


class WithExtra:
    def __getitem__(self, key, extra=10):
        return key * extra


class Static:
    @staticmethod
    def __getitem__(key):
        return "static"


class Changing:
    def __getitem__(self, key):
        return "first %s" % (key,)


def get(c, k):
    return c[k]


def get_twice(c, k):
    return c[k], c[k]


def main():
    v = Vec(range(10))
    for _ in range(30):  # quickened with Vec, then compiled with the feedback
        get(v, 3)
        get_twice(v, 4)
    print(get(v, 2), get(v, -1), get(v, slice(2, 5)), get_twice(v, 7))
    for bad in (10, "x"):
        try:
            get(v, bad)
        except (IndexError, TypeError):
            traceback.print_exc(file=sys.stdout)
    t = Table()
    print(get(t, "a"), get_twice(t, "b"))
    try:
        get(t, "zz")
    except KeyError:
        traceback.print_exc(file=sys.stdout)
    print(get(Shouting(["ab", "cd"]), 1), get(Defaulted(x=1), "x"), get(Defaulted(), "y"))
    try:
        print(get(WithExtra(), 4), get(Static(), 1))
    except TypeError:
        traceback.print_exc(file=sys.stdout)
    c = Changing()
    print(get_twice(c, 1))
    Changing.__getitem__ = lambda self, key: "second %s" % (key,)
    print(get_twice(c, 2))

    def third(self, key):
        return "third %s" % (key,)

    Changing.__getitem__.__code__ = third.__code__
    print(get_twice(c, 3))
    del Changing.__getitem__
    try:
        get(c, 4)
    except TypeError:
        traceback.print_exc(file=sys.stdout)
    c.__getitem__ = lambda key: "instance"
    try:
        get(c, 5)
    except TypeError:
        traceback.print_exc(file=sys.stdout)
    mixed = [Vec("abc"), Shouting(["x", "y"]), t, [7, 8], {"a": 9}, "str"] * 4
    print([get(m, 1) if not isinstance(m, (Table, dict)) else get(m, "a") for m in mixed])
    key = "b" * 3
    before = sys.getrefcount(v), sys.getrefcount(key)
    for _ in range(40):
        get(v, 1)
        get(t, "a")
        get(Defaulted(), key)
    print((sys.getrefcount(v), sys.getrefcount(key)) == before)


main()
