# pydiff: all-compiled
# pydiff: min-resumed_entries=20
# A compiled generator resumed by next() without the eval-frame hook (jit.cc JitGenIterNext):
# what 3.11's gen_send_ex2 does around the run must still happen. A return value becomes
# StopIteration's value, a StopIteration raised inside becomes RuntimeError, an exhausted
# generator stays exhausted, the handled exception is the generator's own inside it and the
# caller's again outside, the caller is the generator frame's f_back while it runs, a
# generator resumed from inside itself is "already executing", its locals are released when
# it finishes (a weak reference dies) while a frame object taken from it keeps them, and an
# exception leaving it has its line in the traceback. Resumed by compiled `for` loops, by
# next() and by C iteration (list, sum, str.join).
import inspect
import sys
import traceback
import weakref


def returns(n):
    for i in range(n):
        yield i
    return "done %d" % n


def next_or_value(it):
    try:
        return next(it)
    except StopIteration as e:
        return ("stopped", e.value)


def raises_stop():
    yield 1
    raise StopIteration("inside")


def exc_seen():
    yield sys.exc_info()[0]
    try:
        raise KeyError("k")
    except KeyError:
        yield sys.exc_info()[0]
    yield sys.exc_info()[0]


def caller_name():
    while True:
        yield sys._getframe().f_back.f_code.co_name


def drive_caller_name(g):
    return next(g)


def reentrant():
    yield next(me)


def states():
    yield inspect.getgeneratorstate(watched)
    yield watched.gi_running


class Probe:
    pass


def holds_probe(refs):
    p = Probe()
    refs.append(weakref.ref(p))
    yield 1
    yield 2


def keeps_frame(out):
    x = "kept"
    out.append(sys._getframe())
    yield x


def fails(n):
    yield n
    yield 1 // (n - n)


def consume(g):
    total = 0
    for v in g:
        total += v
    return total


g = returns(2)
print([next_or_value(g) for _ in range(4)])
print(consume(returns(5)), list(returns(3)), sum(returns(4)), "-".join(str(v) for v in returns(3)))

g = raises_stop()
print(next(g))
try:
    next(g)
except RuntimeError as e:
    print("RuntimeError:", e, "| cause:", repr(e.__cause__))

try:
    raise ValueError("outer")
except ValueError:
    g = exc_seen()
    print(next(g).__name__, next(g).__name__)
print(next(g))
print(sys.exc_info())

g = caller_name()
print(drive_caller_name(g), next(g), [next(g) for _ in range(1)])

me = reentrant()
try:
    next(me)
except ValueError as e:
    print("ValueError:", e)

watched = states()
print(inspect.getgeneratorstate(watched), list(watched), inspect.getgeneratorstate(watched))

refs = []
g = holds_probe(refs)
print(next(g), refs[0]() is not None, next(g), next_or_value(g), refs[0]() is None)

frames = []
g = keeps_frame(frames)
print(next(g), next_or_value(g), frames[0].f_locals.get("x"), frames[0].f_lineno)

g = fails(3)
print(next(g))
try:
    next(g)
except ZeroDivisionError:
    print([(f.name, f.lineno) for f in traceback.extract_tb(sys.exc_info()[2])])
print(next_or_value(g))
