# pydiff: all-compiled
# pydiff: min-async_gen_values=1000
# pydiff: env=PYTHONMALLOC=pymalloc_debug
# What an async generator's asend object gives its awaiter, every way it ends: values of every
# kind (None, tuples and exceptions, which StopIteration would wrap), values passed out by an
# await inside, values sent in, a return, StopIteration and StopAsyncIteration raised inside,
# an asend object awaited twice, anext() on a generator that is running, a value sent to one
# not started, and a yielded object's references after many values.
import sys


class Ready:
    """An awaitable that passes one value out to whoever drives the coroutine."""

    def __init__(self, out, back):
        self.out, self.back = out, back

    def __await__(self):
        got = yield self.out
        return (self.back, got)


async def kinds():
    yield None
    yield (1, 2)
    yield ()
    yield ValueError("as a value")
    yield StopIteration(7)
    x = await Ready("passed out", "back")
    yield x
    got = yield "first"
    yield "got %r" % (got,)


async def raises(kind):
    yield 1
    if kind == "stop":
        raise StopIteration("inside")
    if kind == "stop-async":
        raise StopAsyncIteration("inside")
    if kind == "value":
        raise ValueError("inside")
    return


def drive(coro, sends=()):
    """Runs a coroutine by hand, as an event loop would: what it passed out, then its result."""
    passed = []
    sends = list(sends)
    value = None
    while True:
        try:
            passed.append(coro.send(value))
        except StopIteration as e:
            return passed, e.value
        value = sends.pop(0) if sends else None


async def collect_kinds():
    out = []
    g = kinds()
    for _ in range(6):
        out.append(repr(await g.__anext__()))
    out.append(await g.__anext__())
    out.append(await g.asend("sent"))
    try:
        await g.__anext__()
    except StopAsyncIteration as e:
        out.append("end %r %r" % (type(e).__name__, e.args))
    try:
        await g.__anext__()
    except StopAsyncIteration:
        out.append("still ended")
    return out


async def endings():
    out = []
    for kind in ("stop", "stop-async", "value", "return"):
        g = raises(kind)
        out.append(await g.__anext__())
        try:
            await g.__anext__()
        except Exception as e:
            cause = e.__cause__
            out.append((kind, type(e).__name__, str(e), type(cause).__name__ if cause else None))
        try:
            await g.__anext__()
        except StopAsyncIteration:
            out.append((kind, "then StopAsyncIteration"))
    return out


async def misuse():
    out = []
    g = kinds()
    a = g.__anext__()
    out.append(await a)
    try:
        await a
    except RuntimeError as e:
        out.append(str(e))

    holder = []

    async def reentrant():
        yield 1
        try:
            await holder[0].__anext__()
        except RuntimeError as e:
            yield str(e)

    r = reentrant()
    holder.append(r)
    out.append([x async for x in r])

    try:
        await kinds().asend("too early")
    except TypeError as e:
        out.append(str(e))
    return out


async def many(marker, n):
    for _ in range(n):
        yield marker


async def references():
    marker = object()
    before = sys.getrefcount(marker)
    count = 0
    for _ in range(4):
        async for x in many(marker, 300):
            count += x is marker
    return count, sys.getrefcount(marker) - before


async def ticks(n):
    for i in range(n):
        yield i


async def sums():
    total = 0
    for k in range(30):
        async for i in ticks(k):
            total += i
        total += sum([i async for i in ticks(k)])
    return total


def main():
    print("kinds", drive(collect_kinds()))
    print("endings", drive(endings()))
    print("misuse", drive(misuse()))
    print("references", drive(references()))
    print("sums", drive(sums()))


main()
