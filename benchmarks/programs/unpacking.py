"""Tuple unpacking: gcd and extended gcd by simultaneous assignment, Fibonacci pairs,
rotations of 3-tuples, `enumerate`/`zip`/`dict.items` loops that unpack, and starred
unpacking. Written for a64jit's benchmark set. Checked by identities: Bezout's
a*x + b*y == gcd(a, b), gcd(F(n+1), F(n)) == 1, and sums that zip and enumerate must
agree on.

Usage: unpacking.py [N] [ROUNDS] (bench.py).
"""
import bench


def egcd(a, b):
    x0, y0, x1, y1 = 1, 0, 0, 1
    while b:
        q, a, b = a // b, b, a % b
        x0, x1 = x1, x0 - q * x1
        y0, y1 = y1, y0 - q * y1
    return a, x0, y0


def fib_pair(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a, b


def rotate(triples):
    out = []
    for a, b, c in triples:
        a, b, c = c, a, b
        out.append((a, b, c))
    return out


def workload(n):
    bezout_ok = 0
    for a in range(1, n):
        b = (a * 7919) % 10007 + 1
        g, x, y = egcd(a, b)
        if a * x + b * y == g:
            bezout_ok += 1
    f_n, f_n1 = fib_pair(300)
    coprime = egcd(f_n1, f_n)[0]
    triples = [(i, i + 1, i + 2) for i in range(n)]
    for _ in range(3):
        triples = rotate(triples)
    by_enum = sum(i * a for i, (a, _, _) in enumerate(triples))
    by_zip = sum(i * a for i, (a, _, _) in zip(range(n), triples))
    first, *middle, last = [t[0] for t in triples]
    pairs = dict((b, c) for _, b, c in triples)
    by_items = sum(k - v for k, v in pairs.items())
    return bezout_ok, coprime, by_enum == by_zip, first, last, len(middle), by_items


def check(n, result):
    want = (n - 1, 1, True, 0, n - 1, n - 2, -n)
    return None if result == want else f"got {result}, expected {want}"


if __name__ == "__main__":
    bench.main("unpacking", workload, check, n=20000, rounds=7)
