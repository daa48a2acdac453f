# pydiff: all-compiled
# One call site, many function objects with one code (the call stub's bb39-bb42,
# jit/lower/call_stub.cc): closures made again by each call of their maker, closures alive
# side by side and called in turn, and functions made from one code object with other
# globals. The site caches the first; every call must run with its own function's cells and
# globals, and a function with another code at the same site must still run its own.
import types

SCALE = 3


def apply_adder(f, x):
    return f(x)


def apply_counter(f, x):
    return f(x)


def apply_scaled(f, x):
    return f(x)


def make_adder(k):
    def adder(x):
        return x + k

    return adder


def make_counter(start):
    count = start

    def bump(x):
        nonlocal count
        count += x
        return count

    return bump


def scaled(x):
    return x * SCALE


def other_code(x):
    return -x


def main():
    out = []
    total = 0
    for i in range(300):
        total += apply_adder(make_adder(i), 1000)  # a new closure each time, one code
    out.append(total)
    out.append(apply_adder(other_code, 5))
    out.append(apply_adder(make_adder(7), 1))
    counters = [make_counter(100 * j) for j in range(4)]
    for r in range(50):
        for j, c in enumerate(counters):
            apply_counter(c, j + 1)
    out.append([apply_counter(c, 0) for c in counters])
    tens = types.FunctionType(scaled.__code__, {"SCALE": 10})
    sevens = types.FunctionType(scaled.__code__, {"SCALE": 7})
    out.append([apply_scaled(f, x) for x in range(3) for f in (scaled, tens, sevens)])
    print(out)


main()
