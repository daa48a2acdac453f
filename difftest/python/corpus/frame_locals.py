# pydiff: all-compiled
# locals() and vars() in a compiled function give its frame an f_locals dict (3.11's
# _PyFrame_FastToLocalsWithError), which holds the locals' references until the frame is
# cleared. Whichever way the call came in (compiled code's call stub, a C caller through
# vectorcall, a generator's resume), the clear must release it: the marker's count is the
# same after many calls as before.
import sys


def names(a, b):
    c = a
    return sorted(locals())


def count(a):
    return len(locals())


def vars_of(a):
    return len(vars())


def gen(a):
    yield len(locals())


def calls(x, n):
    total = 0
    for i in range(n):
        total += count(x)
        total += vars_of(x)
        total += sum(gen(x))
        total += sum(map(count, [x]))
    return total


marker = object()
before = sys.getrefcount(marker)
print(names(marker, 2), calls(marker, 300))
print("leaked references:", sys.getrefcount(marker) - before)
