"""Integer loops: a sieve of Eratosthenes, Collatz chain lengths and a digit-sum scan,
all plain `while`/`for` loops over ints. Written for a64jit's benchmark set. Checked
against facts that do not come from the same code: pi(10**k) is known, and the longest
Collatz chain below 10,000 starts at 6,171 and takes 261 steps.

Usage: int_loops.py [LIMIT] [ROUNDS] (bench.py).
"""
import bench

PRIMES_BELOW = {1000: 168, 10000: 1229, 100000: 9592}


def sieve(limit):
    flags = [True] * limit
    flags[0] = flags[1] = False
    i = 2
    while i * i < limit:
        if flags[i]:
            j = i * i
            while j < limit:
                flags[j] = False
                j += i
        i += 1
    count = 0
    for f in flags:
        if f:
            count += 1
    return count


def longest_collatz(limit):
    best, best_start = 0, 1
    for start in range(1, limit):
        n, steps = start, 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        if steps > best:
            best, best_start = steps, start
    return best_start, best


def digit_sums(limit):
    total = 0
    for i in range(limit):
        while i:
            total += i % 10
            i //= 10
    return total


def workload(limit):
    return sieve(limit), longest_collatz(10000), digit_sums(limit)


def check(limit, result):
    primes, collatz, digits = result
    want_digits = 45 * (len(str(limit)) - 1) * limit // 10  # limit a power of ten
    if primes != PRIMES_BELOW.get(limit, primes) or collatz != (6171, 261) or \
            digits != want_digits:
        return f"got {result}, expected ({PRIMES_BELOW.get(limit)}, (6171, 261), {want_digits})"
    return None


if __name__ == "__main__":
    bench.main("int_loops", workload, check, n=100000, rounds=5)
