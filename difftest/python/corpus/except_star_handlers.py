# pydiff: all-compiled
# pydiff: min-handlers_interpreted=2
# pydiff: max-handlers_interpreted=2
# except* (PEP 654): its handlers use CHECK_EG_MATCH and PREP_RERAISE_STAR, which the builder
# lacks, so the two functions with one are compiled with their handlers left to the
# interpreter, and stats() counts exactly those two (`handlers_interpreted`). The others,
# with plain try/except and an async for, keep compiled handlers. Each result is printed,
# so the interpreter's handling of the groups is compared with stock's.


def split_errors(items):
    caught = []
    try:
        errors = [ValueError(x) if x % 2 else TypeError(x) for x in items]
        if errors:
            raise ExceptionGroup("batch", errors)
    except* ValueError as group:
        caught.append(("value", sorted(e.args[0] for e in group.exceptions)))
    except* TypeError as group:
        caught.append(("type", sorted(e.args[0] for e in group.exceptions)))
    return caught


def reraised_rest(items):
    try:
        try:
            raise ExceptionGroup("mixed", [KeyError(i) if i % 3 else OSError(i) for i in items])
        except* KeyError:
            pass
    except ExceptionGroup as rest:
        return sorted(e.args[0] for e in rest.exceptions)
    return None


def plain(items):
    total = 0
    for x in items:
        try:
            total += 10 // x
        except ZeroDivisionError:
            total -= 1
    return total


async def drain(source):
    got = []
    async for x in source:
        got.append(x)
    return got


async def numbers(n):
    for i in range(n):
        yield i


def run_drain(n):
    coro = drain(numbers(n))
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value


for n in range(1, 8):
    print(split_errors(range(n)), reraised_rest(range(n)), plain(range(n)), run_drain(n))
