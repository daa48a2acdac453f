# pydiff: all-compiled
# The bottom of `while cond:` and a comprehension's filter are backward POP_JUMPs. Compiled
# code tests the eval breaker and tracing on the jump's edge, after the condition, as 3.11
# does: a condition whose __bool__ or __lt__ switches tracing on is tested once, and the
# interpreter takes over at the loop's head with the line events stock gives. Loops whose
# condition is a plain comparison give the same results whether tracing comes or not.
import sys

events = []


def start_tracing():
    sys._getframe(2).f_trace = tracer  # the loop's frame, past the operator method
    sys.settrace(tracer)


def tracer(frame, event, arg):
    if frame.f_code.co_name.startswith(("spin", "count_below", "<listcomp>")):
        events.append((frame.f_code.co_name, event, frame.f_lineno - frame.f_code.co_firstlineno))
    return tracer


class Countdown:
    """True `n` times; switches tracing on at the test `trace_at` (0: never)."""

    def __init__(self, n, trace_at):
        self.n, self.trace_at, self.tests = n, trace_at, 0

    def __bool__(self):
        self.tests += 1
        if self.tests == self.trace_at:
            start_tracing()
        self.n -= 1
        return self.n >= 0


class Bound:
    """An upper bound whose comparison counts, and may switch tracing on."""

    def __init__(self, limit, trace_at):
        self.limit, self.trace_at, self.compares = limit, trace_at, 0

    def __gt__(self, i):
        self.compares += 1
        if self.compares == self.trace_at:
            start_tracing()
        return i < self.limit


def spin(c):
    laps = 0
    while c:
        laps += 1
    return laps


def spin_not(c):
    laps = 0
    while not c:
        laps += 1
        c = laps >= 4
    return laps


def count_below(i, bound):
    while i < bound:
        i += 1
    return i


def count_to(n):
    i, total = 0, 0
    while i < n:
        total += i
        i += 1
    return total


def odd_ones(items):
    return [x for x in items if x]


for trace_at in (0, 3):
    c = Countdown(6, trace_at)
    print("spin", spin(c), c.tests)
    sys.settrace(None)
    b = Bound(5, trace_at)
    print("count_below", count_below(0, b), b.compares)
    sys.settrace(None)
    items = [Countdown(1, 0), Countdown(0, 0), Countdown(1, trace_at // 3), Countdown(0, 0)]
    print("odd_ones", len(odd_ones(items)), [x.tests for x in items])
    sys.settrace(None)
for n in (0, 1, 7, 1000):
    print("count_to", n, count_to(n), spin_not(False))
for e in events:
    print(*e)
