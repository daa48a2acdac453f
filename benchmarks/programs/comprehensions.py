"""Comprehensions: list, set and dict comprehensions, nested and filtered, and
generator expressions fed to builtins, over a grid of integers. Written for a64jit's
benchmark set. Checked against closed forms (sums of squares, counts of lattice points)
computed without comprehensions.

Usage: comprehensions.py [N] [ROUNDS] (bench.py).
"""
import bench


def workload(n):
    squares = [i * i for i in range(n)]
    evens = [x for x in squares if x % 2 == 0]
    residues = {x % 97 for x in squares}
    index = {i: i * 3 for i in range(n) if i % 5 == 0}
    side = int(n ** 0.5)
    inside = sum(1 for x in range(-side, side + 1) for y in range(-side, side + 1)
                 if x * x + y * y <= side * side)
    pairs = [(a, b) for a in range(40) for b in range(a, 40) if (a + b) % 7 == 0]
    table = {k: [v for v in range(k) if v % 3 == 1] for k in range(60)}
    return (sum(evens), len(residues), sum(index.values()), inside, len(pairs),
            sum(len(v) for v in table.values()))


def expected(n):
    total_evens = 0
    for i in range(0, n, 2):
        total_evens += i * i
    residues = set()
    for i in range(n):
        residues.add(i * i % 97)
    side = int(n ** 0.5)
    inside = 0
    for x in range(-side, side + 1):
        for y in range(-side, side + 1):
            if x * x + y * y <= side * side:
                inside += 1
    pairs = 0
    for a in range(40):
        for b in range(a, 40):
            if (a + b) % 7 == 0:
                pairs += 1
    listed = 0
    for k in range(60):
        listed += (k + 1) // 3
    return (total_evens, len(residues), 3 * sum(range(0, n, 5)), inside, pairs, listed)


def check(n, result):
    want = expected(n)
    return None if result == want else f"got {result}, expected {want}"


if __name__ == "__main__":
    bench.main("comprehensions", workload, check, n=40000, rounds=7)
