# pydiff: all-compiled
# CALLs of C functions that compiled code makes through their C entry (a site's cache of
# the builtin function or method descriptor): METH_O, METH_NOARGS and METH_FASTCALL; and
# every way out: another callable at the same site, a receiver of another type (a str
# subclass), bound builtin methods, keyword arguments, errors raised by the C function,
# the recursion limit, a site that keeps changing, and the cache's references.
import gc
import math
import sys
import weakref


class Str(str):
    def isdigit(self):
        return "overridden"


def methods(s):
    return s.isdigit(), s.upper(), s.startswith("a"), s.count("a", 1), s.split(",", 1)


def builtins_(xs):
    return len(xs), isinstance(xs, list), abs(-len(xs)), min(xs), max(xs, default=None), \
        math.sqrt(len(xs)), sum(xs), repr(xs)


def call_it(f, *args):
    return f(*args)


def same_site(f, x):
    return f(x)


def errors():
    out = []
    for thunk in (lambda: len(5), lambda: "abc".index("z"), lambda: math.sqrt(-1),
                  lambda: [].pop(), lambda: "x".join([1]), lambda: int.from_bytes(3)):
        try:
            out.append(thunk())
        except (TypeError, ValueError, IndexError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    return out


def changing_site():
    out = []
    for f in [len, abs, len, str.upper, math.floor, len, repr, hash, len, id] * 3:
        try:
            v = same_site(f, -2.5 if f in (abs, math.floor) else "ab")
            out.append(v if f not in (id, hash) else type(v).__name__)
        except TypeError as e:
            out.append("TypeError: " + str(e))
    return out


def receivers():
    out = []
    for s in ["123", "a,b,c", Str("456"), "", "aaa"]:
        out.append(methods(s))
    return out


def bound_builtin(xs):
    push = xs.append  # a bound builtin method: called generically, never cached
    for i in range(5):
        push(i)
    return xs


class Tracked(list):
    pass


def lifetime():
    # The site's cache must not keep a receiver or a bound method's object alive.
    t = Tracked([1, 2])
    r = weakref.ref(t)
    for _ in range(3):
        t.append(len(t))
        t.sort()
    size = t.__len__()
    push = t.append
    push(size)
    del t, push
    gc.collect()
    return size, r() is None


def recurse(n):
    # At the recursion limit the C call is the generic path's, which raises as stock does.
    if n == 0:
        return len("x")
    return recurse(n - 1) + 1


def limit():
    old = sys.getrecursionlimit()
    set_limit = sys.setrecursionlimit  # a module's function: called through its C entry
    for new in (1000, 60):  # the second call takes the site's fast path
        set_limit(new)  # the new limit must hold after the call returns
    try:
        out = []
        for depth in (10, 40, 55, 58, 200):
            try:
                out.append(recurse(depth))
            except RecursionError as e:
                out.append("RecursionError: " + str(e))
        return out
    finally:
        sys.setrecursionlimit(old)


def who_called():
    return sys._getframe(1).f_lineno


def caller_lines():
    # A CALL site's C-call guard fails (a Python callee): the callee must still find the
    # caller's line right.
    a = who_called()
    b = who_called()
    c = len("x") + who_called()
    d = [who_called() for _ in range(2)]
    seen = []
    for _ in range(3):  # from the second round, len's site is cached
        n = len("ab")
        line = who_called()
        seen.append(line - n)
    return a, b, c, d, seen


def loops(n):
    s = "12ab"
    k = 0
    total = 0
    for i in range(n):
        if s.isdigit():
            k += 1
        if s[:2].isdigit():
            k += 2
        total += len(s) + abs(-i) + min(i, 3)
    return k, total


print(receivers())
print(builtins_([3, 1, 2]), builtins_([]) if False else builtins_([7]))
print(call_it(len, "abcd"), call_it(max, 1, 5, 2), call_it(str.lower, "ABC"))
print(errors())
print(changing_site())
print(bound_builtin([]))
print(lifetime())
print(limit())
print(caller_lines())
print(loops(500))
