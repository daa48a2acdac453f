# pydiff: all-compiled
# Async generators: async for, async comprehensions (list, set, dict, and an async genexp),
# await inside them, asend, athrow into a generator that handles it and one that does not,
# aclose running a finally that awaits, early exit from async for, and async iterators
# written as classes (__aiter__/__anext__).
import asyncio


async def ticks(n, log=None):
    try:
        for i in range(n):
            await asyncio.sleep(0)
            yield i
    finally:
        if log is not None:
            log.append("ticks(%d) finally" % n)


async def doubled(source):
    async for x in source:
        yield x * 2


class Countdown:
    def __init__(self, n):
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.n <= 0:
            raise StopAsyncIteration
        await asyncio.sleep(0)
        self.n -= 1
        return self.n


async def square(x):
    await asyncio.sleep(0)
    return x * x


async def comprehensions():
    lst = [x async for x in ticks(5)]
    st = sorted({x % 3 async for x in ticks(7)})
    dct = {x: await square(x) async for x in ticks(4) if x != 2}
    awaited = [await square(x) for x in range(4)]
    gen = (x + 100 async for x in doubled(ticks(3)))
    from_gen = [y async for y in gen]
    nested = [[y async for y in ticks(x)] for x in range(3)]
    return lst, st, sorted(dct.items()), awaited, from_gen, nested


async def echo():
    received = []
    try:
        while True:
            value = yield len(received)
            received.append(value)
    except KeyError as e:
        received.append("caught " + str(e))
        yield received
    finally:
        await asyncio.sleep(0)
        received.append("echo finally")


async def protocol():
    out = []
    g = echo()
    out.append(await g.asend(None))
    out.append(await g.asend("a"))
    out.append(await g.asend("b"))
    out.append(list(await g.athrow(KeyError("k"))))
    try:
        await g.asend("late")
    except StopAsyncIteration:
        out.append("exhausted")

    log = []
    g = ticks(10, log)
    out.append(await g.__anext__())
    out.append(await g.__anext__())
    await g.aclose()
    out.append(log[:])
    try:
        await g.__anext__()
    except StopAsyncIteration:
        out.append("closed")

    g = ticks(3, log)
    await g.__anext__()
    try:
        await g.athrow(ValueError("unhandled"))
    except ValueError as e:
        out.append("propagated " + str(e))
    out.append(log[-1])
    return out


async def early_exit():
    log = []
    g = ticks(100, log)
    seen = []
    async for x in g:
        if x == 3:
            break
        seen.append(x)
    await g.aclose()  # explicit: the finally runs now, not when the loop is collected
    total = 0
    async for x in Countdown(4):
        total += x
    return seen, log, total


async def pipeline():
    async def source():
        for word in ("alpha", "beta", "gamma"):
            await asyncio.sleep(0)
            yield word

    async def upper(it):
        async for w in it:
            yield w.upper()

    out = []
    async for w in upper(source()):
        out.append(w)
    return out


async def main_async():
    print("comprehensions", await comprehensions())
    print("protocol", await protocol())
    print("early exit", await early_exit())
    print("pipeline", await pipeline())
    print("gathered", await asyncio.gather(*[square(i) for i in range(5)]))


def main():
    asyncio.run(main_async())


main()
