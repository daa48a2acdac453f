# pydiff: all-compiled
# match: literal, capture, wildcard, value (dotted name), or-patterns, `as` bindings, guards,
# sequence patterns with a star (lists, tuples, ranges; never str), mapping patterns with
# **rest, class patterns with positional (__match_args__) and keyword sub-patterns, builtin
# class patterns (int(x), str()), nested patterns, and the TypeErrors of bad class patterns.
import enum


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class Point3(Point):
    __match_args__ = ("x", "y", "z")

    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z = z


class Circle:
    __match_args__ = ("center", "radius")

    def __init__(self, center, radius):
        self.center = center
        self.radius = radius


class NoArgs:
    pass


def literal(v):
    match v:
        case 0:
            return "zero"
        case 1 | 2 | 3:
            return "small"
        case "hello":
            return "greeting"
        case True:
            return "true"  # never reached for 1: 1 matched the or-pattern first
        case None:
            return "none"
        case -1.5:
            return "negative float"
        case b"raw":
            return "bytes"
        case Color.RED:
            return "red"
        case _:
            return "other " + type(v).__name__


def sequence(v):
    match v:
        case []:
            return "empty"
        case [x]:
            return "one %r" % (x,)
        case [x, y] if x == y:
            return "pair of equal %r" % (x,)
        case [0, *rest]:
            return "starts with 0, rest %r" % (rest,)
        case [first, *middle, last] if len(middle) > 2:
            return "long %r..%r (%d in between)" % (first, last, len(middle))
        case (a, b, c):
            return "three %r" % ([a, b, c],)
        case [*_, "end"]:
            return "ends with end"
        case _:
            return "other sequence" if isinstance(v, (list, tuple)) else "not a sequence"


def mapping(v):
    match v:
        case {"type": "point", "x": x, "y": y}:
            return "point %d,%d" % (x, y)
        case {"type": "user", "name": str(name), **rest}:
            return "user %s with %s" % (name, sorted(rest))
        case {"type": ("a" | "b") as t}:
            return "type " + t
        case {}:
            return "some mapping of %d" % len(v)
        case _:
            return "not a mapping"


def shape(v):
    match v:
        case Point3(0, 0, 0):
            return "origin3"
        case Point3(x, y, z=zz) if zz < 0:
            return "below %d,%d,%d" % (x, y, zz)
        case Point(0, 0):
            return "origin"
        case Point(x=0, y=y):
            return "on y axis at %d" % y
        case Point(x, y) if x == y:
            return "diagonal %d" % x
        case Point(x, y):
            return "point %d,%d" % (x, y)
        case Circle(Point(x, y), r) if r > 10:
            return "big circle at %d,%d" % (x, y)
        case Circle(center=Point(), radius=r):
            return "circle r=%d" % r
        case int(n) if n < 0:
            return "negative int %d" % n
        case int() | float():
            return "number"
        case str() as s:
            return "string of %d" % len(s)
        case [Point(x1, y1), Point(x2, y2)]:
            return "segment %d" % (abs(x2 - x1) + abs(y2 - y1))
        case _:
            return "unknown"


def bad_class_patterns(v):
    # Each value gets past the isinstance checks of the patterns before its own bad one.
    try:
        match v:
            case NoArgs(1):
                return "matched"
            case Point3(1, x=2):
                return "matched"
            case Point(1, 2, 3):
                return "matched"
    except TypeError as e:
        return str(e)


def command(text):
    match text.split():
        case ["go", ("north" | "south" | "east" | "west") as direction]:
            return "going " + direction
        case ["go", other]:
            return "cannot go " + other
        case ["take", *items] if items:
            return "taking " + ", ".join(items)
        case ["quit" | "exit"]:
            return "bye"
        case []:
            return "say something"
        case [verb, *_]:
            return "unknown verb " + verb


def main():
    for v in (0, 2, "hello", True, None, -1.5, b"raw", Color.RED, Color.GREEN, 7.0, 1):
        print("literal", repr(v), literal(v))
    for v in ([], [5], (4, 4), [0, 1, 2], list(range(6)), (1, 2, 3), ["x", "y", "z", "w", "end"],
              "abc", range(3), {"a": 1}, [1, 2, 3, 4]):
        print("sequence", repr(v), sequence(v))
    for v in ({"type": "point", "x": 1, "y": 2}, {"type": "user", "name": "ann", "id": 3, "age": 4},
              {"type": "user", "name": 5}, {"type": "b"}, {}, [("type", "a")]):
        print("mapping", repr(v), mapping(v))
    for v in (Point3(0, 0, 0), Point3(1, 2, -3), Point(0, 0), Point(0, 4), Point(5, 5),
              Point(1, 2), Circle(Point(1, 1), 11), Circle(Point(2, 2), 3), -4, 4, 2.5, "xyz",
              [Point(0, 0), Point(3, 4)], Circle(1, 1)):
        print("shape", shape(v))
    for v in (NoArgs(), Point3(1, 2, 3), Point(1, 2)):
        print("bad", bad_class_patterns(v))
    for text in ("go north", "go up", "take lamp key", "take", "exit", "", "dance now"):
        print("command", repr(text), command(text))


main()
