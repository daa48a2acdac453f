# pydiff: threshold=10
# pydiff: all-compiled
# pydiff: min-feedback_sites=12
# C calls whose sites 3.11's interpreter specialised before the compile (PRECALL_NO_KW_BUILTIN_O
# and _FAST, PRECALL_BUILTIN_FAST_WITH_KEYWORDS, PRECALL_BUILTIN_CLASS, and the method
# descriptor forms), which compiled code then makes inline for what the site cached
# (jit/hir/known_calls.h kCFunction, kMethodDescriptor): builtins by global name, builtin
# classes called through their vectorcall, and C methods whose names the name hints do not
# list; beside them, the LOAD_METHOD pairs [NULL, function] that stay with the call stub (a
# module's function, a builtin held in an instance's attribute). Then what the guards send to
# the call stub: another callable at the site, a Python function, a global that shadows the
# builtin, a class that gives the LOAD_METHOD site a real method pair. Errors raised by the C
# function, and the references of the arguments and the callable, counted on marker objects.
import builtins
import math
import re
import sys

WORD = re.compile(r"[a-z]+")


class Marker:
    def __hash__(self):
        return 7

    def __repr__(self):
        return "<marker>"


class Holder:
    def __init__(self, fn):
        self.fn = fn


def by_name(x, y, marker):
    return (abs(x), divmod(x, y), round(x / 3, 2), hash(marker), repr(marker),
            callable(marker), getattr(marker, "missing", None))


def builtin_classes(n, xs):
    return (list(range(n)), frozenset(xs), bytes(n), reversed(xs).__length_hint__())


def module_function(x):
    return math.floor(x) + math.gcd(12, int(x))  # LOAD_METHOD on a module: [NULL, function]


def held(h, x):
    return h.fn(x)  # an instance attribute read by LOAD_METHOD: [NULL, abs]


def unhinted_methods(s, n, f):
    m = WORD.search(s)
    return (m.end(), m.start(), n.bit_length(), f.is_integer(), s.encode().hex())


def apply(f, x):
    return f(x)


def shadowed():
    return abs(-5)


def raises(x, y):
    try:
        return divmod(x, y)
    except ZeroDivisionError as e:
        return ("caught", str(e), e.__traceback__.tb_lineno)


def warm_up(marker):
    out = []
    h = Holder(abs)
    for i in range(14):
        out.append(by_name(i - 7, 3, marker))
        out.append(builtin_classes(i % 4, (1, 2, 2)))
        out.append(module_function(i + 0.5))
        out.append(held(h, -i))
        out.append(unhinted_methods("  abc def", i, i / 2))
        out.append(apply(abs, -i))
        out.append(shadowed())
        out.append(raises(i, 3))
    return out


def refcounts(marker):
    h = Holder(abs)
    before = (sys.getrefcount(marker), sys.getrefcount(abs), sys.getrefcount(math.floor))
    for i in range(100):
        by_name(i, 5, marker)
        module_function(i / 7)
        held(h, i)
    after = (sys.getrefcount(marker), sys.getrefcount(abs), sys.getrefcount(math.floor))
    return before == after, before[0] - after[0]


def misses():
    out = [apply(len, "abcd"), apply(lambda v: v * 2, 21), apply(str.upper, "x")]
    h = Holder(lambda v: ("python", v))
    out.append(held(h, 3))

    class WithMethod:
        def fn(self, v):
            return ("method", v)

    out.append(held(WithMethod(), 4))  # the site's pair is [fn, self] now
    out.append(held(Holder(round), 2.5))  # another builtin than the cached one
    out.append(raises(1, 0))
    out.append(raises(2.5, 0.0))
    globals()["abs"] = lambda v: ("shadow", v)
    out.append(shadowed())
    del globals()["abs"]
    out.append(shadowed())
    builtins_abs = builtins.abs
    builtins.abs = lambda v: ("builtins shadow", v)
    try:
        out.append(shadowed())
    finally:
        builtins.abs = builtins_abs
    out.append(shadowed())
    return out


def main():
    marker = Marker()
    print(warm_up(marker)[-8:])
    print(refcounts(marker))
    for row in misses():
        print(row)


main()
