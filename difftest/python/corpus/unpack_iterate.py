# pydiff: all-compiled
# Unpacking and FOR_ITER over lists, tuples and ranges: the inline paths (exact tuple or
# list of the right size, item by item up to 4 and by a loop up to 16; list, tuple and range
# iterators with items left) and every way
# out of them (wrong sizes, subclasses, other iterables, mutation while iterating,
# exhausted iterators, ranges past a C long, errors raised by an iterable).
import sys


class Seq(tuple):
    def __iter__(self):
        yield "subclass"
        yield "iter"


class Pair(list):
    pass


def unpack2(x):
    a, b = x
    return b, a


def unpack3(x):
    a, b, c = x
    return c, b, a


def unpack_cases():
    out = []
    for x in [(1, 2), [3, 4], (5, 6, 7), [8], (), "ab", {"k": 1, "j": 2}, Seq((1, 2)),
              Pair([9, 10]), range(2), iter([11, 12]), (i for i in (13, 14)), 5, None]:
        try:
            out.append(unpack2(x))
        except (ValueError, TypeError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    for x in [(1, 2, 3), [4, 5, 6], (1, 2), [1, 2, 3, 4], "xyz"]:
        try:
            out.append(unpack3(x))
        except ValueError as e:
            out.append("ValueError: " + str(e))
    pairs = [(i, i * i) for i in range(50)]
    out.append(sum(a * b for a, b in pairs))
    return out


def unpack5(x):
    a, b, c, d, e = x
    return e, d, c, b, a


def unpack16(x):
    a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p = x
    return p, o, n, m, l, k, j, i, h, g, f, e, d, c, b, a


def unpack17(x):
    a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q = x
    return q, a


def long_unpacks():
    out = []
    for x in [(1, 2, 3, 4, 5), [6, 7, 8, 9, 10], (1, 2, 3, 4), [1, 2, 3, 4, 5, 6], "abcde",
              Pair([1, 2, 3, 4, 5]), range(5), iter([1, 2, 3]), 7]:
        try:
            out.append(unpack5(x))
        except (ValueError, TypeError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    for n in (15, 16, 17):
        for make in (tuple, list):
            for f in (unpack16, unpack17):
                try:
                    out.append(f(make(range(n))))
                except ValueError as e:
                    out.append("ValueError: " + str(e))
    # The items outlive the list: each has its own new reference.
    items = [object() for _ in range(5)]
    before = [sys.getrefcount(o) for o in items]
    held = [unpack5(list(items)) for _ in range(3)]
    out.append([sys.getrefcount(o) - b for o, b in zip(items, before)])
    del held
    out.append([sys.getrefcount(o) - b for o, b in zip(items, before)])
    return out


def swap_held(xs):
    # The unpacked items outlive the tuple: their references are the caller's now.
    t = (object(), [xs])
    a, b = t
    del t
    b.append(a)
    return len(b), b[0] is xs


def iterate(it):
    got = []
    for v in it:
        got.append(v)
    return got


def mutate_while_iterating():
    xs = [1, 2, 3, 4, 5, 6]
    seen = []
    for v in xs:
        seen.append(v)
        if v == 2:
            xs.pop()  # shrinks: the loop ends one item early, as stock's does
        if v == 4:
            xs.clear()
    grow = [1]
    for v in grow:
        if v < 5:
            grow.append(v + 1)
    return seen, xs, grow


def exhausted():
    xs = [1, 2]
    it = iter(xs)
    first = iterate(it)
    xs.append(3)  # an exhausted list iterator stays exhausted
    second = iterate(it)
    t = iter((1, 2))
    next(t)
    return first, second, iterate(t), iterate(t)


def ranges():
    out = [iterate(range(5)), iterate(range(10, 0, -3)), iterate(range(-4, 4, 2)),
           iterate(range(0)), iterate(range(3, 3)), iterate(range(2**62, 2**62 + 3)),
           iterate(range(2**63 - 2, 2**63 + 1)), iterate(range(-2**63, -2**63 + 2)),
           iterate(range(250, 260))]
    r = iter(range(3))
    next(r)
    out.append(iterate(r))
    total = 0
    for i in range(1000):
        total += i
    out.append(total)
    return out


class Boom:
    def __iter__(self):
        return self

    def __next__(self):
        raise RuntimeError("boom from __next__")


def raising():
    try:
        return iterate(Boom())
    except RuntimeError as e:
        return "RuntimeError: " + str(e)


def nested():
    grid = [[r * 3 + c for c in range(3)] for r in range(3)]
    flat = []
    for row in grid:
        for v in row:
            flat.append(v)
    for a, (b, c) in [(1, (2, 3)), (4, [5, 6])]:
        flat.append(a + b + c)
    return flat, iterate((7, 8, 9)), iterate(Pair([1])), iterate("str"), iterate({3: 1})


print(unpack_cases())
print(long_unpacks())
print(swap_held([0]))
print(mutate_while_iterating())
print(exhausted())
print(ranges())
print(raising())
print(nested())
