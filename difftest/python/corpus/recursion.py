# pydiff: all-compiled
# Recursion: results, depth, and RecursionError when it goes too deep.
import sys


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


def depth(n):
    if n == 0:
        return len(stack_of_frames())
    return depth(n - 1)


def stack_of_frames():
    f = sys._getframe()
    out = []
    while f is not None:
        out.append(f.f_code.co_name)
        f = f.f_back
    return out


def forever(n):
    return forever(n + 1) + 1


print(fib(18), ackermann(2, 3), depth(25))
print(stack_of_frames()[:3])
try:
    forever(0)
except RecursionError as e:
    print("RecursionError:", e)


# The depth reached must be stock's exactly, under a lowered limit and a raised one.
deepest = 0


def dive(n):
    global deepest
    deepest = n
    return dive(n + 1)


for limit in (120, 3000):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        dive(0)
    except RecursionError as e:
        print("limit", limit, "deepest", deepest, "message:", e)
    finally:
        sys.setrecursionlimit(old)
