# pydiff: all-compiled
# Generators: send, throw, close, yield from with return values, generator expressions,
# StopIteration values, infinite generators cut by zip, yield inside try/finally, generators
# that outlive the frame that made them, and generators finalised by refcounting and by the
# cycle collector (their `finally` blocks print, so the order of finalisation is compared).
import gc
import itertools


def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return "liftoff"


def averager():
    total = 0
    count = 0
    avg = None
    while True:
        value = yield avg
        if value is None:
            break
        total += value
        count += 1
        avg = total / count
    return (count, avg)


def delegator(results):
    # yield from forwards send() to the inner generator and receives its return value.
    while True:
        result = yield from averager()
        results.append(result)
        if result[0] == 0:
            return len(results)


def drive_delegator():
    results = []
    g = delegator(results)
    next(g)
    for v in (10, 20, 30):
        g.send(v)
    g.send(None)
    for v in (1, 2):
        g.send(v)
    g.send(None)
    try:
        g.send(None)
    except StopIteration as e:
        stop = e.value
    return results, stop


def stop_values():
    out = []
    g = countdown(2)
    out.append(list(g))
    g = countdown(1)
    out.append(next(g))
    try:
        next(g)
    except StopIteration as e:
        out.append(("stop", e.value))
    # Exhausted: a further next() raises StopIteration with no value.
    try:
        next(g)
    except StopIteration as e:
        out.append(("again", e.value))
    out.append(next(countdown(0), "default"))
    return out


class Oops(Exception):
    pass


def resilient():
    n = 0
    while True:
        try:
            yield n
            n += 1
        except Oops as e:
            print("  resilient caught", e)
            n = -n
        except GeneratorExit:
            print("  resilient closing at", n)
            raise


def throw_and_close():
    g = resilient()
    out = [next(g), next(g), next(g)]
    out.append(g.throw(Oops("first")))
    out.append(next(g))
    g.close()
    g.close()  # closing twice is harmless
    try:
        next(g)
    except StopIteration:
        out.append("closed")
    # throw() into a just-started generator raises at the first line, uncaught.
    g2 = resilient()
    try:
        g2.throw(Oops("early"))
    except Oops as e:
        out.append("early: " + str(e))
    # throw() of an exception the generator does not handle propagates out.
    g3 = resilient()
    next(g3)
    try:
        g3.throw(KeyError("k"))
    except KeyError as e:
        out.append("propagated: " + repr(e))
    return out


def ignores_close():
    try:
        yield 1
    finally:
        yield 2  # yielding in response to close() is a RuntimeError


def bad_close():
    g = ignores_close()
    next(g)
    try:
        g.close()
    except RuntimeError as e:
        return str(e)


def guarded(label, items):
    print("  %s: start" % label)
    try:
        for x in items:
            yield x
    finally:
        print("  %s: finally" % label)


def finalisation():
    g = guarded("refcount", [1, 2, 3])
    first = next(g)
    print("  dropping the only reference")
    del g  # finalised right here: its finally prints before the next line
    print("  dropped", first)
    # A generator in a reference cycle waits for the cycle collector.
    holder = []
    g = guarded("cycle", "abc")
    holder.append(g)
    box = {"g": g, "holder": holder}
    holder.append(box)
    next(g)
    del g, box, holder
    print("  before collect")
    gc.collect()
    print("  after collect")
    # Exhausted generators run their finally on the last next().
    print("  consumed", list(guarded("exhausted", (7, 8))))


def naturals():
    n = 0
    while True:
        yield n
        n += 1


def squares_of(it):
    for n in it:
        yield n * n


def infinite_cut():
    pairs = list(zip("abcd", naturals()))
    first_five = list(itertools.islice(squares_of(naturals()), 5))
    evens = [n for n, _ in zip(naturals(), range(10)) if n % 2 == 0]
    return pairs, first_five, evens


def make_gen(base):
    # The generator keeps reading its arguments and locals after make_gen returned.
    offset = base * 100
    return (offset + i for i in range(3)), countdown(base)


def outliving():
    a, b = make_gen(2)
    return list(a), list(b)


def chain(*iterables):
    for it in iterables:
        r = yield from it
        if r is not None:
            yield ("returned", r)


def tree_walk(node):
    value, children = node
    yield value
    for child in children:
        yield from tree_walk(child)


def genexps(xs):
    total = sum(x * x for x in xs)
    flat = list(y for x in xs for y in range(x) if y % 2)
    nested = list((x, list(c for c in "ab")) for x in xs[:2])
    it = (x + 1 for x in xs)
    head = [next(it), next(it)]
    rest = list(it)
    return total, flat, nested, head, rest, any(x > 3 for x in xs), all(x > 0 for x in xs)


def try_finally_yield(fail):
    log = []
    try:
        log.append("body")
        yield "first"
        if fail:
            raise ValueError("inside")
        yield "second"
    except ValueError as e:
        log.append("except " + str(e))
        yield "handled"
    finally:
        log.append("finally")
        yield "from finally"
    yield log


def send_protocol():
    g = averager()
    out = [g.send(None)]
    for v in (4, 8, 15, 16, 23, 42):
        out.append(g.send(v))
    try:
        g.send(None)
    except StopIteration as e:
        out.append(e.value)
    g = averager()
    try:
        g.send(1)  # a just-started generator only accepts None
    except TypeError as e:
        out.append(str(e))
    return out


def running_state():
    def self_ref():
        yield g.gi_running
    g = self_ref()
    before = g.gi_running
    inside = next(g)
    return before, inside, g.gi_frame is not None


def main():
    print("countdown", list(countdown(5)))
    print("delegator", drive_delegator())
    print("stop values", stop_values())
    print("throw and close", throw_and_close())
    print("bad close", bad_close())
    print("finalisation:")
    finalisation()
    print("infinite", infinite_cut())
    print("outliving", outliving())
    print("chain", list(chain([1, 2], countdown(2), "xy")))
    tree = (1, [(2, [(4, [])]), (3, [(5, []), (6, [])])])
    print("tree", list(tree_walk(tree)))
    print("genexps", genexps([1, 2, 3, 4, 5]))
    print("try/finally ok", list(try_finally_yield(False)))
    print("try/finally fail", list(try_finally_yield(True)))
    print("send", send_protocol())
    print("running", running_state())


main()
