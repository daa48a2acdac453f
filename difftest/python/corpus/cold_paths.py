# pydiff: threshold=20
# pydiff: jit-args=--cold-path-calls=0
# pydiff: min-cold_path_exits=12
# Blocks that had not run when a function was compiled (after 3.11 quickened it) are left to
# the interpreter: compiled code leaves at such a block's first instruction with the stack as
# it is there, and what only such blocks lead to is not compiled. Each function here is warmed
# past the threshold on inputs that never take some of its paths, then given inputs that do:
# a branch inside a loop (the iterator on the stack), an exception handler and a finally, a
# with block's exit, a value half computed (a conditional expression), a loop that first runs
# after the compile, a nested function made there, an unbound local, recursion, a generator,
# tracebacks, and the references of what passes through.
import sys


class Meter:
    def __init__(self):
        self.log = []

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, tb):
        self.log.append("exit %s" % (kind.__name__ if kind else None))
        return kind is KeyError


def in_loop(items):
    total = 0
    for x in items:
        if x < 0:
            total -= x * 100  # cold: never negative while warming
            continue
        total += x
    return total


def handler(d, k):
    try:
        return d[k]
    except KeyError:
        return "missing %r" % (k,)  # cold handler
    finally:
        d["seen"] = d.get("seen", 0) + 1


def with_exit(m, k):
    with m:
        if k == "raise":
            raise KeyError(k)  # cold, swallowed by __exit__
        if k == "boom":
            raise ValueError(k)  # cold, not swallowed
    return len(m.log)


def half_computed(a, b, c):
    return a * 2 + (b if c else sum([b, a, len(str(c))]))  # cold: the else arm


def late_loop(n, extra):
    out = [n]
    if extra:
        while extra:  # a loop that first runs after the compile
            out.append(extra.pop())
    return out


def makes_closure(n, special):
    if special:
        def inner(k):  # cold: the function is made in the interpreter
            return k + n
        return inner(10)
    return n


def unbound(flag):
    if flag:
        value = 1
    if flag is None:
        return value  # cold: raises UnboundLocalError
    return flag


def recurse(n):
    if n <= 0:
        return 0
    if n % 50 == 0:
        return 1000 + recurse(n - 1)  # cold below 50
    return 1 + recurse(n - 1)


def gen(n, odd):
    for i in range(n):
        if odd and i % 2:
            yield -i  # generators keep every block
        else:
            yield i


def raises_late(x):
    if x > 1000:
        raise OverflowError("too big: %d" % x)  # cold, with its traceback line
    return x + 1


def where(e):
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return "%s: %s (line %d)" % (type(e).__name__, e, tb.tb_lineno)


for _ in range(30):  # past the threshold, 3.11 having quickened each function
    in_loop([1, 2, 3])
    handler({"a": 1}, "a")
    with_exit(Meter(), "ok")
    half_computed(1, 2, True)
    late_loop(1, [])
    makes_closure(3, False)
    unbound(True)
    recurse(10)
    list(gen(3, False))
    raises_late(5)

print(in_loop([1, -2, 3, -4]), in_loop(list(range(-5, 5)) * 3))
d = {"a": 1}
print(handler(d, "a"), handler(d, "b"), handler(d, ("t", 1)), d)
m = Meter()
print(with_exit(m, "ok"), with_exit(m, "raise"), m.log)
try:
    with_exit(m, "boom")
except ValueError as e:
    print(where(e), m.log[-2:])
print(half_computed(1, 2, True), half_computed(3, 4, False), half_computed(5, 6, ""))
print(late_loop(7, [1, 2, 3]), late_loop(8, []))
print(makes_closure(4, True), makes_closure(5, False))
try:
    unbound(None)
except UnboundLocalError as e:
    print(where(e))
print(recurse(120), recurse(49))
print(list(gen(6, True)), list(gen(4, False)))
for x in (7, 5000):
    try:
        print(raises_late(x))
    except OverflowError as e:
        print(where(e))
token = object()
before = sys.getrefcount(token)
print(handler({token: 1}, token), handler({}, token).startswith("missing <object"), in_loop([-1, 2]))
print("references of the key after:", sys.getrefcount(token) - before)
