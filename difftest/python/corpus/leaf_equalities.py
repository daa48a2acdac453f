# pydiff: all-compiled
# pydiff: env=PYTHONMALLOC=pymalloc_debug
# pydiff: min-leaf_equalities=50000
# `in` over a constant tuple, and tuples compared item by item, whose items compiled code
# compares without PyObject_RichCompareBool when both are strs, numbers or None
# (jit/python/leaf_equality.h); `in` over other containers beside them. Every answer must be
# stock's: strs of each kind and of equal and unequal lengths, equal strs that are different
# objects, with their hashes computed or not, also in `==` kept as a value; ints of one and of
# more digits, floats, NaN (equal to itself only as the same object), -0.0 against 0; bools
# against ints and floats (equal, by int's own rules); None and strs against numbers; items
# whose class defines __eq__ (called in stock's order, with stock's operands), raises, or
# answers something that is not a bool; a constant's own slot asked before an item's (float's
# answer for an int subclass); a list that a member's __eq__ shrinks; other containers; the
# orders of tuples whose first differing items are strs, numbers or neither; RecursionError at
# the limit, from the comparison where stock raises it; and the references of everything
# across many runs.
import sys
import zlib

LOG = []


def kinds():
    latin = "caf" + chr(0xE9)
    wide = "ab" + chr(0x3B1)
    astral = "x" + chr(0x1F600)
    # Equal values made at run time, so that they are not the constants' own objects.
    made = ["".join(["o", "p"]), "".join(["ca", "f" + chr(0xE9)]), "".join(["ab", chr(0x3B1)])]
    return latin, wide, astral, made


def membership(x):
    latin, wide, astral, made = kinds()
    return (x in ("op", "name", "num"), x in (latin, wide, astral), x in made,
            x in ("", "o", "opp", "po"), x in [None, 0, 1.5, True], x in (), x in [],
            x in ("op",), x not in ("op", "name"))


def numbers(x):
    big = 10 ** 20
    return (x in (1, 2, 3), x in (1.0, 2.5), x in (big, -big), x in (0.0,), x in (-0.0,),
            x in (True,), x in (False, None), x in ("1", "2.5"), x in [2 ** 31, -(2 ** 31)],
            x not in (1, 2.5, None))


NAN = float("nan")


def nans():
    other_nan = float("nan")
    return (NAN in (NAN,), NAN in (other_nan,), other_nan in [NAN, 1.0], (NAN,) == (NAN,),
            (NAN,) == (other_nan,), (1, NAN) < (1, other_nan), (NAN, 1) != (other_nan, 1))


class Noisy:
    def __init__(self, tag, answer):
        self.tag = tag
        self.answer = answer

    def __eq__(self, other):
        LOG.append(("eq", self.tag, other if isinstance(other, (str, int)) else type(other).__name__))
        if self.answer == "raise":
            raise ValueError("no answer from %s" % self.tag)
        return self.answer

    __hash__ = object.__hash__


class Word(str):
    def __eq__(self, other):
        LOG.append(("word", str(self), other))
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class Count(int):
    def __eq__(self, other):
        LOG.append(("count", int(self), other))
        return int(self) == other

    __hash__ = int.__hash__


def nested(tok):
    return (tok in (("op", "+"), ("op", "-")), tok in (("op",), ("op", "+", "x"), 1, None),
            tok not in ((), ("num", 1.0)), tok in ((("op", "+"),), ("op", ("+",))))


def user_members(x):
    out = []
    out.append(x in ("a", Noisy("n1", False), "b", Noisy("n2", 1), "c"))
    out.append(x in [Noisy("n3", []), Noisy("n4", "yes")])
    out.append(x in (Word("op"), "name"))
    out.append(Word(x) in ("zz", x))
    out.append(x in (Count(3), 4))
    out.append(Count(4) in (3, 4))
    out.append(Noisy("probe", False) in [Noisy("m1", False), x, Noisy("m2", True)])
    # Members of a constant tuple against items of user classes: the member's slot first, as
    # stock asks it (float's answers for an int subclass without calling its __eq__).
    out.append(Count(1) in (1.0, 2.0))
    out.append(Count(2) in ("2", 2, 3))
    out.append(Word(x) in ("zz", "op", b"op", (x,)))
    out.append(Noisy("probe", False) in ("op", 1, None, b"x", (1, 2), 2j))
    out.append(("op", Noisy("n6", False)) in (("op", "+"), ("no", "-"), ("op", "-")))
    out.append((x, Count(5)) in (("zz", 5.0), ("op", 5), ("b", 6)))
    try:
        out.append(x in ("q", Noisy("n5", "raise"), x))
    except ValueError as e:
        out.append(str(e))
    return out


class Shrinker:
    def __init__(self, target):
        self.target = target

    def __eq__(self, other):
        LOG.append(("shrink", len(self.target)))
        del self.target[1:]
        return False

    __hash__ = object.__hash__


def shrinking():
    items = []
    items.extend([Shrinker(items), "a", "b", "c"])
    return ("c" in items, len(items))


class Membership(tuple):
    def __contains__(self, item):
        LOG.append(("contains", item))
        return True


def other_containers(x):
    try:
        in_str = x in "operator"
    except TypeError as e:
        in_str = str(e)
    return (x in {"op": 1}, x in {"op", "name"}, x in frozenset(("num",)), in_str,
            x in Membership(("z",)), x in iter(("op", "name")), x in range(3) if isinstance(x, int)
            else None)


def displays(a, b, c):
    return ((a, b) == ("op", 2), (a, b) != ("op", 2), (a, b) < ("op", 3), (a, b) >= ("name", 9),
            (a, c) == ("op", None), (a, c) < ("op", "x") if c is not None else None,
            (b, a) <= (2.0, "op"), (a, b, c) > (a, b), (a,) == (a, b))


def constants(tok):
    return (tok == ("op", "**"), tok != ("op", "+"), tok < ("op", "-"), tok > ("num", 7),
            tok == ("num", 7.0), tok == ("num", True))


def ordered(left, right):
    out = []
    for compare in (lambda: left < right, lambda: left >= right, lambda: left == right):
        try:
            out.append(compare())
        except TypeError as e:
            out.append(str(e))
    return out


def orders():
    out = []
    for left, right in ((("a", 1), ("a", "b")), ((1, "x"), (1, 2)), ((None,), (None,)),
                        ((None, 1), (None, 2)), ((None,), (1,)), (("b", 2.5), ("b", 2))):
        out.append(ordered(left, right))
    return out


def compare_orders(p, q):
    try:
        return ((p, 1) < (q, 2), (p, 1) > (q, 0), (p,) <= (q,))
    except TypeError as e:
        return str(e)


DEPTH = [0]


def down_in(n):
    DEPTH[0] = n
    if "z" in ("a", "b", "c"):
        return n
    return down_in(n + 1)


def down_compared(n):
    DEPTH[0] = n
    if ("q", n) == ("r", n):
        return n
    return down_compared(n + 1)


PROBE = "".join(["q", "1"])
PROBES = [PROBE, "".join(["q", "2"]), "".join(["qq", "1"]), "q1", "q" + chr(0x3B1)]
for _probe in PROBES[1:3]:
    hash(_probe)


def down_value(n):
    DEPTH[0] = n
    same = PROBES[n % 5] == PROBE  # a value, not a jump: PyObject_RichCompare's level
    if same is None:
        return n
    return down_value(n + 1)


def str_values(a, b):
    return [a == b, a != b]


def recursion(down, limit):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        down(0)
    except RecursionError as e:
        return DEPTH[0], str(e)
    finally:
        sys.setrecursionlimit(old)


def main():
    # Equal to the constants but other objects: some with their hash not computed yet, some
    # with it computed (a str's hash is cached in it once asked for).
    unhashed = ["".join(["o", "p"]), "".join(["na", "me"]), "".join(["p", "o"])]
    hashed = ["".join(["o", "p"]), "".join(["nu", "m"]), "".join(["nam", "e"])]
    for s in hashed:
        hash(s)
    words = ("op", "name", "num", "", "o", "caf" + chr(0xE9), "".join(["ab", chr(0x3B1)]),
             "x" + chr(0x1F600), None, 0, 1, 2.5, *unhashed, *hashed)
    results = []
    for _ in range(200):
        for w in words:
            results.append(membership(w))
        for n in (1, 2.5, 10 ** 20, -(10 ** 20), 0, 0.0, -0.0, True, False, None, "1", 2 ** 31,
                  3.0, 2 ** 40):
            results.append(numbers(n))
        results.append(nans())
        for a, b, c in (("op", 2, None), ("op", 2.0, "y"), ("name", 9, 1), ("op", 3, None),
                        (unhashed[0], 2, None), (hashed[0], 2, hashed[2])):
            results.append(displays(a, b, c))
        for tok in (("op", "**"), ("op", "+"), ("num", 7), ("num", 7.0), ("num", 1), ()):
            results.append(constants(tok))
        for tok in (("op", "+"), ("op", "-"), ("op", "*"), ("num", 1), ("num", True), ("op",),
                    ("op", "+", "x"), (("op", "+"),), ("op", ("+",)), [], "op"):
            results.append(nested(tok))
        results.append(compare_orders("a", "b"))
        results.append(compare_orders("a", 1))
        results.append(compare_orders(1.5, 1))
    print(zlib.crc32(repr(results).encode()), len(results))
    print(results[:3], results[-8:])
    for w in ("op", "name", "b", "c", "zz"):
        print(w, user_members(w))
    print(LOG)
    LOG.clear()
    print(shrinking(), LOG)
    LOG.clear()
    for x in ("op", "num", 1, 5):
        print(x, other_containers(x))
    print(LOG)
    print(orders())
    for limit in (60, 61, 62, 63):
        print(limit, recursion(down_in, limit), recursion(down_compared, limit),
              recursion(down_value, limit))
    print([str_values(a, b) for a in PROBES for b in PROBES + ["q1", 1, None]])


if __name__ == "__main__":
    main()
