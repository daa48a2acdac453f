"""Deep recursion: a binary tree built and walked recursively (size, height, sum),
naive Fibonacci, the Ackermann function at small arguments, and a recursive flatten of
nested lists about 400 frames deep. Written for a64jit's benchmark set. Checked against
closed forms: a complete tree of depth d has 2**d - 1 nodes, A(2, n) = 2n + 3, and the
flattened list is range(n).

Usage: recursion.py [DEPTH] [ROUNDS] (bench.py).
"""
import bench


def build(depth, start=0):
    if depth == 0:
        return None
    return (start, build(depth - 1, 2 * start + 1), build(depth - 1, 2 * start + 2))


def size(t):
    return 0 if t is None else 1 + size(t[1]) + size(t[2])


def height(t):
    return 0 if t is None else 1 + max(height(t[1]), height(t[2]))


def total(t):
    return 0 if t is None else t[0] + total(t[1]) + total(t[2])


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


def nest(n, depth):
    items = list(range(n))
    for _ in range(depth):
        items = [items[:1], items[1:]] if len(items) > 1 else [items]
    return items


def flatten(x, out):
    if isinstance(x, list):
        for y in x:
            flatten(y, out)
    else:
        out.append(x)
    return out


def workload(depth):
    tree = build(depth)
    return (size(tree), height(tree), total(tree), fib(18), ackermann(2, 60),
            flatten(nest(500, 400), []))


def check(depth, result):
    nodes = 2 ** depth - 1
    want = (nodes, depth, nodes * (nodes - 1) // 2, 2584, 123, list(range(500)))
    return None if result == want else f"got {result[:5]}, expected {want[:5]}"


if __name__ == "__main__":
    bench.main("recursion", workload, check, n=15, rounds=7)
