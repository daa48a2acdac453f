# pydiff: all-compiled
# pydiff: env=PYTHONMALLOC=pymalloc_debug
# pydiff: min-comparison_calls=3000
# Comparisons of two instances of one class that defines them in Python, which compiled code
# calls straight to the class's method (python_compare.h), kept as values and feeding
# branches. Each step stock takes must still be taken: NotImplemented from the method, then
# the other operand's swapped method, then identity for == and != and TypeError for the
# orders; a method that returns something other than a bool; one that raises; one that
# replaces itself, or is deleted, or becomes a staticmethod or a callable object after the
# sites compiled; a class whose comparison comes from a C base; an operand whose class
# changes during the comparison; recursion through __eq__ to RecursionError; and the
# references of both operands across many calls.
import dataclasses
import functools
import sys


@dataclasses.dataclass(frozen=True)
class Key:
    family: str
    number: int


@dataclasses.dataclass(order=True)
class Version:
    major: int
    minor: int


@functools.total_ordering
class Score:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        return self.v == o.v

    def __lt__(self, o):
        return self.v < o.v


class Shy:
    """Every method gives NotImplemented: stock falls back to identity, or raises."""

    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        return NotImplemented

    def __lt__(self, o):
        return NotImplemented


class Half:
    """__lt__ gives NotImplemented for odd values: stock then asks the right operand's
    __gt__."""

    def __init__(self, v):
        self.v = v

    def __lt__(self, o):
        if self.v % 2:
            return NotImplemented
        return self.v < o.v

    def __gt__(self, o):
        return ("gt", self.v, o.v)


class Odd:
    """Results that are not bools, and one that raises."""

    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        return [self.v, o.v] if self.v != o.v else []

    def __le__(self, o):
        if self.v < 0:
            raise ValueError("negative %d" % self.v)
        return self.v <= o.v


class Changing:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        return self.v == o.v


class Morph:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        self.__class__ = Other  # the right operand's slot is read after this call
        return NotImplemented


class Other:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        return ("other", self.v)


class Tree:
    def __init__(self, child):
        self.child = child

    def __eq__(self, o):
        return self.child == o.child


class Word(str):
    pass


class Count(int):
    def __lt__(self, o):
        return ("count", int(self), int(o))


def keys_and_versions(n):
    keys = [Key("f%d" % (i % 4), i % 3) for i in range(12)]
    same = 0
    ordered = 0
    for i in range(n):
        a, b = keys[i % 12], keys[(i * 7) % 12]
        if a == b:
            same += 1
        if a != b:
            same -= 1
        va, vb = Version(i % 5, i % 3), Version(i % 4, i % 2)
        ordered += (va < vb) + 2 * (va <= vb) + 4 * (va > vb) + 8 * (va >= vb)
    return same, ordered


def scores(n):
    out = []
    for i in range(n):
        a, b = Score(i % 7), Score(i % 5)
        out.append((a == b, a < b, a > b, a <= b, a >= b, a != b))
    return out[-7:], sum(sum(t) for t in out)


def shy():
    a, b = Shy(1), Shy(1)
    results = [a == a, a == b, a != b, a != a]
    for op in ("<", ">", "<=", ">="):
        try:
            results.append(eval("a %s b" % op, {"a": a, "b": b}))
        except TypeError as e:
            results.append(str(e))
    try:
        if a < b:
            results.append("branch")
    except TypeError as e:
        results.append(("branch", str(e)))
    return results


def half():
    return [Half(v) < Half(w) for v, w in ((1, 2), (2, 3), (3, 1), (4, 1))]


def odd():
    out = [Odd(1) == Odd(2), Odd(3) == Odd(3), Odd(1) <= Odd(2)]
    if Odd(1) == Odd(2):
        out.append("true list")
    if not Odd(3) == Odd(3):
        out.append("false list")
    try:
        out.append(Odd(-1) <= Odd(2))
    except ValueError as e:
        out.append(str(e))
    try:
        if Odd(-2) <= Odd(2):
            out.append("no")
    except ValueError as e:
        out.append(("branch", str(e)))
    return out


def changing_site(a, b):
    return a == b


def changing():
    out = [changing_site(Changing(1), Changing(1)) for _ in range(30)]
    Changing.__eq__ = lambda self, o: ("replaced", self.v, o.v)
    out.append(changing_site(Changing(1), Changing(2)))
    Changing.__eq__ = staticmethod(lambda o: ("static", o.v))  # given the right operand only
    out.append(changing_site(Changing(3), Changing(4)))

    class Caller:
        def __call__(self, *args):
            return ("callable", len(args))

    Changing.__eq__ = Caller()
    out.append(changing_site(Changing(5), Changing(6)))
    del Changing.__eq__
    x = Changing(7)
    out.append((changing_site(x, x), changing_site(x, Changing(7))))
    return out


def morph():
    a, b = Morph(1), Morph(2)
    r = a == b
    return r, type(a).__name__, type(b).__name__


def deep(levels):
    t1, t2 = None, None
    for _ in range(levels):
        t1, t2 = Tree(t1), Tree(t2)
    return t1 == t2


def recursion():
    out = [deep(50)]
    try:
        deep(sys.getrecursionlimit() * 2)
        out.append("no error")
    except RecursionError as e:
        out.append(("RecursionError", str(e)[:40]))
    return out


def c_bases():
    out = []
    for i in range(40):
        out.append((Word("a%d" % (i % 3)) == Word("a1"), Word("b") < Word("c"),
                    Count(i) < Count(3)))
    return out[:4], sum(t[0] for t in out)


def references(n):
    a, b = Key("x", 1), Key("x", 1)
    before = sys.getrefcount(a), sys.getrefcount(b)
    hits = 0
    for _ in range(n):
        if a == b:
            hits += 1
        hits += a != b
    return hits, (sys.getrefcount(a), sys.getrefcount(b)) == before


def main():
    for _ in range(3):  # the later rounds run compiled
        print(keys_and_versions(600))
        print(scores(200))
        print(shy())
        print(half())
        print(odd())
        print(c_bases())
        print(references(300))
    print(changing())
    print(morph())
    print(recursion())


main()
