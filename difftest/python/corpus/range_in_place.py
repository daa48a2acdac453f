# pydiff: all-compiled
# `for v in range(...)` may make each next value in the loop variable's old int when nothing
# else holds it (lower.int-store-in-place on FOR_ITER). Everything that still sees an earlier
# value must keep it: a list, a dict, a tuple, another local, a closure's cell, a generator's
# consumer, a locals() snapshot, the value after the loop; values past one digit (2**30) and
# negative steps take new objects or the same rule.
import sys


def kept_in_containers(start):
    seen, keys, pairs = [], {}, []
    for v in range(start, start + 6):
        seen.append(v)
        keys[v] = v - start
        pairs.append((v, v + 1))
    return seen, sorted(keys.items()), pairs


def aliased(start):
    out = []
    w = None
    for v in range(start, start + 5):
        if w is not None:
            out.append((w, v, w is v))
        w = v
    return out, w


def sums(n):
    total = 0
    for v in range(1000, 1000 + n):
        total += v
    return total, v


def negative_steps():
    out = []
    for v in range(-300, -320, -3):
        out.append(v)
    for v in range(2**30 - 3, 2**30 + 3):
        out.append(v)
    for v in range(-(2**30) + 2, -(2**30) - 2, -1):
        out.append(v)
    return out


def rebound(start):
    out = []
    for v in range(start, start + 4):
        out.append(v)
        v = v * 2  # the body's own int, held only by the local
        out.append(v)
        del v
    return out


def captured(start):
    fns = []
    for v in range(start, start + 3):
        fns.append(lambda v=v: v)
    return [f() for f in fns]


def cells(start):
    total = []
    for v in range(start, start + 3):
        total.append((lambda: v)())
    return total, (lambda: v)()


def produced(start, n):
    for v in range(start, start + n):
        yield v


def snapshots(start):
    frames = []
    for v in range(start, start + 3):
        frames.append(dict(locals()))
    return [f["v"] for f in frames]


def nested(start):
    grid = []
    for i in range(start, start + 3):
        row = []
        for j in range(start, start + 3):
            row.append(i * 1000 + j)
        grid.append((i, row))
    return grid


def parameter(v):
    first = None
    for v in range(v, v + 3):
        if first is None:
            first = v
    return first, v


def main():
    print(kept_in_containers(5000))
    print(aliased(7000))
    print(sums(500))
    print(negative_steps())
    print(rebound(3000))
    print(captured(4000))
    print(cells(4100))
    g = list(produced(9000, 5))
    print(g, [x is y for x, y in zip(g, g[1:])])
    print(sum(produced(9000, 200)))
    print(snapshots(6000))
    print(nested(1000))
    print(parameter(2000 + len(sys.argv)))
    marker = 1234567
    before = sys.getrefcount(marker)
    sums(300)
    print("marker references:", sys.getrefcount(marker) - before)


main()
