"""The program side of the suite's measurements, in the style of a public benchmark suite.

A program calls `harness.run(name, workload, check)`. `workload()` does one unit of work and
returns its result; `check(result)` returns None when it is right, else what is wrong, which
fails the process (exit 1) so that a wrong answer never passes as a fast one. Then:

  first     the first call alone, as a process that does the work once would see it (with
            the JIT: while its functions compile);
  loops     calibration doubles the calls per value until one value lasts TARGET seconds
            (0.3 s, or A64JIT_SUITE_TARGET_S), as a warm-up;
  values    VALUES timed values of `loops` calls each (5, or A64JIT_SUITE_VALUES), after one
            untimed value;
  warm      the median of the last three values, per call.

It prints one line, `suite-result {json}`, with those figures in milliseconds per call.

With A64JIT_SUITE_MODE=process it does a fixed amount of work instead, `calls` calls (the
program's choice, as much as a short run of the real thing; A64JIT_SUITE_CALLS overrides it),
and only checks the result: the driver times the whole process, which calibration would make
meaningless.
"""
import json
import os
import sys
import time


def _timed(workload, loops, check):
    start = time.perf_counter()
    result = None
    for _ in range(loops):
        result = workload()
    elapsed = time.perf_counter() - start
    wrong = check(result)
    if wrong is not None:
        print("suite: wrong result: %s" % wrong, file=sys.stderr)
        sys.exit(1)
    return elapsed


def run(name, workload, check, calls=20):
    if os.environ.get("A64JIT_SUITE_MODE") == "process":
        calls = int(os.environ.get("A64JIT_SUITE_CALLS", calls))
        _timed(workload, calls, check)
        print("suite-result " + json.dumps({"name": name, "calls": calls}))
        return
    target = float(os.environ.get("A64JIT_SUITE_TARGET_S", "0.3"))
    values = max(3, int(os.environ.get("A64JIT_SUITE_VALUES", "5")))
    first = _timed(workload, 1, check)
    loops = 1
    while _timed(workload, loops, check) < target and loops < 1 << 20:
        loops *= 2
    _timed(workload, loops, check)  # the untimed value
    per_call = [_timed(workload, loops, check) / loops * 1000.0 for _ in range(values)]
    warm = sorted(per_call[-3:])[1]
    print("suite-result " + json.dumps({"name": name, "first_ms": first * 1000.0,
                                        "loops": loops, "values_ms": per_call,
                                        "warm_ms": warm}))
