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

--paired runs each stock process beside its JIT process, at the same time on two cores,
instead of one after the other; a metric's ratio is then the median of the pairs' ratios,
its interval over resamples of whole pairs (ab.bootstrap_paired_ci). Under QEMU this
machine's speed drifts by 20 to 30% between runs, and a pair shares that drift: PyTorch's
test_type_promotion gave stock/JIT time ratios of 0.96 to 1.33 run one after the other and
1.13 to 1.19 run in pairs (docs/measurements/2026-12-03-paired-runs.md). The JSON's
`overlap` is the smallest share of a pair's longer process that both ran at once.

Usage: run_suite.py --stock CMD --jit CMD [--runs N] [--paired] [--json OUT] [--dir DIR]
                    [PROGRAM...]
  CMD: e.g. "qemu-aarch64 -cpu neoverse-n1 a64jit-run --no-jit" and the same with
  --threshold=100; each program runs as `CMD programs/<name>.py`.
"""
import argparse
import concurrent.futures
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
    end = time.monotonic()
    wall_ms = (end - start) * 1000.0
    line = next((l for l in p.stdout.splitlines() if l.startswith("suite-result ")), None)
    if p.returncode != 0 or line is None:
        raise RunFailed("run_suite: %s failed (exit %d): %s" % (
            " ".join(argv), p.returncode, (p.stderr or p.stdout)[-600:]))
    return json.loads(line[len("suite-result "):]), wall_ms, (start, end)


class RunFailed(Exception):
    """A process failed or printed no result (the message names it)."""


def metrics(values_run, process_run):
    """(warm ms, first ms, process ms) of a calibrated run and a run of fixed work."""
    values, process_ms = values_run[0], process_run[1]
    return values["warm_ms"], values["first_ms"], process_ms


def measure(command, program):
    """metrics() of a calibrated process, then one of fixed work."""
    return metrics(run_once(command, program, "values"), run_once(command, program, "process"))


def overlap_share(span_a, span_b):
    """The share of the longer of two (start, end) spans during which both ran."""
    both = min(span_a[1], span_b[1]) - max(span_a[0], span_b[0])
    longer = max(span_a[1] - span_a[0], span_b[1] - span_b[0])
    return max(both, 0.0) / longer if longer > 0 else 0.0


def measure_pair(pool, stock_cmd, jit_cmd, program):
    """measure() of both sides at once, each mode's two processes started together: the
    stock tuple, the JIT tuple, and the smallest overlap_share of the two modes' pairs."""
    runs = {}  # mode -> [stock's run_once, the JIT's]
    for mode in ("values", "process"):
        futures = [pool.submit(run_once, cmd, program, mode) for cmd in (stock_cmd, jit_cmd)]
        runs[mode] = [f.result() for f in futures]
    stock, jit = (metrics(runs["values"][side], runs["process"][side]) for side in (0, 1))
    return stock, jit, min(overlap_share(pair[0][2], pair[1][2]) for pair in runs.values())


def compare(stock, jit, paired=False):
    """Per metric: median stock, median JIT, the ratio and its 95% interval: of the medians,
    or with `paired` the median of the pairs' ratios."""
    out = {}
    for i, m in enumerate(METRICS):
        a, b = [s[i] for s in stock], [j[i] for j in jit]
        if paired:
            ratio, lo, hi = ab.bootstrap_paired_ci(a, b)
        else:
            ratio = statistics.median(a) / statistics.median(b)
            lo, hi = ab.bootstrap_ratio_ci(a, b)
        out[m] = {"stock_ms": statistics.median(a), "jit_ms": statistics.median(b),
                  "ratio": ratio, "ci95": [lo, hi]}
    return out


def run_program(args, pool, program):
    """compare() over args.runs runs of one program, with the pairs' overlap when paired."""
    stock, jit, overlaps = [], [], []
    for _ in range(args.runs):
        if args.paired:
            s, j, o = measure_pair(pool, args.stock, args.jit, program)
            overlaps.append(o)
        else:
            s, j = measure(args.stock, program), measure(args.jit, program)
        stock.append(s)
        jit.append(j)
    result = compare(stock, jit, args.paired)
    if args.paired:
        result["overlap"] = min(overlaps)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stock", required=True)
    ap.add_argument("--jit", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--paired", action="store_true",
                    help="run each stock process beside its JIT process (two cores)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--dir", default=os.path.join(HERE, "programs"), help="the programs")
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if args.paired and (os.cpu_count() or 1) < 2:
        ap.error("--paired runs two processes at once and needs two cores; this machine "
                 "has %d" % (os.cpu_count() or 1))
    names = args.programs or sorted(f[:-3] for f in os.listdir(args.dir) if f.endswith(".py"))
    results = {}
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2) if args.paired else None
    for name in names:
        program = os.path.join(args.dir, name + ".py")
        if not os.path.exists(program):
            ap.error("no program %s" % program)
        try:
            results[name] = run_program(args, pool, program)
        except RunFailed as e:
            sys.exit(str(e))
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
            json.dump({"programs": results, "geometric_mean": means, "paired": args.paired},
                      f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
