#!/usr/bin/python3.11
"""A/B timing: two configurations run interleaved (A B A B ...) in separate processes,
summarised by median, trimmed mean and a bootstrap 95% confidence interval of the ratio of
medians A/B (above 1: B is faster, when the metric is a time). Every speed claim in this
project comes from this tool.

  ab.py --a 'CMD A' --b 'CMD B' [--runs 10] [--metric gbench[:NAME] | regex:PATTERN | wall]

Metrics: `gbench` reads Google Benchmark JSON from the command's stdout (pass
--benchmark_format=json in the command) and takes the real time of the benchmark NAME (or
the only/first one), in ms; `regex:PATTERN` takes the first group of PATTERN in stdout;
`wall` times the whole process.
"""

import argparse
import json
import random
import re
import shlex
import statistics
import subprocess
import sys
import time

UNIT_TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def measure(command, metric):
    start = time.monotonic()
    p = subprocess.run(shlex.split(command), capture_output=True, text=True)
    wall = time.monotonic() - start
    if p.returncode != 0:
        raise RuntimeError("command failed (status %d): %s\n%s" % (p.returncode, command,
                                                                   p.stderr[-2000:]))
    if metric == "wall":
        return wall * 1e3
    if metric.startswith("regex:"):
        m = re.search(metric[len("regex:"):], p.stdout)
        if not m:
            raise RuntimeError("metric pattern not found in the output of: " + command)
        return float(m.group(1))
    if metric.startswith("gbench"):
        name = metric.split(":", 1)[1] if ":" in metric else None
        data = json.loads(p.stdout)
        runs = [b for b in data["benchmarks"] if name is None or b["name"] == name]
        if not runs:
            raise RuntimeError("no benchmark %r in the output of: %s" % (name, command))
        b = runs[0]
        if b.get("error_occurred"):
            raise RuntimeError("benchmark error: %s" % b.get("error_message"))
        return b["real_time"] * UNIT_TO_MS[b.get("time_unit", "ns")]
    raise ValueError("unknown metric " + metric)


def trimmed_mean(values, fraction=0.1):
    v = sorted(values)
    k = int(len(v) * fraction)
    v = v[k:len(v) - k] if len(v) > 2 * k else v
    return sum(v) / len(v)


def bootstrap_ratio_ci(a, b, resamples=10000, seed=1):
    """95% interval of median(A)/median(B) over bootstrap resamples of each side."""
    rng = random.Random(seed)
    ratios = []
    for _ in range(resamples):
        ra = statistics.median(rng.choices(a, k=len(a)))
        rb = statistics.median(rng.choices(b, k=len(b)))
        ratios.append(ra / rb)
    ratios.sort()
    return ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1]


def bootstrap_paired_ci(a, b, resamples=10000, seed=1):
    """For A and B measured in pairs (a[i] beside b[i], at the same time): the median of the
    pairs' ratios a[i]/b[i] and its 95% interval over bootstrap resamples of whole pairs. A
    pair shares the machine's state, so the ratio keeps little of the drift that separate
    runs carry."""
    if len(a) != len(b) or not a:
        raise ValueError("paired samples need as many A values as B values (%d, %d)" %
                         (len(a), len(b)))
    pairs = [x / y for x, y in zip(a, b)]
    rng = random.Random(seed)
    medians = sorted(statistics.median(rng.choices(pairs, k=len(pairs)))
                     for _ in range(resamples))
    return (statistics.median(pairs), medians[int(0.025 * resamples)],
            medians[int(0.975 * resamples) - 1])


def summarise(a, b):
    lo, hi = bootstrap_ratio_ci(a, b)
    return {
        "a": {"n": len(a), "median": statistics.median(a), "trimmed_mean": trimmed_mean(a),
              "min": min(a), "max": max(a), "values": a},
        "b": {"n": len(b), "median": statistics.median(b), "trimmed_mean": trimmed_mean(b),
              "min": min(b), "max": max(b), "values": b},
        "ratio_of_medians": statistics.median(a) / statistics.median(b),
        "ratio_of_trimmed_means": trimmed_mean(a) / trimmed_mean(b),
        "ratio_ci95": [lo, hi],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="command of configuration A")
    ap.add_argument("--b", required=True, help="command of configuration B")
    ap.add_argument("--runs", type=int, default=10, help="runs of each (default 10)")
    ap.add_argument("--metric", default="gbench")
    ap.add_argument("--label-a", default="A")
    ap.add_argument("--label-b", default="B")
    ap.add_argument("--json", help="also write the summary here")
    args = ap.parse_args()
    if args.runs < 2:
        ap.error("--runs must be at least 2")
    a, b = [], []
    try:
        for i in range(args.runs):
            a.append(measure(args.a, args.metric))
            b.append(measure(args.b, args.metric))
            print("run %d: %s %.3f  %s %.3f" % (i + 1, args.label_a, a[-1], args.label_b, b[-1]),
                  flush=True)
    except RuntimeError as e:
        print("ab: " + str(e), file=sys.stderr)
        return 2
    s = summarise(a, b)
    print("%-10s %10s %12s %10s %10s" % ("", "median", "trimmed", "min", "max"))
    for label, side in ((args.label_a, s["a"]), (args.label_b, s["b"])):
        print("%-10s %10.3f %12.3f %10.3f %10.3f" % (label, side["median"], side["trimmed_mean"],
                                                       side["min"], side["max"]))
    print("%s/%s: ratio of medians %.3f, of trimmed means %.3f, bootstrap 95%% CI [%.3f, %.3f]"
          " (%d interleaved runs each)" % (args.label_a, args.label_b, s["ratio_of_medians"],
                                            s["ratio_of_trimmed_means"], s["ratio_ci95"][0],
                                            s["ratio_ci95"][1], args.runs))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(s, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
