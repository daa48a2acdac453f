# pydiff: threshold=10
# pydiff: all-compiled
# pydiff: min-feedback_sites=14
# pydiff: min-feedback_functions=12
"""Type feedback: each function runs 12 times in the interpreter with one kind of operand
(3.11 quickens a code object on its 8th run, and each instruction then specialises to the
types it sees), the JIT compiles it on call 11 keeping only the inline form that feedback
names (jit/hir/feedback.h), and then it gets every other kind. Those must take the generic
path and give the interpreter's results, errors included."""

import math
import types


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def norm(self):
        return math.sqrt(self.x * self.x + self.y * self.y)


class Manhattan(Point):
    def norm(self):
        return abs(self.x) + abs(self.y)


class Slotted:
    __slots__ = ("x",)

    def __init__(self, x):
        self.x = x


class Tens:
    def __getitem__(self, i):
        return i * 10


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def less(a, b):
    return a < b


def equal_to_name(s):
    return s == "name"


def index(c, i):
    return c[i]


def store(c, i, v):
    c[i] = v
    return c[i]


def swap(pair):
    a, b = pair
    return b, a


def total3(t):
    a, b, c = t
    return a + b + c


def attr_x(o):
    return o.x


def set_x(o, v):
    o.x = v
    return o.x


def root(v):
    return math.sqrt(v)


def norm_of(p):
    return p.norm()


WARM = [
    (add, (1.5, 2.25)), (add, ("ab", "cd")), (sub, (7, 3)), (mul, (1.5, 4.0)),
    (less, (1, 2)), (equal_to_name, ("other",)), (index, ([5, 6, 7], 1)),
    (store, ([0, 0, 0], 2, 9)), (swap, ((1, 2),)), (total3, ([1, 2, 3],)),
    (attr_x, (Point(1, 2),)), (set_x, (Point(1, 2), 5)), (root, (16.0,)),
    (norm_of, (Point(3.0, 4.0),)),
]
for _ in range(12):
    for f, args in WARM:
        f(*args)


def show(label, f, *args):
    try:
        print(label, repr(f(*args)))
    except Exception as e:  # the interpreter's exception, type and message
        print(label, "raises", type(e).__name__, e)


# Arithmetic specialised to floats (add), strs (add), ints (sub), floats (mul).
for a, b in [(1, 2), (2**40, 2**40), (2**62, 2**62), (1, 2.5), (2.5, 1), ([1], [2]),
             ("x", "y"), (True, True), (1.5, None)]:
    show("add", add, a, b)
    show("sub", sub, a, b)
    show("mul", mul, a, b)
# Compares specialised to ints and to str equality.
for a, b in [(1.5, 2.5), ("a", "b"), (2**70, 1), (3, 3.0), ((1, 2), (1, 3)), (None, 1)]:
    show("less", less, a, b)
for s in ["name", "".join(["na", "me"]), 5, None, b"name"]:
    show("equal_to_name", equal_to_name, s)
# Subscripts specialised to list[int].
for c, i in [((5, 6, 7), 2), ({1: "one"}, 1), ("abc", 1), (Tens(), 4), ([1, 2], -1),
             ([1, 2], 5), ([1, 2], True), ([1, 2], 2**70)]:
    show("index", index, c, i)
for c, i in [({}, "k"), (bytearray(3), 1), ([1, 2, 3], -1), ([1], 3), ((1, 2), 0)]:
    show("store", store, c, i, 7)
# Unpacking specialised to a tuple of two, and to a list of three.
for v in [[3, 4], "ab", iter((5, 6)), (1, 2, 3), [1]]:
    show("swap", swap, v)
for v in [(1, 2, 3), "abc", range(3), [1, 2], [1.5, 2.5, 3.0]]:
    show("total3", total3, v)
# Attributes specialised to an instance's values.
module = types.ModuleType("module")
module.x = "module x"
for o in [Slotted(3), types.SimpleNamespace(x="ns"), Manhattan(-1, 2), module]:
    show("attr_x", attr_x, o)
    show("set_x", set_x, o, [1])
show("attr_x missing", attr_x, object())
show("attr_x of a module without it", attr_x, math)
# A module attribute (math.sqrt), also after the module changes.
for v in [2, 2.0, -1.0, "4"]:
    show("root", root, v)
saved = math.sqrt
math.sqrt = lambda v: ("patched", v)
show("root patched", root, 9.0)
math.sqrt = saved
show("root restored", root, 9.0)
# A method specialised to Point.norm, then an override and a changed class.
show("norm_of", norm_of, Manhattan(3, -4))
Point.norm = lambda self: "replaced"
show("norm_of replaced", norm_of, Point(1, 1))
