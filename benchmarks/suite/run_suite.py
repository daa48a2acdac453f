#!/usr/bin/python3.11
"""Runs the suite's programs (benchmarks/suite/programs) stock and with the JIT, processes
interleaved (stock, JIT, stock, JIT, ...), and reports per program, with 95% intervals over
the processes (bootstrap of the ratio of medians, benchmarks/ab/ab.py):

  warm      stock/JIT of the warm time per call (harness.py: the median of the last three
            values, after calibration and warm-up): long-running code;
  first     stock/JIT of the first call alone: the cost a short-lived process pays, compiles
            included;
  process   stock/JIT of a whole process doing a fixed amount of work (the program's
            `calls`), start to exit, wall time: what a user of a short run waits.

and the geometric mean of each. Above 1 the JIT is faster.

Usage: run_suite.py --stock CMD --jit CMD [--runs N] [--json OUT] [--dir DIR] [PROGRAM...]
  CMD: e.g. "qemu-aarch64 -cpu neoverse-n1 a64jit-run --no-jit" and the same with
  --threshold=100; each program runs as `CMD programs/<name>.py`.
"""
import argparse
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ab"))
import ab  # noqa: E402  (bootstrap_ratio_ci)

METRICS = ("warm", "first", "process")


def run_once(command, program, mode):
    """The harness's result and the wall time of one process, or exits naming what failed."""
    argv = shlex.split(command) + [program]
    env = dict(os.environ, A64JIT_SUITE_MODE=mode,
               PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall_ms = (time.monotonic() - start) * 1000.0
    line = next((l for l in p.stdout.splitlines() if l.startswith("suite-result ")), None)
    if p.returncode != 0 or line is None:
        sys.exit("run_suite: %s failed (exit %d): %s" % (" ".join(argv), p.returncode,
                                                         (p.stderr or p.stdout)[-600:]))
    return json.loads(line[len("suite-result "):]), wall_ms


def measure(command, program):
    """(warm ms, first ms, process ms): a calibrated process, then one of fixed work."""
    values, _ = run_once(command, program, "values")
    _, process_ms = run_once(command, program, "process")
    return values["warm_ms"], values["first_ms"], process_ms


def compare(stock, jit):
    """Per metric: median stock, median JIT, ratio of medians and its 95% interval."""
    out = {}
    for i, m in enumerate(METRICS):
        a, b = [s[i] for s in stock], [j[i] for j in jit]
        lo, hi = ab.bootstrap_ratio_ci(a, b)
        out[m] = {"stock_ms": statistics.median(a), "jit_ms": statistics.median(b),
                  "ratio": statistics.median(a) / statistics.median(b), "ci95": [lo, hi]}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stock", required=True)
    ap.add_argument("--jit", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", default=None)
    ap.add_argument("--dir", default=os.path.join(HERE, "programs"), help="the programs")
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    names = args.programs or sorted(f[:-3] for f in os.listdir(args.dir) if f.endswith(".py"))
    results = {}
    for name in names:
        program = os.path.join(args.dir, name + ".py")
        if not os.path.exists(program):
            ap.error("no program %s" % program)
        stock, jit = [], []
        for _ in range(args.runs):
            stock.append(measure(args.stock, program))
            jit.append(measure(args.jit, program))
        results[name] = compare(stock, jit)
        print("%-20s %s" % (name, "  ".join("%s %.3f" % (m, results[name][m]["ratio"])
                                             for m in METRICS)), file=sys.stderr, flush=True)
    print("| program | " + " | ".join("%s stock/JIT [95%% CI]" % m for m in METRICS) + " |")
    print("|---|" + "---|" * len(METRICS))
    for name, r in results.items():
        print("| %s | " % name + " | ".join("%.3f [%.3f, %.3f]" % (r[m]["ratio"], *r[m]["ci95"])
                                             for m in METRICS) + " |")
    means = {m: math.exp(statistics.mean(math.log(r[m]["ratio"]) for r in results.values()))
             for m in METRICS}
    print("| geometric mean | " + " | ".join("%.3f" % means[m] for m in METRICS) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"programs": results, "geometric_mean": means}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
