# C code calling back into Python, nested deeply: sort keys, map, a dict lookup's __eq__, and
# __del__ run by a release, each recursing through the C function again, to just below the
# recursion limit and then past it (the same RecursionError as the interpreter's).
# pydiff: min-compiled=4
import sys


def via_sorted(n):
    return n if n == 0 else sorted([n], key=lambda v: via_sorted(v - 1))[0] + 1


def via_map(n):
    return n if n == 0 else list(map(via_map, [n - 1]))[0] + 1


class Key:
    def __init__(self, n):
        self.n = n

    def __hash__(self):
        return 1

    def __eq__(self, other):
        # Every lookup in a dict with colliding keys calls this from C.
        return self.n == other.n and (self.n == 0 or via_eq(self.n - 1) >= 0)


def via_eq(n):
    table = {Key(n): n}
    return table[Key(n)]


released = []


class Dropped:
    def __init__(self, n):
        self.n = n

    def __del__(self):
        released.append(self.n)
        if self.n > 0:
            Dropped(self.n - 1)  # made and released inside __del__


print(via_sorted(150), via_map(150), via_eq(100))
Dropped(120)
print(len(released), released[-1])
for f in (via_sorted, via_map):
    try:
        f(100000)
    except RecursionError as e:
        print(f.__name__, "RecursionError:", e)
