# pydiff: all-compiled
# pydiff: env=PYTHONMALLOC=pymalloc_debug
# Tuple displays compared right after they are built (`(a, b) == (c, d)`), which compiled
# code compares without making the right tuple (hir CompareTupleItems). Every answer stock's
# tuple comparison gives must come out: each operator on equal, shorter, longer and differing
# tuples; identical items (a NaN equal to itself, not to another NaN); an item whose
# comparison raises, returns something that is not a bool, or answers only the order; a left
# operand that is a tuple subclass, a list, None or an object with its own __eq__; an
# exception caught around the comparison; recursion to RecursionError; and the references of
# the values across many comparisons.
import sys

OPS = ("<", "<=", "==", "!=", ">", ">=")


def each_op(p, q, r):
    return ((p, q) < (q, r), (p, q) <= (q, r), (p, q) == (q, r), (p, q) != (q, r),
            (p, q) > (q, r), (p, q) >= (q, r))


def lengths(p, q):
    return ((p,) < (p, q), (p, q) > (p,), (p, q, p) == (p, q), (p,) != (p, q), (p, q) <= (p, q),
            () == (), (p, q) >= (p, q, q))


class Loud:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        if self.v is None:
            raise ValueError("no value")
        return self.v == getattr(o, "v", o)

    def __lt__(self, o):
        return ("lt", self.v, getattr(o, "v", o))


class Vague:
    def __eq__(self, o):
        return [1] if o is self else []


class Mine(tuple):
    def __eq__(self, o):
        return ("mine", len(o))


class Wants:
    def __eq__(self, o):
        return ("wants", o)

    def __gt__(self, o):
        return ("gt", o)


def items(p, q):
    nan = float("nan")
    out = [(nan, p) == (nan, p), (float("nan"), p) == (float("nan"), p),
           (Loud(1), p) == (1, p), (Loud(1), p) < (Loud(2), q), (Vague(), p) == (Vague(), p)]
    v = Vague()
    out.append((v, p) == (v, q))
    try:
        out.append((Loud(None), p) == (Loud(1), q))
    except ValueError as e:
        out.append(str(e))
    try:
        out.append((p, [1]) < (p, 2))
    except TypeError as e:
        out.append(str(e))
    return out


def left_operands(p, q):
    return [Mine((p, q)) == (p, q), [p, q] == (p, q), None != (p, q), Wants() == (p, q),
            Wants() > (p, q)]


def left_errors(p):
    out = []
    for left in ([p], None, "s"):
        try:
            out.append(left < (p, p))
        except TypeError as e:
            out.append(str(e))
    return out


def caught(p, q):
    try:
        if (p, q) < (q, p):
            return "less"
        return "not less"
    except TypeError as e:
        return "caught: " + str(e)


def nested(depth):
    t = ()
    for _ in range(depth):
        t = (t, 1)
    return t


def recursion():
    a, b = nested(20), nested(20)
    out = [(a, 0) == (b, 0)]
    deep = nested(sys.getrecursionlimit() * 2)
    try:
        out.append((deep, 1) == (nested(sys.getrecursionlimit() * 2), 1))
    except RecursionError as e:
        out.append(("RecursionError", str(e)[:44]))
    return out


def references(n):
    a, b = "x" * 3, object()
    before = sys.getrefcount(a), sys.getrefcount(b)
    same = 0
    for i in range(n):
        if (a, b) == (a, b):
            same += 1
        same += (b, a) != (b, i)
    return same, (sys.getrefcount(a), sys.getrefcount(b)) == before


def main():
    for _ in range(3):  # the later rounds run compiled
        print([each_op(p, q, r) for p, q, r in ((1, 1, 1), (1, 2, 3), (3, 2, 1), (1, 1, 2),
                                                  ("a", "a", "b"), (1.5, 1, 2))])
        print(lengths(1, 2), lengths("a", "a"))
        print(items(1, 2))
        print(left_operands(1, 2))
        print(left_errors(1))
        print(caught(1, 2), caught(2, 1), caught(1, "a"))
        print(references(500))
    print(recursion())


main()
