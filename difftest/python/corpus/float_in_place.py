# pydiff: all-compiled
# `s = s op x` and `d = a op b` over floats may write the result into the local's old float
# when only the local holds it (lower.float-store-in-place), also when the operands are
# released between the operation and the store (`s += math.sqrt(x)` releases the call's
# result there). Everything that still sees the old value must keep it: an alias, a list or
# dict holding it, a tuple built before the store, a locals() snapshot, a generator's caller;
# float subclasses and non-floats in the local get new objects. An operand that is the
# local's own value (`s = x + s`) is the old float, known to be one. Ints get the same treatment
# with operands released between (lower.int-store-in-place). Where the operation has no int
# form, its store is fused with it: the generic path (any other case) stores itself, in
# stock's order.
import math
import sys


class Real(float):
    pass


def accumulate(x, n):
    s = 0.0
    for _ in range(n):
        s += math.sqrt(x)
    return s


def kept_values(x):
    kept, keys, pairs = [], {}, []
    s = 1.5
    for i in range(5):
        t = s
        kept.append(s)
        keys[s] = i
        s = s * x + 0.25
        pairs.append((t, s))
        kept.append(t)
    return s, kept, sorted(keys.items()), pairs


def self_ops(x):
    out = []
    for _ in range(4):
        x = x + x
        out.append(x)
        x = x * x / 3.0
        out.append(x)
    return out


def right_operand(a):
    s = 0.0
    out = []
    for _ in range(3):
        x = a * 2.0  # only x holds it
        s = x + s  # the local's own old float is the right operand: only that one is reused
        out.append((x, s))
    return out


def snapshot(x):
    seen = []
    s = x + 1.0
    for _ in range(3):
        view = locals()  # the snapshot holds the old float: no write in place
        s = s + 2.5
        seen.append((view["s"], s))
    return seen


def not_a_float_first(x):
    out = []
    d = "text"
    for _ in range(2):
        d = x - 0.5  # the local held a str, then a float of its own
        out.append(d)
    d = Real(4.0)
    for _ in range(2):
        d = d * 2.0
        out.append((type(d).__name__, d))
    d = Real(4.0)
    d = x * 2.0  # the local's old value is a float subclass that only it holds
    out.append((type(d).__name__, d))
    d = [x]
    d = x / 4.0
    out.append(d)
    return out


def deltas(points):
    dx = dy = 0.0
    total = 0.0
    for (x1, y1), (x2, y2) in zip(points, points[1:]):
        dx = x2 - x1
        dy = y2 - y1
        d2 = dx * dx + dy * dy
        total = total + math.sqrt(d2)
    return dx, dy, total


def producer(n):
    s = 0.0
    for i in range(n):
        s = s + 0.5
        yield s  # the caller keeps each value


class Loud:
    def __init__(self, log):
        self.log = log

    def __radd__(self, other):
        return other + 100.0

    def __del__(self):
        self.log.append(sys._getframe(1).f_locals.get("s"))


def generic_release(log):
    s = 1.0
    for _ in range(2):
        s = s + Loud(log)  # the operand's release runs Python code: no write in place
    return s


def shared_midway(x):
    # Where BINARY_OP has no int form the store is the operation's own (a64jit fuses them):
    # a local another holder shares, a None operand, a zero divisor, an unbound local and an
    # old value whose release runs Python code all take the generic path, which stores.
    kept = []
    s = 0.5
    for i in range(6):
        s += x * 1.5
        if i % 2 == 0:
            kept.append(s)  # the next += cannot write in place
    return s, kept


def generic_errors(items):
    s = 1.0
    out = []
    for item in items:
        try:
            s += item
        except TypeError as e:
            out.append(("TypeError", str(e), s))
        try:
            s /= item
        except (TypeError, ZeroDivisionError) as e:
            out.append((type(e).__name__, s))
        out.append(s)
    return out


def maybe_unbound(a, flag):
    if flag:
        s = "was bound"
    s = a * 2.0
    return s


class Noisy:
    def __init__(self, log):
        self.log = log

    def __del__(self):
        frame = sys._getframe(1)
        self.log.append((frame.f_locals.get("s"), frame.f_lineno - frame.f_code.co_firstlineno))


def old_value_released(x, log):
    s = Noisy(log)
    s = x * 3.0  # the old value's __del__ sees the new one stored, on the store's line
    return s


class LineOfCaller:
    def __init__(self, log):
        self.log = log

    def __radd__(self, other):
        frame = sys._getframe(1)
        self.log.append(frame.f_lineno - frame.f_code.co_firstlineno)
        return other + 1.0


def operation_sees_its_line(items, log):
    s = 0.0
    for item in items:
        n = max(len(log), 0)  # a call on the line before: its line must not stay the frame's
        s += item  # the operation's own line, from the generic path's helper
    return s, n


def ints_released_between(words):
    n = 1000
    for w in words:
        n = n + len(w) * 1000
        n = n - abs(-len(w))
    return n


def main():
    print(accumulate(2.0, 50))
    print(kept_values(1.25))
    print(self_ops(1.75))
    print(right_operand(1.25))
    print(snapshot(0.5))
    print(not_a_float_first(3.0))
    print(deltas([(0.0, 0.0), (3.0, 4.0), (6.0, 8.0), (6.5, 8.5)]))
    print(list(producer(4)))
    log = []
    print(generic_release(log), log)
    print(ints_released_between(["ab", "cde", "f"]))
    print(shared_midway(2.0))
    print(generic_errors([2.0, None, 0.0, 4.0, 0.5]))
    print(maybe_unbound(1.5, True), maybe_unbound(2.5, False))
    log = []
    print(old_value_released(1.5, log), log)
    log = []
    print(operation_sees_its_line([0.5, LineOfCaller(log), 2.0, LineOfCaller(log)], log), log)
    marker = 98765.4321
    before = sys.getrefcount(marker)
    accumulate(marker, 10)
    kept_values(marker)
    print("marker references:", sys.getrefcount(marker) - before)


main()
