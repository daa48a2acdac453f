# pydiff: all-compiled
# Instance attributes kept in a real __dict__, read at a site whose cache keeps the name's
# index in that dict (attr_descriptors.h's DictHint, 3.11's LOAD_ATTR_WITH_HINT): instances
# whose __dict__ was read (its inline values became a dict), objects of types with a
# tp_dictoffset (SimpleNamespace, a subclass of a builtin), attributes set in different orders.
# Then what the hint must notice: the attribute deleted and set again (another index), the
# dict replaced, a key that is an equal but other str object, a data descriptor added to the
# class after the site cached, a class attribute of the same name (the instance's wins), a
# dict with non-str keys, and a missing attribute (its AttributeError).

import types


class Record:
    kind = "class's"

    def __init__(self, n):
        self.n = n
        self.msg = "m%d" % n
        self.kind = "own"


class Loose:
    pass


class Num(int):
    pass


def reads(objs, rounds):
    out = []
    for _ in range(rounds):
        for o in objs:
            out.append((o.n, o.msg, o.kind))
    return out


def one(o):
    try:
        return o.msg
    except AttributeError as e:
        return "AttributeError: %s" % e


def main():
    recs = [Record(i) for i in range(4)]
    for r in recs:
        vars(r)  # the inline values become a dict
    print(reads(recs, 3))
    # Different orders of the same names: other indexes in each dict.
    mixed = []
    for i in range(4):
        o = Loose()
        names = ["n", "msg", "kind"][i % 3:] + ["n", "msg", "kind"][:i % 3]
        for name in names:
            setattr(o, name, "%s%d" % (name, i))
        vars(o)
        mixed.append(o)
    print(reads(mixed, 2))
    ns = [types.SimpleNamespace(n=i, msg="ns", kind=str(i)) for i in range(3)]
    print(reads(ns, 2))
    nums = []
    for i in range(3):
        x = Num(i)
        x.n, x.msg, x.kind = i, "num", "k"
        nums.append(x)
    print(reads(nums, 2))
    r = recs[0]
    print([one(r) for _ in range(3)])
    # Deleted and set again: the name moves to another index.
    del r.n
    del r.msg
    r.msg = "again"
    r.n = 99
    print(reads([r], 2), [one(r) for _ in range(2)])
    # The dict replaced.
    r.__dict__ = {"extra": 1, "msg": "replaced", "n": -1, "kind": "k"}
    print(reads([r], 2))
    # An equal str key that is another object.
    key = "".join(["m", "s", "g"])
    r.__dict__ = {key: "built key", "n": 5, "kind": "k2"}
    print(reads([r], 2))
    # Non-str keys in the instance dict.
    r.__dict__[1] = "one"
    print(reads([r], 2))
    # A data descriptor of the same name added to the class: it wins over the dict.
    Record.msg = property(lambda self: "property's")
    print(reads(recs[1:], 2), [one(recs[2]) for _ in range(2)])
    del Record.msg
    print(reads(recs[1:], 1))
    # Missing.
    del recs[3].msg
    print([one(recs[3]) for _ in range(2)], one(Loose()))


main()
