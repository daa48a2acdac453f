# pydiff: threshold=5
# pydiff: all-compiled
# pydiff: min-init_entries=100
# Instances of user classes made by the call stub: a site that cached the class hands it to
# a64_init_enter, which makes the object and pushes the compiled __init__'s frame, and
# a64_init_leave turns __init__'s return into the object. The ends that path must give as
# type_call gives them: __init__ returning a value, raising, leaving a frame object or a
# locals dict behind, binding defaults and keyword-only defaults, *args, a garbage collection
# inside __init__ called from a generator (whose frame the collector walks), __init__
# replaced or deleted after the site cached the class, tracing switched on, and the references
# of the objects and their class afterwards (class_calls.py has the recursion limit).
import gc
import sys


class Pair:
    def __init__(self, a, b):
        self.a = a
        self.b = b


class WithDefaults:
    def __init__(self, a, b=2, *, c=3):
        self.total = a + b + c


class Star:
    def __init__(self, *args):
        self.n = len(args)


class Returns:
    def __init__(self, v):
        self.v = v
        if v % 3 == 0:
            return v


class Raises:
    freed = 0

    def __init__(self, v):
        if v % 2:
            raise ValueError("odd %d" % v)
        self.v = v

    def __del__(self):
        Raises.freed += 1


class Framed:
    def __init__(self, v):
        self.line = sys._getframe().f_lineno + v
        self.names = sorted(locals())


class Collects:
    made = 0

    def __init__(self, v):
        self.v = v
        if v % 7 == 0:
            gc.collect()
        Collects.made += 1


class Replaced:
    def __init__(self, v):
        self.v = v


def make_pairs(n):
    return sum(Pair(i, i + 1).b for i in range(n))


def make_defaults(n):
    return [WithDefaults(i).total + WithDefaults(i, 5).total + WithDefaults(i, c=1).total
            for i in range(n)]


def make_star(n):
    return [Star().n + Star(i).n + Star(i, i, i).n for i in range(n)]


def make_or_fail(cls, n):
    out = []
    for i in range(n):
        try:
            out.append(cls(i).v)
        except (TypeError, ValueError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    return out


def make_framed(n):
    return [(Framed(i).line - i, Framed(i).names) for i in range(n)]


def generate(n):
    for i in range(n):
        yield Collects(i).v


def make_replaced(n):
    return [Replaced(i).v for i in range(n)]


def traced(n):
    seen = []

    def tracer(frame, event, arg):
        if event == "call":
            seen.append(frame.f_code.co_name)
        return None

    sys.settrace(tracer)
    try:
        total = make_pairs(n)
    finally:
        sys.settrace(None)
    return total, sorted(set(seen))


for _ in range(8):  # warm the functions past the threshold, then use them
    make_pairs(4)
print(make_pairs(100))
print(make_defaults(4))
print(make_star(4))
print(make_or_fail(Returns, 7))
print(make_or_fail(Raises, 6), "freed", Raises.freed)
print(make_framed(3))
print(sum(generate(30)), Collects.made)
print(make_replaced(3))
Replaced.__init__ = lambda self, v: setattr(self, "v", -v)
print(make_replaced(3))
del Replaced.__init__
try:
    print(make_replaced(3))
except TypeError as e:
    print("TypeError", e)
print(traced(5))
base = sys.getrefcount(Pair)
pairs = [Pair(i, i) for i in range(50)]
print("Pair references while alive:", sys.getrefcount(Pair) - base)
del pairs
print("Pair references after:", sys.getrefcount(Pair) - base)
