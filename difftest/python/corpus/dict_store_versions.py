# pydiff: threshold=10
# pydiff: all-compiled
# Compiled code replaces the value of an attribute its object's real __dict__ already holds in
# place, at the site's hint, with a version tag of its own (jit/python/dict_access.h), and
# decides that a real dict lacks a method's name by probing its hash table. Covered: a
# function whose globals are an instance's __dict__ (its cached global must see the store),
# the dict's GC tracking after an int is replaced by a list (and a cycle through it
# collected), and methods called on objects with real dicts: small and large ones (over 170
# names: two-byte index slots), with deleted names, with the method's name stored as another
# str object of equal text, and with a non-str key.
import gc
import types


class Bag:
    def __init__(self, n):
        for i in range(n):
            setattr(self, "f%d" % i, i)
        self.a = 0

    def method(self):
        return "Bag.method"


def set_a(o, v):
    o.a = v


def call_method(o):
    return o.method()


def read_global_a():
    return a  # noqa: F821 (this function's globals are a Bag's __dict__)


def globals_are_an_instance_dict():
    bag = Bag(40)
    reader = types.FunctionType(read_global_a.__code__, vars(bag))
    seen = []
    for i in range(30):
        set_a(bag, i)
        seen.append(reader())
    print("globals:", seen[-3:], seen == list(range(30)))


def gc_tracking():
    bag = Bag(40)
    for i in range(20):
        set_a(bag, i)
    print("tracked with ints:", gc.is_tracked(vars(bag)))
    set_a(bag, [])
    print("tracked with a list:", gc.is_tracked(vars(bag)))
    bag.a.append(bag)  # a cycle through the dict
    gc.collect()
    del bag
    print("collected:", gc.collect() > 0)


def methods():
    small, large, holey = Bag(40), Bag(300), Bag(60)
    for i in range(0, 60, 2):
        delattr(holey, "f%d" % i)
    for _ in range(20):
        print_once = [call_method(o) for o in (small, large, holey)]
    print("methods:", print_once)
    same_text = "".join(["me", "thod"])  # not the interned name
    vars(small)[same_text] = lambda: "the instance's, by equal text"
    large.method = lambda: "the instance's, set"
    vars(holey)[1] = "a key that is not a str"
    print("shadowed:", [call_method(o) for o in (small, large, holey)])
    del vars(small)[same_text]
    del large.method
    print("again:", [call_method(o) for o in (small, large)])


globals_are_an_instance_dict()
gc_tracking()
methods()
