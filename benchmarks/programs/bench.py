"""The driver every program of the set shares: rounds of one workload, each checked.

A program calls `bench.main(name, workload, check, n, rounds)`: `workload(n)` returns a
result, `check(n, result)` returns None when it is right or a message saying what is
wrong, which fails the run (exit 1) so a wrong answer never passes as a fast one. The
command line may override n and rounds (`PROGRAM.py [N] [ROUNDS]`; N `-` keeps the
program's own). Prints `time=<median ms per round>`, the metric benchmarks/ab/ab.py reads.
"""
import sys
import time


def main(name, workload, check, n, rounds):
    n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "-" else n
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else rounds
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        result = workload(n)
        times.append((time.perf_counter() - start) * 1000.0)
        wrong = check(n, result)
        if wrong is not None:
            print(f"{name}: {wrong}", file=sys.stderr)
            sys.exit(1)
    times.sort()
    print(f"time={times[len(times) // 2]:.3f}")
