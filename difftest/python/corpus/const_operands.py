# pydiff: all-compiled
# Operands that are constants of a known type: a str constant compared with == and != (the
# same object is equal; two distinct interned strs are not; anything else goes to the
# generic compare), and arithmetic whose constant operand rules a form out (`"%d" % n` has
# no number form, `x * 2.5` no int form). The values on the other side cover what must not
# take the shortcut: equal strs that are not interned, str subclasses, objects with their
# own __eq__ on either side, non-strs, and mixed int and float arithmetic.
import sys


class Tag(str):
    pass


class EqualsEverything:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False


class Loud:
    def __init__(self):
        self.calls = 0

    def __eq__(self, other):
        self.calls += 1
        return NotImplemented


def kind_of(op):
    if op == "num":
        return 1
    if op == "var":
        return 2
    if "let" == op:
        return 3
    if op != "end":
        return 4
    return 5


def spaced(s):
    # "hello world" is not interned (a space is not a name character): equal values that
    # are different objects must still compare equal.
    return (s == "hello world", s != "hello world")


def single(c):
    return (c == "+", c != "-", "*" == c)


def mixed(x):
    return (x * 2.5, 2.5 * x, x + 1.0, x - 0.5, x / 4.0, x // 2.0, 10.0 % x if x else None)


def formatted(n, pair):
    return ("%d items" % n, "%s-%s" % pair, "%5.2f" % n, "[%r]" % (n,))


def errors():
    out = []
    for f in (lambda: "a" + 1, lambda: "%d" % "x", lambda: 1.5 + "b", lambda: "x" * 2.5):
        try:
            f()
        except TypeError as e:
            out.append(str(e))
    return out


def main():
    built = "".join(["n", "u", "m"])  # equal to "num", not the interned object
    values = ["num", "var", "let", "end", "other", built, Tag("num"), Tag("zzz"),
              sys.intern("".join(["v", "a", "r"])), 5, None, 2.0, EqualsEverything()]
    total = 0
    for _ in range(300):
        for v in values:
            total += kind_of(v)
    print("kinds", total, [kind_of(v) for v in values])
    loud = Loud()
    print("loud", kind_of(loud), loud.calls)
    for s in ["hello world", "hello " + "world".strip(), "hello", Tag("hello world"), 3]:
        print("spaced", spaced(s))
    text = "a+b-c*d"
    print("single", [single(c) for c in text])
    for x in [3, -7, 0, 2.0, -0.5, 1e300, True, 2**40]:
        try:
            print("mixed", x, mixed(x))
        except ZeroDivisionError as e:
            print("mixed", x, "ZeroDivisionError", e)
    print("formatted", formatted(7, ("a", "b")), formatted(2**31, (1, 2.5)))
    print("errors", errors())


main()
