# pydiff: threshold=3
# pydiff: all-compiled
# `for k, v in d.items()` loops, whose FOR_ITER steps an exact dict item iterator inline
# (jit/hir/fuse_known_iterators.cc, jit/lower/iterators.cc NextDictItem), against
# dictiter_iternextitem: str keys (unicode entries) and other keys (general entries), deleted
# entries passed over, an empty dict, an instance's split __dict__, values replaced while
# iterated, a dict that changes size or keys while iterated (the RuntimeErrors), result tuples
# kept by the loop (a new one each step), a tuple the collector untracked (tracked again), an
# `items` method of another class or a subclass, OrderedDict, an `items` that returns an
# exhausted or part-stepped iterator, and the references of keys and values afterwards.
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


class Listed:
    def items(self):
        return [("x", 1), ("y", 2)]


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
            holders(),
            references(),
        ]
    for r in results:
        print(r)


main()
