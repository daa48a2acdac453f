# Recursion far deeper than the thread's own C stack could hold under the JIT, with the limit
# raised: stock 3.11 needs no C stack for a Python-to-Python call, so these finish there; under
# the JIT every level nests native frames (jit/python/jit_stack.h). Then the limit itself,
# which must end in the same RecursionError.
# pydiff: threshold=0,100
# pydiff: min-compiled=4
import sys

sys.setrecursionlimit(100000)


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


class Link:
    def __init__(self, rest):
        self.rest = rest

    def length(self):
        return 1 if self.rest is None else 1 + self.rest.length()


# Mutual recursion with one side a lambda.
is_even = lambda k: True if k == 0 else is_odd(k - 1)


def is_odd(k):
    return False if k == 0 else is_even(k - 1)


def forever(n):
    return forever(n + 1)


print(depth(50000))
chain = None
for _ in range(60000):
    chain = Link(chain)
print(chain.length())
print(is_even(60000), is_odd(59999))
try:
    forever(0)
except RecursionError as e:
    print("forever:", e)
for limit in (1000, 5000):
    sys.setrecursionlimit(limit)
    try:
        forever(0)
    except RecursionError as e:
        print(limit, e)
