# pydiff: all-compiled
# A function's return releases its locals. One that may be unbound there (an argument
# deleted, a name assigned on one path only, a loop variable of an empty loop, an
# `except ... as name` that cleared it) needs a NULL test; one bound on every path needs
# none. The marker's count shows both a missing release and a double one.
import sys


def deleted_argument(a, b):
    del a
    return b


def deleted_on_one_path(a, flag):
    if flag:
        del a
    return flag


def handler_cleared(e, x):
    try:
        1 / x
    except ZeroDivisionError as e:
        pass
    return x


def assigned_on_one_path(a, flag):
    if flag:
        y = a
    return flag


def loop_variable(items):
    for item in items:
        pass
    return len(items)


def bound_everywhere(a, b):
    c = a
    if b is None:
        return c
    return b


def calls(x, n):
    total = 0
    for i in range(n):
        deleted_argument(x, x)
        total += deleted_on_one_path(x, i % 2)
        total += handler_cleared(x, i % 2)
        total += assigned_on_one_path(x, i % 2)
        total += loop_variable([x] * (i % 2))
        bound_everywhere(x, x if i % 3 else None)
    return total


marker = object()
before = sys.getrefcount(marker)
print(calls(marker, 300))
print("leaked references:", sys.getrefcount(marker) - before)
