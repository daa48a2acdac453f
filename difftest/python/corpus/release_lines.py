# pydiff: all-compiled
# The line a finalizer sees. When compiled code drops the last reference to an object, its
# __del__ runs with the releasing frame naming the releasing line, as 3.11 keeps it. Outside
# loops the release goes through a shared release stub, whose helper sets the line from the
# stub's data word. Inside loops and recursion it is a call inline. At a return, the frame is
# popped first, so the finalizer sees the caller's line.
import sys

seen = []


class Tell:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        caller = sys._getframe(1)
        seen.append((self.name, caller.f_code.co_name, caller.f_lineno))


def straight():
    a = Tell("a")
    b = Tell("b")
    a = None
    x = 1
    b = 2
    return x + b


def overwritten():
    t = Tell("first")
    t = Tell("second")
    t = Tell("third")
    return t.name


def temporary():
    n = len([Tell("in a list")])
    return n + 1


def in_loop(n):
    total = 0
    for i in range(n):
        t = Tell("loop %d" % i)
        total += i
        t = None
    return total


def at_return():
    t = Tell("local at return")
    return 5


def after_call(f):
    t = Tell("before a call")
    f(t)
    t = None
    return 1


def deep(n):
    t = Tell("deep %d" % n)
    if n > 0:
        deep(n - 1)
    t = None
    return n


print(straight(), overwritten(), temporary(), in_loop(3), at_return(), after_call(id) > 0,
      deep(2))
for name, function, line in seen:
    print(name, function, line)
