# pydiff: all-compiled
# Lists, tuples, dicts: indexing, slicing, stores, membership, iteration, errors.


def lists(n):
    xs = [0, 1, 2, 3]
    xs[1] = n
    xs.append(n * 2)
    xs[-1] += 1
    return xs, xs[1:3], xs[-2], n in xs, 99 not in xs, len(xs)


def tuples(a, b):
    t = (a, b, (a, b))
    return t[0] + t[1], t[2][1], t + (1,), t * 2 if a < 3 else ()


def dicts(keys):
    d = dict()
    for k in keys:
        d[k] = d.get(k, 0) + 1
    d["z"] = 26
    return sorted(d.items()), "z" in d, d["z"]


def errors(xs):
    try:
        return xs[10]
    except IndexError as e:
        return "IndexError: " + str(e)


def key_error(d):
    return d["nope"]


class LoudList(list):
    def __getitem__(self, i):
        return ("LoudList", list.__getitem__(self, i))


def item(c, i):
    return c[i]


def list_index_edges():
    # The inline list[int] path and every way out of it: negative and out-of-range
    # indexes, a list subclass, bool and big-int indexes, other containers, slices.
    xs = [10, 20, 30]
    cases = [(xs, 0), (xs, 2), (xs, -1), (xs, -3), (xs, 3), (xs, -4), ([], 0), (xs, True),
             (xs, 2**40), (xs, 2**30), (xs, slice(0, 2)), (LoudList(xs), 1), ((1, 2), 1),
             ("abc", 1), ({"a": 5}, "a")]
    out = []
    for c, i in cases:
        try:
            out.append(item(c, i))
        except (IndexError, KeyError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    total = 0
    squares = [k * k for k in range(200)]
    for k in range(len(squares)):
        total += squares[k]
    return out, total


class Dying:
    log = []

    def __init__(self, name):
        self.name = name

    def __del__(self):
        Dying.log.append(self.name)


def store(c, i, v):
    c[i] = v


def list_store_edges():
    # The inline list[int] store and every way out of it; the old item released in place.
    xs = [0, 1, 2]
    out = []
    for c, i in [(xs, 0), (xs, 2), (xs, -1), (xs, 3), (xs, -4), (xs, True), (xs, 2**40),
                 (xs, slice(0, 1)), (LoudList([5, 6]), 1), ({}, "k"), ((1,), 0)]:
        try:
            store(c, i, [9] if isinstance(i, slice) else ("v", i))
            out.append(list(c) if isinstance(c, list) else c)
        except (IndexError, TypeError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    ys = [Dying("a"), Dying("b")]
    store(ys, 0, "x")
    store(ys, 1, ys)  # the list now holds itself
    out.append((Dying.log, len(ys), ys[1] is ys))
    for k in range(len(xs)):
        xs[k] = k * 10
    return out, xs


print(lists(7))
print(tuples(1, 2), tuples(5, 6))
print(dicts("abracadabra"))
print(errors([1]))
print(list_index_edges())
print(list_store_edges())
try:
    key_error(dict())
except KeyError as e:
    print("KeyError:", e)
