# pydiff: all-compiled
# Call shapes: f(*a), f(**k), f(*a, **k) (CALL_FUNCTION_EX, DICT_MERGE, LIST_EXTEND),
# mixtures of literal and unpacked arguments, keyword-only and positional-only parameters,
# defaults (and a mutable default shared between calls), *args/**kwargs receivers, unpacking
# of any iterable and any mapping, methods and builtins called with unpacking, and the
# TypeErrors of bad calls (duplicate values, missing and unexpected arguments, non-mapping
# **, non-iterable *) caught with their messages.


def describe(a, b=2, *rest, c=3, **extra):
    return (a, b, rest, c, sorted(extra.items()))


def pos_only(a, b, /, c, *, d=4):
    return (a, b, c, d)


def kw_only(*, x, y=10):
    return x - y


def collect(*args, **kwargs):
    return args, sorted(kwargs.items())


def remember(item, bucket=[]):
    bucket.append(item)
    return list(bucket)


class Point:
    def __init__(self, x=0, y=0, *, label="p"):
        self.x, self.y, self.label = x, y, label

    def move(self, dx=0, dy=0):
        return Point(self.x + dx, self.y + dy, label=self.label + "'")

    def __repr__(self):
        return "%s(%d, %d)" % (self.label, self.x, self.y)


def star_calls():
    args = [1, 20, 300]
    kwargs = {"c": 9, "z": 26}
    return [
        describe(*args),
        describe(**{"a": 5}),
        describe(*args, **kwargs),
        describe(0, *args[1:], c=-1),
        describe(*(i for i in range(4))),
        describe(*"xy", **dict(q=1, r=2)),
        describe(1, *[2], *[3, 4], **{"c": 5}, **{"d": 6}),
        collect(),
        collect(*range(3), k=1),
        collect(*{"only": 1}),
        collect(**{"k%d" % i: i for i in range(3)}),
    ]


def parameter_kinds():
    out = [pos_only(1, 2, 3), pos_only(1, 2, c=3, d=5)]
    out.append(kw_only(x=1))
    out.append(kw_only(**{"x": 5, "y": 1}))
    out.append(remember("a"))
    out.append(remember("b"))
    out.append(remember("c", []))
    out.append(remember("d"))
    # A positional-only name may also arrive in **kwargs.
    def f(a, /, **kw):
        return a, sorted(kw.items())
    out.append(f(1, a=2))
    return out


def methods_and_builtins():
    p = Point(1, 2)
    moved = p.move(*[3], **{"dy": 4})
    mover = Point.move
    return [
        moved,
        mover(p, *(10, 10)),
        Point(*[7], label="q"),
        Point(**{"y": 5, "label": "r"}),
        max(*[3, 9, 4]),
        sorted(*[[3, 1, 2]], **{"reverse": True}),
        "{a}-{b}".format(**{"a": 1, "b": 2}),
        dict(*[[("k", 1)]], **{"v": 2}),
        "-".join(*["abc"]),
        list(map(pow, *[[2, 3], [5, 2]])),
    ]


class Mapping:
    """Not a dict: ** works through keys() and __getitem__."""

    def keys(self):
        return ["b", "a"]

    def __getitem__(self, k):
        return k * 3


def bad_calls():
    attempts = [
        lambda: describe(1, a=2),
        lambda: describe(**{"a": 1}, **{"a": 2}),
        lambda: describe(*[1], **{"a": 1}),
        lambda: describe(),
        lambda: pos_only(1, b=2, c=3),
        lambda: kw_only(1),
        lambda: kw_only(),
        lambda: kw_only(x=1, w=2),
        lambda: describe(*5),
        lambda: describe(**[1]),
        lambda: describe(**{1: 2}),
        lambda: Point(1, 2, 3),
        lambda: len(*[1, 2]),
    ]
    out = []
    for attempt in attempts:
        try:
            out.append(("no error", attempt()))
        except TypeError as e:
            out.append(str(e))
    return out


def forward(*args, **kwargs):
    # The common decorator shape: pass everything through unchanged.
    return describe(*args, **kwargs)


def decorated(fn):
    def wrapper(*args, **kwargs):
        return ("wrapped", fn(*args, **kwargs))
    return wrapper


@decorated
def target(a, *, b):
    return a + b


def forwarding():
    return [forward(1), forward(1, 2, 3, c=4, e=5), target(1, b=2), target(*[3], **{"b": 4})]


def main():
    for row in star_calls():
        print("star", row)
    print("kinds", parameter_kinds())
    print("methods", methods_and_builtins())
    for row in bad_calls():
        print("bad", row)
    print("mapping", describe(**Mapping()))
    print("forwarding", forwarding())


main()


# The same shapes called from compiled code with the plain CALL (positional arguments only):
# the call stub's helper binds them into the callee's frame (defaults, *args, keyword-only
# defaults, generators), which takes references of its own; the arguments' and the
# callable's must come out even.
import sys


def star_gen(*items):
    yield from items


def bound_shapes(x, n):
    out = []
    for _ in range(n):
        out.append((describe(x), describe(x, x, x), collect(x, x), remember(x, [])[0] is x,
                    pos_only(x, x, x), sum(1 for _ in star_gen(x, x))))
    return out[-1]


probe = object()
callables = [describe, collect, remember, pos_only, star_gen]
before = sys.getrefcount(probe), [sys.getrefcount(f) for f in callables]
result = bound_shapes(probe, 200)
print(result[1][2] == (probe,), result[2][0] == (probe, probe), result[3],
      all(v is probe for v in result[4][:3]), result[4][3], result[5])
del result
print("reference changes:", sys.getrefcount(probe) - before[0],
      [sys.getrefcount(f) - b for f, b in zip(callables, before[1])])
try:
    bound_shapes(1, 1) and describe()
except TypeError as e:
    print("TypeError", e)
