# pydiff: threshold=3
# pydiff: all-compiled
# `for a, b in zip(xs, ys)` loops, whose FOR_ITER steps an exact zip of two list or tuple
# iterators inline (jit/hir/fuse_known_iterators.cc, jit/lower/iterators.cc NextZipPair),
# against zip_next: lists and tuples of equal and unequal lengths (the longer one's iterator
# left where zip_next leaves it), zip(strict=True) (its ValueError), result tuples kept by the
# loop, a tuple the collector untracked, a first item whose release runs a finalizer that
# shortens the second list (the order zip_next releases and steps in), lists that change while
# stepped, iterators stepped before, one iterator zipped with itself, other iterables (a str, a range, a generator), three
# iterables, a rebound `zip`, and the references of the items afterwards.
import gc
import sys


def pairs(xs, ys):
    out = []
    for a, b in zip(xs, ys):
        out.append((a, b))
    return out


def strict_pairs(xs, ys):
    out = []
    try:
        for a, b in zip(xs, ys, strict=True):
            out.append(a + b)
    except ValueError as e:
        out.append("ValueError: %s" % e)
    return out


def leftover(xs, ys):
    it = iter(ys)
    out = [a + b for a, b in pairs(xs, [])]
    for a, b in zip(xs, it):
        out.append(a * b)
    return out, list(it)


def kept(xs, ys):
    keep = []
    for t in zip(xs, ys):
        keep.append(t)
    return keep, len({id(t) for t in keep}) == len(keep)


def tracked(xs, ys):
    seen = []
    for t in zip(xs, ys):
        seen.append(gc.is_tracked(t))
        del t
        gc.collect()
    return seen


class Shortens:
    """Its release empties `target`: zip_next releases the first old item before it steps the
    second iterator, so the step after its release finds the second list empty."""

    def __init__(self, target, log):
        self.target = target
        self.log = log

    def __del__(self):
        self.log.append("released")
        del self.target[:]


def released_first(n):
    log = []
    second = list(range(10, 10 + n))
    first = [Shortens(second, log)] + list(range(1, n))
    out = []
    for a, b in zip(first, second):
        out.append(b)
        del a  # the loop's name no longer holds the first item
        first[0] = None  # nor the list: the result tuple holds its last reference
    return out, log


def changing(xs, ys):
    out = []
    for a, b in zip(xs, ys):
        out.append((a, b))
        if len(out) == 2:
            ys.append(99)
            xs.pop()
    return out


def stepped_before(xs, ys):
    ix, iy = iter(xs), iter(ys)
    next(ix)
    return [(a, b) for a, b in pairs(ix, iy)]


def grouped(xs):
    it = iter(xs)
    out = []
    for a, b in zip(it, it):  # one iterator twice: each step takes two items of it
        out.append((a, b))
    return out


def triple(xs, ys, zs):
    out = []
    for a, b, c in zip(xs, ys, zs):
        out.append(a + b + c)
    return out


REBOUND = """
def zip(xs, ys):
    return [(y, x) for x, y in __builtins__['zip'](xs, ys)] if isinstance(__builtins__, dict) \
        else [(y, x) for x, y in __builtins__.zip(xs, ys)]

def looped(xs, ys):
    out = []
    for a, b in zip(xs, ys):
        out.append((a, b))
    return out
"""


THREE = """
import builtins

def zip(xs, ys):
    return builtins.zip(xs, ys, xs)  # an exact zip, of three iterators

def looped(xs, ys):
    out = []
    for t in zip(xs, ys):
        out.append(t)
    return out
"""


def rebound():
    ns, three = {}, {}
    exec(REBOUND, ns)
    exec(THREE, three)
    return [(ns["looped"]([1, 2], [3, 4]), three["looped"]([1, 2], [3, 4])) for _ in range(6)][-1]


class Tracked:
    def __init__(self, n):
        self.n = n


def references():
    xs = [Tracked(i) for i in range(4)]
    ys = [Tracked(10 + i) for i in range(4)]
    before = [sys.getrefcount(o) for o in xs + ys]
    for _ in range(20):
        for a, b in zip(xs, ys):
            a.n += b.n
    a = b = None
    after = [sys.getrefcount(o) for o in xs + ys]
    return before == after, [o.n for o in xs]


def main():
    for _ in range(6):
        results = [
            pairs([1, 2, 3], [4, 5, 6]),
            pairs((1, 2, 3), [4, 5]),
            pairs([1], (4, 5, 6)),
            pairs([], [1]),
            pairs("ab", [1, 2]),
            pairs(range(3), [7, 8, 9]),
            pairs((x * x for x in range(3)), [1, 2, 3]),
            strict_pairs([1, 2], [3, 4]),
            strict_pairs([1, 2, 3], [3, 4]),
            strict_pairs([1], [3, 4]),
            leftover([1, 2], [5, 6, 7, 8]),
            kept([1, 2, 3], [4, 5, 6]),
            tracked([1, [2], 3, [4]], [5, [6], 7, [8]]),
            released_first(4),
            changing([1, 2, 3, 4], [5, 6, 7]),
            stepped_before([1, 2, 3], [4, 5, 6]),
            grouped([1, 2, 3, 4, 5]),
            grouped((1, 2, 3, 4)),
            triple([1, 2], [3, 4], [5, 6]),
            rebound(),
            references(),
        ]
    for r in results:
        print(r)


main()
