# pydiff: all-compiled
# pydiff: jit-args=--jitlist=__main__:*
# pydiff: max-deopts=12
# pydiff: max-handlers_interpreted=0
# The end of an `async for` loop in compiled code. Its StopAsyncIteration is caught by the
# loop's own handler (END_ASYNC_FOR) without leaving for the interpreter: 300 loops end here,
# and the deopt budget allows only the 12 exits below, which raise a ValueError through the
# handler (END_ASYNC_FOR leaves those to the interpreter, as does the generator's raise). Also:
# a loop with `else`, a `break`, one inside try/finally, one nested in another, an empty
# source, an async comprehension, and a loop whose body awaits.
import asyncio


async def numbers(n):
    for i in range(n):
        if i % 4 == 3:
            await asyncio.sleep(0)
        yield i


async def failing(n):
    for i in range(n):
        yield i
    raise ValueError("source failed after %d" % n)


async def total(n):
    t = 0
    async for x in numbers(n):
        t += x
    return t


async def with_else(n, stop_at):
    seen = []
    async for x in numbers(n):
        if x == stop_at:
            break
        seen.append(x)
    else:
        seen.append("exhausted")
    return seen


async def in_finally(n, log):
    try:
        async for x in numbers(n):
            log.append(x)
    finally:
        log.append("finally")
    return len(log)


async def nested(n):
    pairs = 0
    async for a in numbers(n):
        async for b in numbers(a):
            pairs += a * b
    return pairs


async def comprehension(n):
    return [x * x async for x in numbers(n) if x % 2 == 0]


async def awaiting_body(n):
    out = []
    async for x in numbers(n):
        await asyncio.sleep(0)
        out.append(x + 1)
    return out


async def guarded(n):
    got = []
    try:
        async for x in failing(n):
            got.append(x)
    except ValueError as e:
        return got, str(e)
    return got, None


async def main():
    results = []
    for i in range(60):
        results.append(await total(i % 7))
        results.append(await with_else(i % 5, 3))
        results.append(await in_finally(i % 3, []))
        results.append(await nested(i % 4))
        results.append(await comprehension(i % 6))
    for i in range(6):
        results.append(await guarded(i))
        results.append(await awaiting_body(i))
    print(len(results), results[-20:])
    print(sum(r for r in results if isinstance(r, int)))


asyncio.run(main())
