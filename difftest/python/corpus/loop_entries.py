# pydiff: threshold=100000
# pydiff: min-loop_entries=13
# pydiff: min-loop_entry_compiles=14
# Frames that the interpreter runs through a loop and that go on in compiled code at a loop
# header (jit/python/loop_entry.h). Each function here is called once and asks for the entry
# itself, with a64jit._enter_loops(), part-way through a loop: at the next loop header the
# frame leaves the interpreter and its compiled code takes the locals and the stack from the
# frame. The shapes: `while` with a condition, `while True`, `for` with break and else, nested
# loops, a loop inside `with` (more on the stack), exceptions caught and escaping after the
# entry, a generator being iterated, closures, *args and **kwargs, an argument deleted before
# the loop, recursion, and frame introspection. Stock Python prints the same (there
# _enter_loops() is False).
import sys
import traceback

try:
    import a64jit
except ImportError:  # plain python3.11, which the corpus test runs too

    class a64jit:
        _enter_loops = staticmethod(lambda: False)


def enter():
    a64jit._enter_loops()


def while_condition(n):
    total = 0
    i = 0
    while i < n:
        total += i * 3
        if i == 5:
            enter()
        i += 1
    unbound_at_header = total  # the last local: still unbound at the loop's header
    return unbound_at_header


def while_true(n):
    seen = []
    k = 0
    while True:
        k += 1
        if k == 3:
            enter()
        if k % 4 == 0:
            seen.append(k)
        if k > n:
            break
    return seen


def for_break_else(items, stop):
    out = []
    for x in items:
        if x == 2:
            enter()
        if x == stop:
            out.append("stop")
            break
        out.append(x * x)
    else:
        out.append("else")
    return out


def nested(rows, cols):
    grid = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if r == 1 and c == 2:
                enter()
            row.append(r * cols + c)
        grid.append(sum(row))
    return grid


class Resource:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, *exc):
        self.log.append("exit %s" % (exc[0].__name__ if exc[0] else None))
        return False


def inside_with(n):
    log = []
    with Resource(log) as res:
        for i in range(n):
            if i == 2:
                enter()
            res.log.append(i)
    return log


def caught_in_loop(values):
    results = []
    for v in values:
        if v == 1:
            enter()
        try:
            results.append(10 // v)
        except ZeroDivisionError as e:
            results.append(str(e))
    return results


def escapes(n):
    i = 0
    while i < n:
        if i == 2:
            enter()
        if i == 6:
            raise ValueError("at %d" % i)
        i += 1
    return i


def numbers(n):
    for i in range(n):
        yield i * i


def over_generator(n):
    acc = []
    for sq in numbers(n):
        if sq == 4:
            enter()
        acc.append(sq)
    return acc


def closures(n, *args, **kwargs):
    fns = []
    scale = kwargs.get("scale", 1)
    for i in range(n):
        if i == 1:
            enter()
        fns.append(lambda x, i=i: (x + i) * scale)
    return [f(len(args)) for f in fns]


def deleted_argument(a, n):
    del a
    out = []
    for i in range(n):
        if i == 1:
            enter()
        try:
            out.append(a)
        except UnboundLocalError as e:
            out.append(type(e).__name__)
    return out


def recursive(depth, width):
    total = 0
    for i in range(width):
        if depth == 0 and i == 1:
            enter()
        if depth > 0 and i == 1:
            total += recursive(depth - 1, width)
        total += depth * 10 + i
    return total


def introspect(n):
    lines = []
    for i in range(n):
        if i == 1:
            enter()
        frame = sys._getframe()
        lines.append((frame.f_lineno - frame.f_code.co_firstlineno, sorted(frame.f_locals)))
    return lines


def sum_strings(words):
    text = ""
    index = 0
    while index < len(words):
        if index == 1:
            enter()
        text += words[index].upper()
        index += 1
    return text


async def in_coroutine(n):
    total = 0
    for i in range(n):
        if i == 1:
            enter()  # coroutines keep their own resume points: no loop entry
        total += i
    return total


def run_coroutine(coro):
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value


print(while_condition(20))
print(while_true(13))
print(for_break_else([0, 1, 2, 3, 4], 3))
print(for_break_else([0, 1, 2, 3, 4], 9))
print(nested(3, 4))
print(inside_with(5))
print(caught_in_loop([1, 2, 0, 5]))
try:
    escapes(10)
except ValueError:
    print(traceback.format_exc())
print(over_generator(6))
print(closures(4, "a", "b", scale=3))
print(deleted_argument(7, 3))
print(recursive(3, 3))
print(introspect(3))
print(sum_strings(["ab", "cd", "ef"]))
print(run_coroutine(in_coroutine(4)))  # compiled, without entries


def traced_after_entry(n):
    events = []

    def tracer(frame, event, arg):
        if frame.f_code.co_name == "traced_after_entry":
            events.append((event, frame.f_lineno - frame.f_code.co_firstlineno))
        return tracer

    total = 0
    for i in range(n):
        if i == 1:
            enter()
            # Before the next header: the traps go, and tracing sees no return of this frame.
            sys._getframe().f_trace = tracer
            sys.settrace(tracer)
        total += i
    sys.settrace(None)
    return total, events


print(traced_after_entry(3))
