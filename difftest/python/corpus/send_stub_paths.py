# pydiff: all-compiled
# pydiff: min-stub_resumes=3000
# Compiled code's SEND through the send stub (jit/lower/send_stub.h), each of its ways out.
# The stub itself finishes a resume whose generator yielded and one whose generator or
# coroutine returned with nothing left to clear; it hands to a64_send_end a return with a
# frame object or an f_locals dict, a raise (PEP 479's RuntimeError included), and a run that
# left compiled code for the interpreter (a deopt); and to a64_send, untouched, a receiver that
# is not a compiled generator or coroutine ready to run: finished, already running, an
# iterator of another type. The exception a generator sees as handled is the one its caller
# handles, and deep chains of `yield from` end in RecursionError, as in stock Python.
import sys


class Node:
    def __init__(self, left, value, right):
        self.left = left
        self.value = value
        self.right = right

    def __iter__(self):
        if self.left is not None:
            yield from self.left
        yield self.value
        if self.right is not None:
            yield from self.right


def build(lo, hi):
    if lo >= hi:
        return None
    mid = (lo + hi) // 2
    return Node(build(lo, mid), mid, build(mid + 1, hi))


def accumulate(n):
    total = 0
    for _ in range(n):
        got = yield total
        total += got
    return total


def forwards(n):
    result = yield from accumulate(n)  # each value sent reaches accumulate through the stub
    return ("forwarded", result)


def drive(g, values):
    out = [g.send(None)]
    try:
        for v in values:
            out.append(g.send(v))
    except StopIteration as e:
        out.append(("returned", e.value))
    return out


async def fib(n):
    if n <= 1:
        return n
    return await fib(n - 1) + await fib(n - 2)


def run_coroutine(coro):
    try:
        while True:
            coro.send(None)
    except StopIteration as e:
        return e.value


class Pause:
    """An awaitable that suspends once: its __await__ is a generator."""

    def __await__(self):
        got = yield "paused"
        return got


async def waits(depth):
    if depth == 0:
        return await Pause()
    return 1 + await waits(depth - 1)


class Noisy:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("released", self.name)


def with_frame_object():
    kept = Noisy("a local the frame object keeps")
    yield "with_frame_object"
    # A frame object outlives the frame: the return goes to a64_send_end, and the frame
    # object takes the frame's locals over.
    return sys._getframe()


def frame_after_return():
    frame = yield from with_frame_object()
    yield (frame.f_code.co_name, frame.f_lineno, sorted(frame.f_locals))
    yield frame.f_locals["kept"].name


def holds_locals():
    kept = Noisy("a returning generator's local")
    yield kept.name
    return "returned"


def with_locals(x):
    yield sorted(locals())  # an f_locals dict
    return "had locals"


def raises_value_error():
    yield "before"
    raise ValueError("inner failed")


def raises_stop_iteration():
    yield "before"
    raise StopIteration("leaks")


def deopts():
    # DELETE_GLOBAL of a missing name resumes the interpreter (frames.cc), which raises
    # NameError; the rest of the run is the interpreter's.
    global missing_global_name
    try:
        del missing_global_name  # noqa: F821
    except NameError as e:
        yield "deopted: " + str(e)
    return "finished by the interpreter"


def delegate(inner):
    try:
        result = yield from inner
    except Exception as e:
        yield ("caught", type(e).__name__, str(e), type(e.__cause__).__name__)
        return "after the error"
    yield ("result", result)
    return "done"


def sees_handled():
    yield repr(sys.exc_info()[1])


def handles_then_delegates():
    try:
        raise KeyError("outer")
    except KeyError:
        yield from sees_handled()  # the inner generator sees the caller's handled exception
    yield from sees_handled()  # and none once the handler is left


def exhausted():
    g = accumulate(0)
    first = yield from g
    second = yield from g  # finished: a64_send gives None at once
    yield (first, second)


def sends_to_itself():
    yield from me


def nest(depth):
    if depth == 0:
        yield "bottom"
        return 0
    return 1 + (yield from nest(depth - 1))


def main():
    tree = build(0, 300)
    for _ in range(8):
        print(sum(tree), len(list(tree)))
    print(drive(forwards(5), [1, 2, 3, 4, 5]))
    print(drive(forwards(3), [10, 20]))
    for n in (0, 1, 2, 15):
        print("fib", n, run_coroutine(fib(n)))
    c = waits(6)
    print(c.send(None), end=" ")
    try:
        c.send(41)
    except StopIteration as e:
        print("waits ->", e.value)
    print(list(frame_after_return()))
    print(list(delegate(holds_locals())))
    for make in (lambda: with_locals(7), raises_value_error,
                 raises_stop_iteration, deopts):
        print(list(delegate(make())))
    print(list(handles_then_delegates()))
    print(list(exhausted()))
    global me
    me = sends_to_itself()
    try:
        next(me)
    except ValueError as e:
        print("ValueError:", e)
    print(list(delegate(iter([1, 2, 3]))))  # a list iterator: not the stub's
    print(list(nest(50)))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(300)
    try:
        list(nest(1000))
    except RecursionError:
        print("RecursionError")
    finally:
        sys.setrecursionlimit(limit)


main()
