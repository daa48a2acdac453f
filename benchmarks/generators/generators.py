"""A generator-heavy workload for A/B runs (stock interpreter against the JIT).

Written for a64jit: pipelines of generators (a producer, filters and maps written as
generator functions, `yield from` delegation, generator expressions consumed by builtins,
a send()-driven accumulator), the shapes that dominate generator-heavy Python. Each round
checks its result, so a wrong answer fails loudly instead of timing fast.

Prints `time=<ms per round>` (the median of the rounds) for benchmarks/ab/ab.py.
"""
import sys
import time


def numbers(n):
    i = 0
    while i < n:
        yield i
        i += 1


def only_odd(items):
    for x in items:
        if x & 1:
            yield x


def scaled(items, k):
    for x in items:
        yield x * k


def chunks(items, size):
    chunk = []
    for x in items:
        chunk.append(x)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def flatten(chunks_of):
    for chunk in chunks_of:
        yield from chunk


def tree(depth):
    """Values of a complete binary tree, in order, by recursive delegation."""
    if depth == 0:
        return
    yield from tree(depth - 1)
    yield depth
    yield from tree(depth - 1)


def running_mean():
    total = 0
    count = 0
    mean = None
    while True:
        value = yield mean
        total += value
        count += 1
        mean = total // count


def one_round(n):
    pipeline = sum(scaled(only_odd(numbers(n)), 3))
    regrouped = sum(flatten(chunks(numbers(n), 7)))
    squares = sum(x * x for x in range(n) if x % 3 == 0)
    depths = sum(tree(10))
    acc = running_mean()
    next(acc)
    mean = 0
    for x in numbers(n // 4):
        mean = acc.send(x)
    acc.close()
    return pipeline, regrouped, squares, depths, mean


def expected(n):
    odd = [x for x in range(n) if x & 1]
    m = n // 4
    # The running mean after 0..m-1 is sum // count.
    return (3 * sum(odd), n * (n - 1) // 2, sum(x * x for x in range(0, n, 3)),
            sum(d * 2 ** (10 - d) for d in range(1, 11)), (m * (m - 1) // 2) // m)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "-" else 20000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    want = expected(n)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        got = one_round(n)
        times.append((time.perf_counter() - start) * 1000.0)
        if got != want:
            print(f"generators: wrong result {got}, expected {want}", file=sys.stderr)
            sys.exit(1)
    times.sort()
    print(f"time={times[len(times) // 2]:.3f}")


if __name__ == "__main__":
    main()
