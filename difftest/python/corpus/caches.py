# pydiff: all-compiled
# What the JIT's per-site caches (globals, instance attributes) must notice: globals and
# builtins rebound, attributes deleted and re-added, __dict__ materialised, a class attribute
# or property added after the site specialised, several types at one site, __getattr__.
import builtins


class P:
    def __init__(self, x):
        self.x = x
        self.y = x + 1


class Q:
    def __init__(self, x):
        self.y = -x
        self.x = x * 10


def get_x(o):
    return o.x


def set_x(o, v):
    o.x = v
    return o.x


def read_global():
    return COUNTER


def use_len(s):
    return len(s)


class M:
    def __init__(self, v):
        self.v = v

    def m(self):
        return "method " + str(self.v)


def call_m(o):
    return o.m()


def append_to(xs, v):
    xs.append(v)
    return len(xs)


def show(o):
    return [get_x(o), sorted(o.__dict__.items())]


class G(P):
    def __getattr__(self, name):
        return "missing " + name


COUNTER = 1
print(read_global())
COUNTER = 2
print(read_global())
del COUNTER
try:
    read_global()
except NameError as e:
    print("NameError:", e)
builtins.COUNTER = "from builtins"
print(read_global())
print(use_len("abc"))
original_len = builtins.len
builtins.len = lambda s: 42
print(use_len("abc"))
builtins.len = original_len
print(use_len("abcd"))
p, q = P(1), Q(2)
print([get_x(o) for o in (p, q, p, q)], set_x(p, 5))
del p.x
try:
    get_x(p)
except AttributeError as e:
    print("AttributeError:", e)
print(set_x(p, 6), show(p), get_x(p), set_x(p, 7))
P.x = property(lambda self: "property wins", lambda self, v: None)
print(get_x(P(3)), set_x(P(3), 9))
del P.x
print(get_x(P(4)), set_x(P(4), 10))
g = G(8)
del g.x
print(get_x(g))
a, b = M(1), M(2)
print(call_m(a), call_m(b))
b.m = lambda: "instance attribute shadows"
print(call_m(a), call_m(b))
M.m = lambda self: "patched " + str(self.v)
print(call_m(a), call_m(M(3)))
print(append_to([], 1), append_to([1, 2], 3))
