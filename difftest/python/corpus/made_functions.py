# pydiff: threshold=3
# pydiff: all-compiled
# Functions that compiled code's MAKE_FUNCTION makes, many times at one site: comprehensions,
# lambdas, closures, functions with defaults, keyword defaults, annotations and docstrings.
# The site caches what PyFunction_New looked up in the globals (__name__ for __module__, the
# builtins), valid while the globals are unchanged: a global stored between two makes, and
# `__builtins__` and `__name__` themselves rebound, must show in the next function made.
import builtins
import sys


def comprehension(xs):
    return [x * 2 for x in xs if x]


def lambdas(n):
    return [(lambda y, k=k: y + k)(10) for k in range(n)]


def closure(n):
    def add(y, *, scale=2) -> int:
        "adds n, scaled"
        return (y + n) * scale

    return add


def described(f):
    return (f.__name__, f.__qualname__, f.__module__, f.__doc__, f.__defaults__,
            f.__kwdefaults__, f.__annotations__, f(1))


def uses_len(xs):
    return (lambda: len(xs))()


counter = 0


def bump():
    global counter
    counter += 1
    return comprehension([counter, 0, 3])


def main():
    out = []
    for _ in range(6):
        out.append(comprehension([1, 0, 2]))
        out.append(lambdas(3))
        out.append(described(closure(5)))
        out.append(bump())
        out.append(uses_len([1, 2]))
    return out


for line in main():
    print(line)
# The builtins and the module's name, rebound: functions made from now on have the new ones.
ns = dict(builtins.__dict__)
ns["len"] = lambda xs: -1
globals()["__builtins__"] = ns
print(uses_len([1, 2, 3]), uses_len([]))
__name__ = "renamed"
print(described(closure(1))[2], closure(2).__module__)
del globals()["__builtins__"]
print(uses_len([1]), sys.getrefcount(ns) > 1)
