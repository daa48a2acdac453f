# pydiff: all-compiled
# Coroutines: async def driven by asyncio.run, chains of await, asyncio.gather (results in
# argument order; the interleaving is fixed by asyncio's FIFO ready queue), exceptions
# raised through awaits and caught further up, gather(return_exceptions=True), tasks,
# cancellation, wait_for timeouts on an event that never fires, and a coroutine driven by
# hand with send()/throw() through a custom awaitable.
import asyncio


async def leaf(x):
    await asyncio.sleep(0)
    return x * 2


async def middle(x):
    a = await leaf(x)
    b = await leaf(a)
    return a + b


async def top(xs):
    total = 0
    for x in xs:
        total += await middle(x)
    return total


class Boom(Exception):
    pass


async def fails(depth):
    if depth == 0:
        await asyncio.sleep(0)
        raise Boom("at the bottom")
    return await fails(depth - 1)


async def catches():
    try:
        await fails(3)
    except Boom as e:
        return "caught " + str(e)


async def worker(name, steps, log):
    for i in range(steps):
        log.append("%s%d" % (name, i))
        await asyncio.sleep(0)
    return name * steps


async def gathering():
    log = []
    results = await asyncio.gather(worker("a", 3, log), worker("b", 2, log),
                                   worker("c", 1, log))
    mixed = await asyncio.gather(leaf(1), fails(1), leaf(3), return_exceptions=True)
    described = [type(r).__name__ + ":" + str(r) for r in mixed]
    try:
        await asyncio.gather(leaf(5), fails(0))
    except Boom as e:
        described.append("gather raised " + str(e))
    return results, log, described


async def sleeper(log):
    try:
        await asyncio.Event().wait()  # never set
    except asyncio.CancelledError:
        log.append("cancelled")
        raise
    finally:
        log.append("sleeper finally")


async def tasks_and_cancel():
    log = []
    t = asyncio.create_task(sleeper(log))
    await asyncio.sleep(0)
    t.cancel()
    try:
        await t
    except asyncio.CancelledError:
        log.append("awaiter saw cancel")
    t2 = asyncio.create_task(middle(7))
    log.append(await t2)
    log.append(t2.done())
    try:
        await asyncio.wait_for(asyncio.Event().wait(), timeout=0.001)
    except asyncio.TimeoutError:
        log.append("timed out")
    return log


async def async_with_finally():
    out = []
    for fail in (False, True):
        try:
            try:
                out.append(await leaf(10))
                if fail:
                    raise Boom("in try")
            finally:
                out.append("finally %s" % fail)
                await asyncio.sleep(0)
        except Boom as e:
            out.append("outer " + str(e))
    return out


class Ticket:
    """An awaitable that suspends once, yielding its label to whoever drives the coroutine."""

    def __init__(self, label):
        self.label = label

    def __await__(self):
        reply = yield self.label
        return (self.label, reply)


async def by_hand():
    first = await Ticket("t1")
    try:
        second = await Ticket("t2")
    except KeyError as e:
        second = ("thrown", str(e))
    return first, second


def drive_by_hand():
    coro = by_hand()
    out = [coro.send(None)]
    out.append(coro.send("reply1"))
    try:
        coro.throw(KeyError("k"))
    except StopIteration as e:
        out.append(e.value)
    unawaited = by_hand()
    unawaited.close()  # closed before it started: no "never awaited" warning
    return out


async def main_async():
    print("chain", await top([1, 2, 3]))
    print("caught", await catches())
    print("gather", await gathering())
    print("tasks", await tasks_and_cancel())
    print("finally", await async_with_finally())
    try:
        await fails(2)
    except Boom as e:
        print("direct", repr(e))
    return "done"


def main():
    print("run", asyncio.run(main_async()))
    print("by hand", drive_by_hand())
    print("leaf again", asyncio.run(leaf(21)))


main()
