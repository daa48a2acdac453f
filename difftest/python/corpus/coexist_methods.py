# pydiff: all-compiled
# pydiff: threshold=0,10
"""C methods that their types define beside a slot's wrapper (METH_COEXIST: set's, frozenset's
and dict's __contains__, dict's __getitem__, list's __getitem__), called as bound methods held
in a local, a new bound object on every outer call as difflib makes its `isbjunk`, and through
LOAD_METHOD: compiled code's call sites cache them by their PyMethodDef (jit/python/helpers.cc
CEntryOf), as any other C method. Values, KeyError and unhashable keys with their tracebacks,
subclasses that override the method, the objects dying between calls, and reference counts."""
import sys


class Junk(set):
    def __contains__(self, item):  # a Python override: not the C method
        return item == "overridden"


def count_junk(words, junk):
    is_junk = junk.__contains__  # a new bound method each call
    n = 0
    for w in words:
        if is_junk(w):
            n += 1
    return n


def lookup_all(keys, table):
    get = table.__getitem__
    return [get(k) for k in keys]


def contains_direct(s, x):
    return s.__contains__(x)


def item_of(seq, i):
    return seq.__getitem__(i)


def show(f, *args):
    try:
        print(f.__name__, "->", repr(f(*args))[:70])
    except Exception as e:
        print(f.__name__, "raises", type(e).__name__, str(e)[:70])


words = "a b c junk d junk e overridden".split()
for i in range(12):
    count_junk(words, {"junk", "e"})
    count_junk(words, frozenset({"a"}))
    count_junk(words, {"junk": 1})
    lookup_all(["x", "y"], {"x": 1, "y": 2})
    contains_direct({1, 2}, 2)
    item_of([5, 6, 7], 1)
show(count_junk, words, {"junk", "e"})
show(count_junk, words, frozenset({"a", "b"}))
show(count_junk, words, {"junk": 1, "d": 2})
show(count_junk, words, Junk())
show(count_junk, [[1]], {"a"})  # an unhashable item
show(lookup_all, ["x", "y", "x"], {"x": 1, "y": 2})
show(lookup_all, ["x", "z"], {"x": 1})
show(lookup_all, [0, 2, -1], [10, 20, 30])
show(lookup_all, [0, 5], [10])
show(contains_direct, {1, 2}, 2)
show(contains_direct, {1, 2}, [3])
show(contains_direct, {"k": 0}, "k")
show(item_of, [5, 6, 7], -1)
show(item_of, {"a": 1}, "a")
show(item_of, (1, 2), 0)

marker = object()
s = {marker}
before = sys.getrefcount(marker), sys.getrefcount(s)
total = 0
for i in range(2000):
    total += count_junk([marker, 1], s)
print(total, before == (sys.getrefcount(marker), sys.getrefcount(s)))
lookup_all(["missing"], {})
