# pydiff: threshold=10
# pydiff: all-compiled
# pydiff: min-feedback_sites=2
# Attributes read at sites whose type feedback named a dict hint (3.11's LOAD_ATTR_WITH_HINT,
# specialised on objects whose real __dict__ is a combined dict) from objects of the same
# class whose __dict__ is a split one: made from their inline values when `vars()` read it,
# as logging's `fmt % record.__dict__` does. A split dict keeps its values apart from its
# shared keys, so the site's inline read misses and the load helper reads the value through
# the hint (jit/python/dict_access.h). They meet a split dict read, changed through vars(), an
# attribute deleted (the class's own value shows), set again, a combined dict in another key
# order (the key at the hint is another), and a dict given a non-str key.


class Rec:
    level = "the class's level"

    def __init__(self, i):
        self.name = "r%d" % i
        self.level = i
        self.msg = "m%d" % i


def read_level(r):
    return r.level


def read_both(r):
    return (r.name, r.level)


def combined(i):
    r = Rec(i)
    r.__dict__ = dict(vars(r))  # a dict of its own, not split, in the same key order
    return r


def split(i):
    r = Rec(i)
    assert len(vars(r)) == 3  # made from the inline values, a split dict
    return r


def warm_up():
    recs = [combined(i) for i in range(3)]
    total = 0
    for _ in range(6):
        for r in recs:
            total += read_level(r)
            read_both(r)
    return total


def main():
    print(warm_up())
    recs = [split(i) for i in range(4)]
    print([read_level(r) for r in recs], [read_both(r) for r in recs])
    total = 0
    for _ in range(50):
        for r in recs:
            total += read_level(r)
    print(total)
    r = recs[0]
    vars(r)["level"] = "set through vars"
    print(read_level(r), read_both(r))
    del r.level
    print(read_level(r), read_both(r))
    r.level = "set again"
    print(read_level(r), read_both(r))
    other = Rec(9)
    other.__dict__ = {"level": "first key", "name": "second key"}
    print(read_level(other), read_both(other))
    odd = split(7)
    vars(odd)[3] = "a key that is not a str"
    print(read_level(odd), read_both(odd))
    print([read_level(combined(i)) for i in range(3)], read_level(split(11)))


main()
