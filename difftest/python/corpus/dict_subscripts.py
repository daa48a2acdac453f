# pydiff: threshold=40
# pydiff: all-compiled
# `d[k]` and `d[k] = v` at sites 3.11 specialised to exact dicts (BINARY_SUBSCR_DICT,
# STORE_SUBSCR_DICT) before they compiled (after 40 calls): the dict's own lookup and store
# (a64_dict_getitem, a64_dict_setitem). Then everything else at the same sites: a missing
# key's KeyError (a tuple key wrapped as stock wraps it), a key whose __hash__ or __eq__
# raises, dict subclasses with __missing__ or __setitem__, defaultdict, Counter, a list,
# a mappingproxy that refuses stores, and a key that mutates the dict in its __eq__.
import collections
import types


def get(d, k):
    return d[k]


def put(d, k, v):
    d[k] = v
    return len(d)


def bump(d, k):
    d[k] += 1
    return d[k]


def attempt(f, *args):
    try:
        return f(*args)
    except (KeyError, TypeError, IndexError, ValueError) as e:
        return type(e).__name__, e.args


class BadHash:
    def __hash__(self):
        raise ValueError("no hash")


class BadEq:
    def __hash__(self):
        return 1

    def __eq__(self, other):
        raise TypeError("no eq")


class Grows:
    def __init__(self, d):
        self.d = d

    def __hash__(self):
        return 7

    def __eq__(self, other):
        self.d["grown"] = 1
        return True


class WithMissing(dict):
    def __missing__(self, key):
        return ("missing", key)


class Logged(dict):
    def __setitem__(self, key, value):
        super().__setitem__(key, (value, "logged"))


def main():
    out = []
    d = {"a": 1, 2: "two", (1, 2): "pair"}
    for i in range(50):  # quickened and specialised on exact dicts, then compiled
        seen = (get(d, "a"), get(d, 2), get(d, (1, 2)), put(d, "b", 3), bump(d, "a"))
        if i % 10 == 0:
            out.append(seen)
    out.append([attempt(get, d, k) for k in ("zz", (3, 4), (), BadHash(), [1])])
    out.append(attempt(put, d, BadHash(), 1))
    bad = {BadEq(): 1}
    out.append((attempt(get, bad, BadEq()), attempt(put, bad, BadEq(), 2)))
    g = {}
    g[Grows(g)] = 1  # the stored key's __eq__ grows the dict during a lookup
    out.append((attempt(get, g, Grows(None)), sorted(map(str, g.values()))))
    m = WithMissing(x=1)
    out.append((get(m, "x"), get(m, "y"), put(m, "z", 2), bump(m, "x")))
    dd = collections.defaultdict(list)
    out.append((get(dd, "new"), put(dd, "k", 1), bump(dd, "k"), sorted(dd)))
    c = collections.Counter("abca")
    out.append((get(c, "a"), get(c, "q"), bump(c, "q")))
    lg = Logged()
    out.append((put(lg, "k", 1), get(lg, "k")))
    out.append((get([10, 20], 1), attempt(get, [1], 5), put([0, 0], 1, 9)))
    proxy = types.MappingProxyType({"p": 1})
    out.append((get(proxy, "p"), attempt(put, proxy, "p", 2)))
    return out


for line in main():
    print(line)
