# pydiff: threshold=3
# pydiff: all-compiled
# Comprehensions and generator expressions over `enumerate(...)`, `d.items()` and `zip(a, b)`:
# their loop over `.0` steps the iterator inline when `.0` held such an iterator as the compile
# was asked for (jit/hir/fuse_known_iterators.cc FuseLocalIterator), against enum_next,
# dictiter_iternextitem and zip_next: list, dict and set comprehensions and generator
# expressions, a generator expression stepped by next() and left unfinished, nested loops, a
# dict that changes size while a comprehension steps it, one iterator zipped with itself,
# iterators that are not over lists or tuples, an exception in the body, and the same code
# after `enumerate` and `zip` are rebound so that `.0` is another iterator.
import sys


def indexed(xs, start=0):
    return [(i, x) for i, x in enumerate(xs, start)]


def weighted(xs):
    return sum(i * x for i, x in enumerate(xs))


def bumped(d):
    return {k: v + 1 for k, v in d.items()}


def swapped(d):
    return {v: k for k, v in d.items()}


def pair_set(a, b):
    return {x * 10 + y for x, y in zip(a, b)}


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def zipped(a, b):
    return [(x, y) for x, y in zip(a, b)]


def flat(rows):
    return [y * i for i, row in enumerate(rows) for y in row]


def keyed_rows(d):
    return [[k + str(j) for j, c in enumerate(v)] for k, v in d.items()]


def first_two(xs):
    g = ((i, x) for i, x in enumerate(xs))
    return next(g), next(g), g


def grow_while_stepping(d):
    try:
        return {k: d.setdefault(k + "!", v) for k, v in d.items()}
    except RuntimeError as e:
        return "RuntimeError: " + str(e)


def pairs_of(xs):
    it = iter(xs)
    return [a + b for a, b in zip(it, it)]


def failing(xs):
    try:
        return [10 // x for i, x in enumerate(xs)]
    except ZeroDivisionError as e:
        return "ZeroDivisionError: " + str(e)


def gen():
    yield from (5, 6, 7)


def main():
    out = []
    data = [3, 1, 4, 1, 5, 9, 2, 6]
    d = {"a": 1, "b": 2, "c": 3}
    for rnd in range(8):
        out.append(indexed(data, rnd * 100))
        out.append(indexed(tuple(data)))
        out.append(indexed("abc"))
        out.append(indexed(gen()))
        out.append(weighted(data))
        out.append(weighted(range(rnd + 3)))
        out.append(bumped(d))
        out.append(bumped({}))
        out.append(swapped(d))
        out.append(sorted(pair_set(data, data[::-1])))
        out.append(sorted(pair_set(range(5), iter(range(3)))))
        out.append(dot(data, data[1:]))
        out.append(dot(data, tuple(data)))
        out.append(dot(iter(data), data))
        out.append(zipped(data, "xyz"))
        out.append(flat([[1, 2], [3], [], data]))
        out.append(keyed_rows({"x": "ab", "y": [1, 2, 3]}))
        a, b, g = first_two(data)
        out.append((a, b))
        del g  # unfinished: its frame and the enumerate go now
        out.append(grow_while_stepping({"k": 1}))
        out.append(pairs_of(data))
        out.append(pairs_of(tuple(range(7))))
        out.append(failing([1, 2, 0, 4]))
        out.append(failing([5, 2]))
    held = [object() for _ in range(4)]
    before = [sys.getrefcount(x) for x in held]
    for _ in range(5):
        indexed(held)
        zipped(held, held[1:])
        swapped({i: x for i, x in enumerate(held)})
    out.append([sys.getrefcount(x) - n for x, n in zip(held, before)])
    return out


def rebound_enumerate(xs, start=0):
    return iter([(start + 1000 + k, x) for k, x in builtin_enumerate(xs)])


def rebound_zip(*its):
    return (tuple(t) for t in builtin_zip(*its))


builtin_enumerate, builtin_zip = enumerate, zip
for line in main():
    print(line)
# The comprehensions' code is compiled with its hint; now `.0` is a list iterator and a
# generator, which take the generic step.
enumerate, zip = rebound_enumerate, rebound_zip
for line in main():
    print(line)
