# pydiff: jit-args=--jitlist=__main__:drive*
# pydiff: min-compiled=3
# pydiff: min-interpreted_resumes=2000
# Generators and coroutines whose code stays interpreted (not in the jitlist), resumed by
# next(), `for`, `yield from`, `await` and C iteration: the JIT's stand-ins for PyGen_Type's
# tp_iternext and the am_send of generators and coroutines take such a resume to the
# interpreter themselves (jit.cc ResumeInterpreted) when the hook would only count it. What
# must still hold: values sent, returned values (StopIteration.value), StopIteration raised
# inside (PEP 479's RuntimeError), exceptions out of a generator and their tracebacks, the
# exception being handled seen from inside, the generator's state, close() and throw() after a
# resume, tracing switched on between resumes, and the references of what was sent.
import asyncio
import inspect
import sys


def counter(n):
    total = 0
    for i in range(n):
        got = yield i
        total += got if got is not None else i
    return total


def delegating(n):
    result = yield from counter(n)
    return ("delegated", result)


def raises_stop():
    yield 1
    raise StopIteration("inside")


def fails_after(k):
    for i in range(k):
        yield i
    raise KeyError("after %d" % k)


def sees_exc_info():
    yield sys.exc_info()[0]
    yield sys.exc_info()[0]


def closable(log):
    try:
        while True:
            yield "running"
    except GeneratorExit:
        log.append("closed")
        raise
    finally:
        log.append("finally")


def catches_thrown():
    while True:
        try:
            yield "ok"
        except ValueError as e:
            yield "caught " + str(e)


async def leaf(x):
    await asyncio.sleep(0)
    return x * 2


async def middle(x):
    a = await leaf(x)
    b = await leaf(a)
    return a + b


async def gathered(n):
    return await asyncio.gather(*(middle(i) for i in range(n)))


def drive_generators(n):
    out = []
    for i in range(n):
        g = counter(4)
        out.append(next(g))
        out.append(g.send(10))
        out.append(list(g))
        out.append(sum(counter(i % 7)))
        d = delegating(3)
        values = [next(d), d.send(5), d.send(6)]
        try:
            d.send(7)
        except StopIteration as e:
            values.append(e.value)
        out.append(values)
    return out


def drive_errors():
    out = []
    r = raises_stop()
    out.append(next(r))
    try:
        next(r)
    except RuntimeError as e:
        out.append((type(e).__name__, str(e), repr(e.__cause__)))
    f = fails_after(2)
    try:
        for v in f:
            out.append(v)
    except KeyError as e:
        tb = e.__traceback__
        names = []
        while tb is not None:
            names.append(tb.tb_frame.f_code.co_name)
            tb = tb.tb_next
        out.append(("KeyError", str(e), names, inspect.getgeneratorstate(f)))
    s = sees_exc_info()
    out.append(next(s))
    try:
        raise OSError("handled")
    except OSError:
        out.append(next(s))
    log = []
    c = closable(log)
    out.append((next(c), next(c), inspect.getgeneratorstate(c)))
    c.close()
    out.append((log, inspect.getgeneratorstate(c)))
    t = catches_thrown()
    out.append((next(t), t.throw(ValueError("x")), next(t)))
    return out


def drive_tracing():
    events = []

    def tracer(frame, event, arg):
        if frame.f_code.co_filename == __file__ and frame.f_code.co_name == "counter":
            events.append(event)
        return tracer

    g = counter(3)
    first = next(g)
    sys.settrace(tracer)
    try:
        second = next(g)
    finally:
        sys.settrace(None)
    return first, second, list(g), events


print(drive_generators(400)[-10:])
print(drive_errors())
print(asyncio.run(gathered(300))[-5:])
print(drive_tracing())



def echo():
    kept = None
    while True:
        got = yield kept
        kept = got


token = object()
before = sys.getrefcount(token)
for _ in range(100):
    e = echo()
    next(e)
    e.send(token)
    e.send(None)
    e.close()
print("references unchanged:", sys.getrefcount(token) == before)
