# pydiff: all-compiled
# Imports inside functions (IMPORT_NAME, IMPORT_FROM: dotted, aliased, a submodule by
# from-import, a missing module and a missing name), `global` writes and deletes (STORE_GLOBAL,
# DELETE_GLOBAL) and the NameError that follows, del of locals (DELETE_FAST) and the
# UnboundLocalError that follows, del of attributes, subscripts and slices (DELETE_ATTR,
# DELETE_SUBSCR), and del of names that were never bound. Messages are printed as CPython
# words them.

counter = 0
registry = {}


def use_imports():
    import math
    import os.path
    import collections.abc as cabc
    from functools import reduce, partial as p
    from itertools import accumulate
    from json import decoder
    out = [math.gcd(12, 18), os.path.join("a", "b"), isinstance([], cabc.Sequence),
           reduce(lambda a, b: a * b, range(1, 6)), p(int, base=2)("101"),
           list(accumulate([1, 2, 3])), decoder.__name__]
    try:
        import a64jit_no_such_module
    except ImportError as e:
        out.append(type(e).__name__ + ": " + str(e))
    try:
        from math import no_such_name
    except ImportError as e:
        # The message names the file math was loaded from: keep only its first part.
        out.append(type(e).__name__ + ": " + str(e).split(" (")[0])
    return out


def bump(by):
    global counter
    counter += by
    return counter


def set_and_delete():
    global temporary
    temporary = "made by a function"
    seen = temporary
    del temporary
    try:
        temporary
    except NameError as e:
        return seen, str(e)


def delete_missing_global():
    global never_defined
    try:
        del never_defined
    except NameError as e:
        return str(e)


def register(name, value):
    global registry
    registry[name] = value
    if len(registry) > 2:
        registry = {k: v for k, v in registry.items() if v % 2}
    return sorted(registry.items())


def del_locals(flag):
    a = 1
    b = [1, 2]
    out = [a, b]
    del a
    try:
        out.append(a)
    except UnboundLocalError as e:
        out.append(str(e))
    if flag:
        c = "set"
    try:
        out.append(c)
    except UnboundLocalError as e:
        out.append(str(e))
    c = "again"
    del c
    c = "rebound"
    out.append(c)
    try:
        del never
    except UnboundLocalError as e:
        out.append(str(e))
    for i in range(2):
        pass
    del i
    return out


never = "a global of the same name, which `del never` in del_locals does not touch"


class Bag:
    kind = "bag"

    def __init__(self):
        self.x = 1
        self.y = 2


def del_attributes():
    b = Bag()
    out = [sorted(vars(b))]
    del b.x
    out.append(sorted(vars(b)))
    try:
        b.x
    except AttributeError as e:
        out.append(str(e))
    try:
        del b.missing
    except AttributeError as e:
        out.append(str(e))
    b.x = 10
    out.append(b.x)
    Bag.extra = "class attr"
    out.append(b.extra)
    del Bag.extra
    out.append(hasattr(b, "extra"))
    return out


def del_subscripts():
    lst = list(range(10))
    d = {"a": 1, "b": 2, "c": 3}
    del lst[0]
    del lst[-1]
    del lst[2:4]
    del lst[::2]
    del d["b"]
    out = [lst, sorted(d.items())]
    try:
        del d["zzz"]
    except KeyError as e:
        out.append("KeyError " + str(e))
    try:
        del lst[99]
    except IndexError as e:
        out.append(str(e))
    t = (1, 2)
    try:
        del t[0]
    except TypeError as e:
        out.append(str(e))
    nested = {"k": [1, 2, 3]}
    del nested["k"][1:]
    out.append(nested)
    ba = bytearray(b"hello")
    del ba[1:3]
    out.append(bytes(ba))
    return out


def uses_global_before_definition():
    try:
        return defined_later
    except NameError as e:
        return str(e)


def shadowed():
    # Assigning makes `counter` local everywhere in the function: the read comes first.
    try:
        counter += 1
    except UnboundLocalError as e:
        return str(e)


def main():
    print("imports", use_imports())
    print("globals", bump(2), bump(3), counter)
    print("set and delete", set_and_delete())
    print("delete missing", delete_missing_global())
    for i, name in enumerate("abcd"):
        print("register", register(name, i))
    print("del locals", del_locals(True))
    print("del locals", del_locals(False))
    print("del attributes", del_attributes())
    print("del subscripts", del_subscripts())
    print("before definition", uses_global_before_definition())
    print("shadowed", shadowed())


main()
defined_later = 1
