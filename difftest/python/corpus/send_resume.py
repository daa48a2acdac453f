# pydiff: all-compiled
# pydiff: min-resumed_entries=1500
# Compiled generators and coroutines resumed by a send without the eval-frame hook
# (jit.cc JitAmSend: the am_send of generators and coroutines): `yield from` and `await`
# in compiled code, the interpreter's own SEND, and asyncio's C tasks. What 3.11's
# gen_send_ex2 does around the run must still happen: the sent value arrives, a return value
# ends the `yield from`/`await` with it, a StopIteration raised inside becomes RuntimeError
# (worded for a generator or a coroutine), an exception leaves through every level with its
# traceback, an exhausted generator gives None to a further `yield from` while an awaited
# coroutine cannot be awaited again, a just-started generator refuses a value other than
# None, a generator that sends to itself is "already executing", the handled exception is
# the inner generator's own, and a finished generator's locals are released. Few next()
# calls: most resumes here are sends.
import asyncio
import sys
import traceback
import weakref


def inner(n):
    total = 0
    for _ in range(n):
        got = yield total
        total += got if got is not None else 1
    return "inner %d" % total


def outer(n):
    result = yield from inner(n)
    yield "outer got " + result


def nest(depth, n):
    if depth == 0:
        return (yield from inner(n))
    return (yield from nest(depth - 1, n))


def drive_sends(g, values):
    out = [g.send(None)]
    for v in values:
        try:
            out.append(g.send(v))
        except StopIteration as e:
            out.append(("stopped", e.value))
            break
    return out


def raises_stop():
    yield 1
    raise StopIteration("inside")


def delegates_stop():
    try:
        yield from raises_stop()
    except RuntimeError as e:
        yield ("caught", str(e), type(e.__cause__).__name__)


def raises_deep(n):
    if n == 0:
        yield "bottom"
        raise ValueError("deep")
    yield from raises_deep(n - 1)


def exhausted_twice():
    g = inner(1)
    first = yield from g
    second = yield from g  # a finished generator: its send gives None at once
    yield (first, second)


def sends_to_itself():
    yield me.send(None)


def handled_inside():
    try:
        raise KeyError("outer's")
    except KeyError:
        r = yield from sees_exception()
    yield r


def sees_exception():
    yield sys.exc_info()[0].__name__
    try:
        raise IndexError("inner's")
    except IndexError:
        yield sys.exc_info()[0].__name__
    return sys.exc_info()[0].__name__


class Probe:
    pass


def holds_probe(refs):
    p = Probe()
    refs.append(weakref.ref(p))
    yield 1
    return 2


def releases(refs):
    r = yield from holds_probe(refs)
    yield (r, refs[0]() is None)


async def leaf(x):
    await asyncio.sleep(0)
    return x + 1


async def chain(depth, x):
    if depth == 0:
        return await leaf(x)
    return await chain(depth - 1, x) * 2


async def coro_stop():
    raise StopIteration("in a coroutine")


async def awaits_stop():
    try:
        await coro_stop()
    except RuntimeError as e:
        return (str(e), type(e.__cause__).__name__)


async def awaits_twice():
    c = leaf(1)
    first = await c
    try:
        await c
    except RuntimeError as e:
        return (first, str(e))


async def fails_deep(n):
    if n == 0:
        await asyncio.sleep(0)
        raise ValueError("deep coroutine")
    return await fails_deep(n - 1)


async def catches_deep():
    try:
        await fails_deep(5)
    except ValueError as e:
        tb = traceback.extract_tb(e.__traceback__)
        return (str(e), [f.name for f in tb][-3:])


async def gathers():
    return await asyncio.gather(*(chain(i % 4, i) for i in range(12)))


def main():
    results = []
    for n in range(1, 30):
        results.append(drive_sends(outer(3), [n, n + 1, n + 2, None]))
        results.append(drive_sends(nest(6, 2), [n, None, 5]))
    results.append(list(delegates_stop()))
    try:
        list(raises_deep(6))
    except ValueError as e:
        results.append((str(e), [f.name for f in traceback.extract_tb(e.__traceback__)][-3:]))
    results.append(list(exhausted_twice()))
    global me
    me = sends_to_itself()
    try:
        next(me)
    except ValueError as e:
        results.append(str(e))
    g = nest(2, 2)
    try:
        g.send(5)
    except TypeError as e:
        results.append(str(e))
    results.append(list(handled_inside()))
    results.append(list(releases([])))
    for i in range(20):
        results.append(asyncio.run(chain(8, i)))
    results.append(asyncio.run(awaits_stop()))
    results.append(asyncio.run(awaits_twice()))
    results.append(asyncio.run(catches_deep()))
    results.append(asyncio.run(gathers()))
    return results


for row in main():
    print(row)
