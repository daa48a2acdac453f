# pydiff: all-compiled
# Tracing and profiling switched on while compiled frames run: a function that traces
# itself (sys.settrace plus its own f_trace, as pdb.set_trace does), one that traces its
# caller, sys.setprofile's call and return events, tracing switched off again (compiled code
# runs after), tracing switched on by code run implicitly (a property) and seen by the next
# call, and RecursionError at the recursion limit with stock's message.
import sys

events = []


def tracer(frame, event, arg):
    if frame.f_code.co_filename == __file__:
        events.append((frame.f_code.co_name, event, frame.f_lineno))
    return tracer


def start_tracing(depth):
    sys.settrace(tracer)
    sys._getframe(depth).f_trace = tracer


def traces_itself(n):
    total = 0
    start_tracing(1)
    for i in range(n):
        total += i
    sys.settrace(None)
    return total


def helper_that_traces_caller():
    start_tracing(2)
    return 1


def traced_by_callee(n):
    x = helper_that_traces_caller()
    y = x + n
    z = y * 2
    sys.settrace(None)
    return z


def raise_after_tracing_caller():
    start_tracing(2)
    raise RuntimeError


def traced_exception():
    try:
        raise_after_tracing_caller()
    except RuntimeError:
        pass
    sys.settrace(None)


def profiler(frame, event, arg):
    if frame.f_code.co_filename == __file__:
        events.append((frame.f_code.co_name, event))


def leaf(x):
    return x + 1


def profiled():
    sys.setprofile(profiler)
    a = leaf(1)
    b = leaf(a)
    sys.setprofile(None)
    return b


class Switch:
    @property
    def on(self):
        sys.settrace(tracer)
        return 1


def traced_after_property(n):
    leaf(n)  # compiled by now, so the call below would enter it compiled
    x = Switch().on  # no call: compiled code goes on, and its next call is traced
    y = leaf(x) + n
    sys.settrace(None)
    return y


def untraced_again(n):
    return sum(leaf(i) for i in range(n))


def depth(n):
    return depth(n + 1) if n < 100000 else n


def deepest():
    sys.setrecursionlimit(200)
    try:
        depth(0)
    except RecursionError as e:
        return str(e)
    finally:
        sys.setrecursionlimit(1000)


def recursion_reach(n=[0]):
    n[0] += 1
    try:
        return recursion_reach()
    except RecursionError:
        return n[0]


print(traces_itself(3))
print(traced_by_callee(5))
print(profiled())
traced_exception()
print(traced_after_property(4))
for e in events:
    print(e)
print(untraced_again(10))
print(deepest())
sys.setrecursionlimit(300)
print("frames reached:", recursion_reach())
sys.setrecursionlimit(1000)
