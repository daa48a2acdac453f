# pydiff: threshold=3
# pydiff: all-compiled
# pydiff: min-keyword_entries=2000
# CALLs with keyword arguments from compiled code, which the keyword-call stub makes
# (jit/lower/call_stub.cc): a64_call_kw_enter pushes a compiled callee's frame with its
# parameters bound (EnterKeywordCall) and the stub runs it, a64_call_leave popping it. The ends
# that path must give as a64_call gave them: every parameter shape, bound methods, a callee
# that raises, one that leaves a frame object or a locals dict behind, a generator function,
# a call from another thread, C callables and classes called by keyword,
# calls that do not bind (their TypeErrors), the recursion limit reached through keyword
# calls, tracing switched on inside a callee, and the references of the arguments afterwards.
import sys


def plain(a, b=1, c=2):
    return a * 100 + b * 10 + c


def kwonly(a, *, key=None, reverse=False):
    return (a, key, reverse)


def rest(*args, sep=",", **extra):
    return sep.join(map(str, args)) + "|" + ",".join("%s=%s" % kv for kv in sorted(extra.items()))


class Box:
    def __init__(self, width, height=1, *, label="box"):
        self.width = width
        self.height = height
        self.label = label

    def scaled(self, factor=1, *, round_to=None):
        w = self.width * factor
        return w if round_to is None else round(w, round_to)


def raises(a, b=0):
    if b:
        raise ValueError("b=%d" % b)
    return a


def keeps_frame(a, b=0):
    return sys._getframe(), a + b


def with_locals(a, b=0):
    return sorted(locals().items())


def counter(n, step=1):
    i = 0
    while i < n:
        yield i
        i += step


def recurse(n, *, acc=0):
    return acc if n == 0 else recurse(n - 1, acc=acc + n)


def shapes():
    out = []
    for i in range(300):
        out.append(plain(i, c=3))
        out.append(plain(a=i, b=2))
        out.append(plain(i, c=i, b=i))
        out.append(plain(i, b=5))  # the second default missing, not the first
        out.append(kwonly(i, reverse=True))
        out.append(kwonly(a=i, key="k"))
        out.append(rest(1, 2, i, sep=";", x=i))
        out.append(rest(i, y=2))
    return out


def methods():
    out = []
    for i in range(200):
        b = Box(i, height=2, label="b%d" % i)
        out.append((b.width, b.height, b.label))
        out.append(b.scaled(factor=3))
        out.append(b.scaled(round_to=1, factor=0.5))
        f = b.scaled
        out.append(f(factor=2))
    return out


def ends():
    out = []
    for i in range(50):
        try:
            out.append(raises(i, b=i % 3))
        except ValueError as e:
            out.append(str(e))
        frame, v = keeps_frame(i, b=1)
        plain(-1, c=-1)  # reuses the data stack the returned frame had: the frame object owns
        plain(-2, b=-2)  # a copy, or these would show through it
        out.append((frame.f_code.co_name, sorted(frame.f_locals.items()), frame.f_lineno, v))
        out.append(with_locals(i, b=2))
        out.append(list(counter(5, step=2)))
    return out


def others():
    out = []
    for i in range(50):
        out.append(sorted([3, 1, i], reverse=True))
        out.append(dict(a=i, b=2))
        out.append(int("7", base=10 + i % 5))
        out.append("x".center(5, "-"))
    return out


def bad_calls():
    out = []
    for call in (lambda: plain(1, a=2), lambda: plain(b=1), lambda: kwonly(1, nope=2),
                 lambda: kwonly(1, 2), lambda: Box(height=3)):
        try:
            call()
        except TypeError as e:
            out.append(str(e))
    return out


def at_the_limit():
    out = []
    out.append(recurse(200, acc=1))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(120)
    try:
        try:
            recurse(1000, acc=0)
        except RecursionError as e:
            out.append(type(e).__name__)
    finally:
        sys.setrecursionlimit(old)
    out.append(recurse(50, acc=2))
    return out


def traced():
    seen = []

    def tracer(frame, event, arg):
        if event == "call":
            seen.append(frame.f_code.co_name)
        return None

    def inner(a, *, turn_on=False):
        if turn_on:
            sys.settrace(tracer)
        return a + 1

    total = 0
    for i in range(5):
        total += inner(i, turn_on=(i == 2))
        total += plain(i, c=1)
    sys.settrace(None)
    return total, seen


def in_a_thread():
    # Another thread than the one that enabled the JIT: the stub's plain push is not its
    # (EnterKeywordCall's tests), and EnterCompiledCall's general way binds.
    import threading
    box = []
    t = threading.Thread(target=lambda: box.append(shapes()[-4:]))
    t.start()
    t.join()
    return box


def references():
    key = object()
    value = [1, 2]
    before = (sys.getrefcount(key), sys.getrefcount(value), sys.getrefcount(kwonly))
    for _ in range(100):
        kwonly(value, key=key)
        rest(value, k=key)
    return (sys.getrefcount(key), sys.getrefcount(value), sys.getrefcount(kwonly)) == before


for name, fn in (("shapes", shapes), ("methods", methods), ("ends", ends), ("others", others),
                 ("bad_calls", bad_calls), ("at_the_limit", at_the_limit), ("traced", traced),
                 ("in_a_thread", in_a_thread), ("references", references)):
    for rnd in range(5):
        result = fn()
    print(name, result if name not in ("shapes", "methods") else (len(result), result[-8:]))
