# pydiff: threshold=100000
# pydiff: min-early_entries=10
# pydiff: min-early_entries_refused=2
# Frames that were running when the JIT's hook went in, and that go on in compiled code at a
# loop header (jit/python/early_frames.h). Each function here starts with the JIT off, so the
# interpreter runs it inside its caller's own loop; part-way through a loop it switches the
# JIT on and asks for a look. At its next loop header the rest of the call runs compiled, and
# the interpreter then leaves the frame with that result (or exception) as stock would.
# The shapes: `while` with an empty stack at the header and its last local unbound there,
# `for` over a range and over a generator (one and two iterators on the stack), an exception
# escaping after the entry (traceback lines compared), an exception caught inside the loop,
# a frame object kept past the return (its locals as the return left them), closures, and a
# result returned from deep in nested loops. Refused, and still right: a loop inside `with`
# (the header lies in a `try`), and a recursive function (another frame of the same code).
# Not taken for an early frame: a later call of the same function at the same place (its
# frame's memory), running compiled when it asks for a look.
# Stock Python prints the same (there the asks do nothing).
import sys
import traceback

try:
    import a64jit
except ImportError:  # plain python3.11, which the corpus test runs too
    a64jit = None
if a64jit is not None and not a64jit.is_enabled():  # the reference run, --no-jit
    a64jit = None


def enter():
    """Switches the JIT on (the caller becomes an early frame) and asks for a look."""
    if a64jit is not None:
        a64jit.enable(threshold=100000)
        a64jit._early_look_asker.now = True


def switch_on():
    """Switches the JIT on without asking for a look."""
    if a64jit is not None:
        a64jit.enable(threshold=100000)


def early(fn, *args):
    """Runs fn(*args) with the JIT off at its start."""
    if a64jit is not None:
        a64jit.disable()
    try:
        return fn(*args)
    finally:
        if a64jit is not None:
            a64jit.enable(threshold=100000)


def while_condition(n):
    total = 0
    i = 0
    while i < n:
        total += i * 3
        if i == 5:
            enter()
        i += 1
    unbound_at_header = total + 1
    return unbound_at_header, i


def for_range(n):
    squares = []
    for i in range(n):
        if i == 3:
            enter()
        squares.append(i * i)
    return sum(squares), len(squares)


def numbers(n):
    for i in range(n):
        yield i * 2


def nested_generator(n):
    pairs = 0
    for a in numbers(n):
        for b in range(a):
            if a == 4 and b == 1:
                enter()
            pairs += b % 3
    return pairs


def deep_return(n):
    for i in range(n):
        for j in range(n):
            if i == 1 and j == 1:
                enter()
            if i * j == 12:
                return "found", i, j
    return None


def escapes(n):
    i = 0
    while True:
        if i == 2:
            enter()
        if i == n:
            raise ValueError("stopped at %d" % i)
        i += 1


def caught_inside(values):
    out = []
    for v in values:
        if v == 1:
            enter()
        try:
            out.append(12 // v)
        except ZeroDivisionError as e:
            out.append(type(e).__name__)
    return out


def keeps_frame(n):
    kept = None
    acc = 0
    for i in range(n):
        if i == 2:
            enter()
        acc += i
        kept = sys._getframe()
    return kept


def closures(n, scale=2):
    fns = []
    for i in range(n):
        if i == 1:
            enter()
        fns.append(lambda x, i=i: (x + i) * scale)
    return [f(1) for f in fns]


def strings(words):
    text = ""
    index = 0
    while index < len(words):
        if index == 1:
            enter()
        text += words[index].upper()
        index += 1
    return text


class Resource:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.log.append("exit")
        return False


def inside_with(n):
    log = []
    with Resource(log) as res:
        for i in range(n):
            if i == 2:
                enter()
            res.log.append(i)
    return log


def recursive(depth):
    total = 0
    for i in range(4):
        if depth == 0 and i == 1:
            enter()
        if depth > 0 and i == 1:
            total += recursive(depth - 1)
        total += depth * 10 + i
    return total


def again(n, how):
    total = 0
    for i in range(n):
        if i == 2 and how == "switch on":
            switch_on()
        if i == 2 and how == "compile" and a64jit is not None:
            a64jit._enter_loops()
        if i == 5 and how == "ask" and a64jit is not None:
            a64jit._early_look_asker.now = True
        total += i * i
    return total


def called_again():
    # The first call is an early frame that returns before any look; the second is compiled
    # with loop entries through the hook; the third runs compiled in the first one's memory.
    return again(5, "switch on"), again(30, "compile"), again(40, "ask")


print(early(while_condition, 40))
print(early(for_range, 30))
print(early(nested_generator, 8))
print(early(deep_return, 9))
try:
    early(escapes, 7)
except ValueError as e:
    lines = traceback.format_exception(e)
    print(type(e).__name__, e, [line.split(",")[1].strip() for line in lines if "line" in line])
print(early(caught_inside, [3, 1, 0, 4, 0, 6]))
frame = early(keeps_frame, 6)
print(frame.f_lineno - frame.f_code.co_firstlineno,
      sorted((k, v) for k, v in frame.f_locals.items() if k != "kept"))
print(early(closures, 5))
print(early(strings, ["a", "bc", "def"]))
print(early(inside_with, 5))
print(early(recursive, 2))
print(early(called_again))
