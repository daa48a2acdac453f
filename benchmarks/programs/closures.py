"""Closures and decorators: counters kept in cells (`nonlocal`), a memoising decorator,
a timing-free wrapper that counts calls, function composition and partial application
written as closures. Written for a64jit's benchmark set. Checked against closed forms:
Fibonacci by Binet-free recurrence, triangular numbers, and the call counts the
decorators must have seen.

Usage: closures.py [N] [ROUNDS] (bench.py).
"""
import bench


def counted(fn):
    calls = 0

    def wrapper(*args):
        nonlocal calls
        calls += 1
        return fn(*args)

    wrapper.calls = lambda: calls
    return wrapper


def memoised(fn):
    cache = {}

    def wrapper(n):
        if n not in cache:
            cache[n] = fn(n)
        return cache[n]

    return wrapper


def compose(*fns):
    def composed(x):
        for f in reversed(fns):
            x = f(x)
        return x

    return composed


def adder(k):
    return lambda x: x + k


def make_accumulator():
    total = 0

    def add(x):
        nonlocal total
        total += x
        return total

    return add


def workload(n):
    @memoised
    def fib(k):
        return k if k < 2 else fib(k - 1) + fib(k - 2)

    square = counted(lambda x: x * x)
    pipeline = compose(adder(1), square, adder(-1))  # (x - 1)^2 + 1
    acc = make_accumulator()
    last = 0
    for i in range(n):
        last = acc(pipeline(i % 50))
    fibs = [fib(k % 90) for k in range(n // 10)]
    return last, square.calls(), fibs[89], sum(fibs) % 1000003


def check(n, result):
    last, calls, fib89, _ = result
    want_last = sum((i % 50 - 1) ** 2 + 1 for i in range(n))
    if last != want_last or calls != n or fib89 != 1779979416004714189:
        return f"got {result[:3]}, expected ({want_last}, {n}, 1779979416004714189)"
    return None


if __name__ == "__main__":
    bench.main("closures", workload, check, n=50000, rounds=7)
