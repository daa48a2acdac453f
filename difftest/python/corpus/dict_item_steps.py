# pydiff: threshold=3
# pydiff: all-compiled
# `for k, v in d.items()`, `for k in d.keys()` and `for v in d.values()` loops, and
# comprehensions over them, whose FOR_ITER steps an exact dict item, key or value iterator
# inline (jit/hir/fuse_known_iterators.cc, jit/lower/iterators.cc NextDictItem and
# NextDictKeyOrValue), against dictiter_iternextitem, dictiter_iternextkey and
# dictiter_iternextvalue: str keys (unicode entries) and other keys (general entries), deleted
# entries passed over, an empty dict, an instance's split __dict__, values replaced while
# iterated, a dict that changes size or keys while iterated (the RuntimeErrors), result tuples
# kept by the loop (a new one each step), a tuple the collector untracked (tracked again), an
# `items`, `keys` or `values` method of another class or a subclass, OrderedDict, one that
# returns an exhausted or part-stepped iterator or another kind of dict iterator, and the
# references of keys and values afterwards.
import collections
import gc
import sys


def pairs(d):
    out = []
    for k, v in d.items():
        out.append((k, v))
    return out


def value_sum(d):
    total = 0
    for k, v in d.items():
        total += v
    return total


def key_list(d):
    out = []
    for k in d.keys():
        out.append(k)
    return out


def value_list(d):
    out = []
    for v in d.values():
        out.append(v)
    return out


def views(d):
    return [k for k in d.keys()], {v for v in d.values()}, tuple(v for v in d.values())


def replaced(d):
    for k, v in d.items():
        d[k] = v * 10
    return sorted(d.items())


def grows(d):
    seen = []
    try:
        for k, v in d.items():
            seen.append(k)
            if len(seen) == 1:
                d[k * 100] = v  # the first step only: items are left to give after it
    except RuntimeError as e:
        return seen, "RuntimeError: %s" % e
    return seen, "no error"


def grow_at_first(d, seen, x):
    seen.append(x)
    if len(seen) == 1:
        d[len(d) + 1000] = 0  # the first step only: items are left to give after it


def keys_growing(d, seen):
    for k in d.keys():
        grow_at_first(d, seen, k)


def values_growing(d, seen):
    for v in d.values():
        grow_at_first(d, seen, v)


def outcome(loop, d):
    seen = []
    try:
        loop(d, seen)
    except RuntimeError as e:
        return seen, "RuntimeError: %s" % e
    return seen, "no error"


def rekeyed(d):
    seen = []
    try:
        for k, v in d.items():
            seen.append(k)
            if len(seen) == 1:
                del d[k]
                d[k + "!"] = v
    except RuntimeError as e:
        return seen, "RuntimeError: %s" % e
    return seen, "no error"


def kept(d):
    keep = []
    for t in d.items():
        keep.append(t)
    return keep, len({id(t) for t in keep}) == len(keep)


def tracked(d):
    seen = []
    for t in d.items():
        seen.append(gc.is_tracked(t))
        del t
        gc.collect()
    return seen


class Holder:
    def __init__(self, it):
        self.it = it

    def items(self):
        return self.it

    def keys(self):
        return self.it

    def values(self):
        return self.it


class Listed:
    def items(self):
        return [("x", 1), ("y", 2)]

    def keys(self):
        return ["x", "y"]

    def values(self):
        return (1, 2)


class Sub(dict):
    pass


def holders():
    d = {"a": 1, "b": 2, "c": 3}
    done = iter(d.items())
    list(done)
    part = iter(d.items())
    next(part)
    shrunk = {"a": 1, "b": 2}
    left = iter(shrunk.items())
    next(left)
    del shrunk["a"]
    shrunk["z"] = 26  # the same size, another key: the iterator runs out of items to give
    out = [pairs(Holder(done)), pairs(Holder(part))]
    try:
        out.append(pairs(Holder(left)))
    except RuntimeError as e:
        out.append("RuntimeError: %s" % e)
    rekeyed_keys = {"a": 1, "b": 2}
    keys_left = iter(rekeyed_keys.keys())
    next(keys_left)
    del rekeyed_keys["a"]
    rekeyed_keys["z"] = 26
    try:
        out.append(key_list(Holder(keys_left)))
    except RuntimeError as e:
        out.append("RuntimeError: %s" % e)
    values_part = iter(d.values())
    next(values_part)
    # key loops given a values iterator, value loops given a keys or an items iterator
    out += [value_list(Holder(values_part)), key_list(Holder(iter(d.values()))),
            value_list(Holder(iter(d.keys()))), value_list(Holder(iter(d.items())))]
    return out


class Tracked:
    def __init__(self, n):
        self.n = n


def references():
    keys = ["k%d" % i for i in range(5)]
    vals = [Tracked(i) for i in range(5)]
    d = dict(zip(keys, vals))
    before = [sys.getrefcount(o) for o in keys + vals]
    for _ in range(20):
        for k, v in d.items():
            v.n += 1
        for v in d.values():
            v.n += 1
        for k in d.keys():
            d[k].n += 1
    k = v = None
    after = [sys.getrefcount(o) for o in keys + vals]
    return before == after, [o.n for o in vals]


class Slots:
    def __init__(self):
        self.a = 1
        self.b = 2


def main():
    holey = {i: str(i) for i in range(40)}
    for i in range(0, 40, 3):
        del holey[i]
    for _ in range(6):
        results = [
            pairs({"a": 1, "b": 2, "c": 3}),
            pairs({1: "x", 2.5: "y", (3,): "z"}),
            pairs(holey)[::5],
            pairs({}),
            pairs(Slots().__dict__),
            value_sum({i: i for i in range(500)}),
            replaced({"p": 1, "q": 2}),
            grows({1: 1, 2: 2, 3: 3}),
            rekeyed({"a": 1, "b": 2, "c": 3}),
            kept({"a": 1, "b": 2}),
            tracked({"a": 1, "b": [2], "c": 3, "d": [4]}),
            pairs(Listed()),
            pairs(Sub(s=1, t=2)),
            pairs(collections.OrderedDict([("o", 1), ("p", 2)])),
            key_list({"a": 1, (2,): 2}),
            value_list({1: "x", 2.5: "y"}),
            key_list(holey)[::5],
            value_list(holey)[::5],
            key_list({}),
            value_list(Slots().__dict__),
            key_list(Slots().__dict__),
            views({"p": 3, "q": 4, "r": 3}),
            views(holey),
            outcome(keys_growing, {1: 1, 2: 2, 3: 3}),
            outcome(values_growing, {1: 1, 2: 2, 3: 3}),
            key_list(Listed()),
            value_list(Listed()),
            key_list(Sub(s=1, t=2)),
            value_list(collections.OrderedDict([("o", 1), ("p", 2)])),
            holders(),
            references(),
        ]
    for r in results:
        print(r)


main()
