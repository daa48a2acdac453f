# pydiff: all-compiled
# CALLs the call stub makes through a site's C-call cache in the two shapes added after
# c_calls.py: a bound C method held in a local or an attribute (cached by its PyMethodDef,
# called with each callable's own self; the cache keeps nothing alive), and a module's
# function of another convention (METH_VARARGS, keywords: max, min, called through its
# vectorcall). Also a module's function reached through LOAD_METHOD's [NULL, attribute].
import math
import random
import sys


def call_each(fns, key):
    return [fn(key) for fn in fns]  # one site, a new bound method each time


dicts = [{"k": i} for i in range(6)]
print(call_each([d.get for d in dicts], "k"))
# other PyMethodDefs at the same site: METH_O, METH_FASTCALL, METH_NOARGS, a module function
print(call_each([d.get for d in dicts] + [[1, "k", 2].count, (2, 2).count, math.floor], 2))
print(call_each([[2, 2, 3].count, [2].count, b"\x02\x02".count, {2: "two"}.get], 2))


def no_args(fns):
    return [fn() for fn in fns]


print(no_args([[3, 1, 2].copy, {"a": 1}.copy, "x".upper, [].copy]))


def fresh_bound(d, key):
    return getattr(d, "get")(key)  # the value stack holds the bound method's only reference


d = {"a": 1}
before = sys.getrefcount(d)
values = [fresh_bound(d, "a") for _ in range(300)]
print("values", sum(values), "refcount delta", sys.getrefcount(d) - before)


class Holder:
    pass


def call_held(holder, x):
    return holder.fn(x)  # LOAD_METHOD gives [NULL, attribute]


h = Holder()
for fn in (math.sqrt, math.floor, {4.0: "four"}.get, [4.0].count, abs):
    h.fn = fn
    print([call_held(h, 4.0) for _ in range(3)])


def extremes(a, b, c):
    return max(a, b), min(b, c), max(a, b, c), min((a, b, c))


print([extremes(i, 7 - i, i * 2) for i in range(10)])
print(max([3, 1, 2]), max(1, 2, key=lambda v: -v), min("bca"))


def failing(seq):
    try:
        return max(seq)
    except (TypeError, ValueError) as e:
        return type(e).__name__ + ": " + str(e)


print(failing([]), failing([1, "a"]), failing([5, 9]))

rng = random.Random(5)  # randrange holds getrandbits in a local
print([rng.randrange(1000) for _ in range(20)], round(rng.random(), 12))


def shared_site(fn, arg):
    return fn(arg)


# one site taking module functions of both conventions and bound methods, in turn
for fn, arg in [(len, "abc"), (max, [1, 5]), ({1: 2}.get, 1), (max, (7, 3)), ([1, 1].count, 1),
                (len, [1]), (min, "zy")] * 3:
    print(shared_site(fn, arg), end=" ")
print()


# A module's C function is cached without a reference: a dropped module is collected after
# compiled code called its functions (test_struct's check, with a fresh _struct).
import gc
import weakref
from test.support import import_helper


def sizes(module):
    return module.calcsize(b"b") + module.calcsize("i")


def fresh_struct_dies():
    module = import_helper.import_fresh_module("_struct")
    ref = weakref.ref(module)
    total = sum(sizes(module) for _ in range(3))
    del module
    gc.collect()
    return total, ref() is None


print("fresh _struct", fresh_struct_dies())
