# pydiff: threshold=3
# pydiff: all-compiled
# `for ... in enumerate(seq)` loops, whose FOR_ITER steps an exact enumerate over a list or
# tuple iterator inline (jit/hir/fuse_known_iterators.cc, jit/lower/iterators.cc
# NextEnumerateValue), against enum_next: starts below the small ints, across 256 and up to
# PY_SSIZE_T_MAX (where the count goes on as an int object), result tuples kept by the loop
# (enum_next makes a new one), a tuple the collector untracked (enum_next tracks it again), a
# list that grows, shrinks or is cleared while it is stepped, an enumerate stepped again after
# its end, list and tuple iterators stepped before or exhausted, other iterables (str, range, a
# generator, a dict), a rebound `enumerate` and a subclass, an exception in the body, and the
# references of the items afterwards.
import gc
import sys


def pairs(xs, start=0):
    out = []
    for i, x in enumerate(xs, start):
        out.append((i, x))
    return out


def index_sum(xs):
    total = 0
    for i, x in enumerate(xs):
        total += i * 3 + x
    return total


def kept(xs):
    keep = []
    for t in enumerate(xs):
        keep.append(t)
    return keep, len({id(t) for t in keep}) == len(keep)


def tracked(xs):
    seen = []
    for t in enumerate(xs):
        seen.append(gc.is_tracked(t))
        del t
        gc.collect()
    return seen


def growing(xs):
    out = []
    for i, x in enumerate(xs):
        if i < 4:
            xs.append(x * 10)
        if i == 6:
            del xs[1:3]
        out.append((i, x))
    return out


def cleared(xs):
    out = []
    for i, x in enumerate(xs):
        out.append(x)
        if i == 2:
            xs.clear()
    return out


def after_end(xs):
    e = enumerate(xs)
    first = [x for x in ()]
    for i, x in e:
        first.append(i + x)
    again = []
    for i, x in e:
        again.append(i)
    xs.append(99)  # the list iterator let go of xs at its end
    for i, x in e:
        again.append(i)
    return first, again


def inner_iterators(xs):
    it = iter(xs)
    next(it)
    out = [(i, x) for i, x in enumerate(it)]  # the rest of a list iterator
    for i, x in enumerate(it):  # an exhausted one: no list left to read
        out.append((i, x))
    tit = iter(tuple(xs))
    for _ in tit:
        pass
    for i, x in enumerate(tit):
        out.append((i, x))
    return out


def raising(xs):
    out = []
    try:
        for i, x in enumerate(xs):
            out.append(10 // x)
    except ZeroDivisionError:
        out.append("zero at %d" % i)
    return out


class Tracked:
    def __init__(self, n):
        self.n = n


def references():
    objs = [Tracked(n) for n in range(5)]
    before = [sys.getrefcount(o) for o in objs]
    for _ in range(20):
        index_sum([o.n for o in objs])
        for i, o in enumerate(objs):
            o.n += i
    for i, o in enumerate(objs):
        pass
    del i, o
    after = [sys.getrefcount(o) for o in objs]
    return before == after, [o.n for o in objs]


REBOUND = """
def enumerate(xs, start=0):
    for x in xs:
        yield (start, x)
        start += 2

def stepped(xs):
    return [(i, x) for i, x in enumerate(xs)] + [i for i, _ in enumerate(xs)]

def looped(xs):
    out = []
    for i, x in enumerate(xs):
        out.append(i)
    return out
"""


class Counted(enumerate):
    def __next__(self):
        i, x = super().__next__()
        return i * 100, x


def rebound():
    ns = {}
    exec(REBOUND, ns)
    sub = {"enumerate": Counted}
    exec(REBOUND.split("def stepped")[0].replace("def enumerate", "def unused") +
         "def looped(xs):\n    out = []\n    for i, x in enumerate(xs):\n"
         "        out.append(i)\n    return out\n", sub)
    return [(ns["looped"]([5, 6, 7]), sub["looped"]([5, 6, 7])) for _ in range(6)][-1]


def main():
    for _ in range(6):
        results = [
            pairs([1, 2, 3]),
            pairs((4, 5, 6), 250),
            pairs(list(range(600)), -300)[::97],
            pairs([7, 8], sys.maxsize - 1),
            pairs([7, 8, 9], 2**70),
            pairs([], 3),
            pairs("abc", -7),
            pairs(range(3)),
            pairs((x * x for x in range(4))),
            pairs({"a": 1, "b": 2}),
            index_sum(list(range(300))),
            index_sum((5, 6, 7)),
            kept([1, 2, 3]),
            tracked([1, [2], 3, [4], "x", (5,)]),
            growing([1, 2, 3, 4, 5, 6, 7]),
            cleared([1, 2, 3, 4, 5]),
            after_end([1, 2, 3]),
            inner_iterators([1, 2, 3]),
            raising([5, 2, 0, 1]),
            references(),
            rebound(),
        ]
    for r in results:
        print(r)


main()
