"""Async: an async generator producing batches, a stage transforming them with awaits in
between, and a consumer gathering several pipelines, on one event loop."""
import asyncio

import harness


async def produce(start, count):
    for i in range(start, start + count):
        if i % 8 == 0:
            await asyncio.sleep(0)
        yield [i, i * 2, i * 3]


async def stage(source):
    async for batch in source:
        await asyncio.sleep(0) if batch[0] % 16 == 0 else None
        yield sum(batch) % 97


async def pipeline(start):
    return [v async for v in stage(produce(start, 120))]


async def everything():
    parts = await asyncio.gather(*(pipeline(k * 1000) for k in range(6)))
    return sum(map(sum, parts)), sum(map(len, parts))


LOOP = asyncio.new_event_loop()


def workload():
    return LOOP.run_until_complete(everything())


def check(result):
    return None if result == (34639, 720) else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("async_pipeline", workload, check)
