#!/usr/bin/python3.11
"""Finds the culprit of each confirmed regression of a suite's night: the compiled function,
and the compiler decision in it, that make the test fail (difftest/bisect). Appends what it
found to the regression's label, which the report prints with the regression.

The bisector runs the regression's test alone through the module's JIT target, as
suites/rerun.py does: `bazel test --test_filter=TEST //suites/SUITE:MODULE_jit`, with the
JIT's bisection variables passed into the test (--test_env). Only bazel's exit status 3 (the
test failed) counts as red; any other failure stops that bisection with the reason. A
regression `confirmed in module` (it fails only after its module's earlier tests) is bisected
on its module run whole: `rerun.py --module-red MODULE TEST` exits 3 when that test failed in
the run, whatever else did.

  confirmed; culprit function: M:F; decision N of D: KIND at bytecode offset B;
             reproducer DIR/N/reproducer.py (C calls) fails with the JIT
  confirmed; bisection unfinished: ...   (time budget, a run bazel could not make)
  confirmed; bisection flaky: ...        (not red in every run of a verdict)
  confirmed in module; ...               (the same suffixes)

Usage: culprits.py --suite cpython --report REPORT.json --labels LABELS.json --out DIR
                   [--bazel-arg A]... [--max-bisections N] [--deadline SECONDS]
Each bisection's log and JSON are DIR/N.log and DIR/N.json.
"""

import argparse
import json
import os
import subprocess
import sys

from rerun import BAZEL_TEST_FAILED, test_alone_command

BISECTOR = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "difftest", "bisect",
                        "bisector.py")
# What the bisector sets around a run; the test inherits them from bazel's client.
RERUN = os.path.join(os.path.dirname(os.path.realpath(__file__)), "rerun.py")
PASSED_ON = ("A64JIT_JITLIST_FILE", "A64JIT_LOG", "A64JIT_OPT_LIMIT", "A64JIT_DUMP_DIR",
             "A64JIT_CAPTURE", "A64JIT_CAPTURE_FILE")


def bisect_command(suite, module, test_id, bazel_args, in_module=False):
    env_args = ["--test_env=" + name for name in PASSED_ON]
    if in_module:
        return ([RERUN, "--suite", suite, "--module-red", module, test_id] +
                ["--bazel-arg=" + a for a in bazel_args + env_args])
    return test_alone_command(suite, module + "_jit", test_id, bazel_args + env_args)


def bisect(n, suite, regression, label, bazel_args, out, deadline):
    """The label suffix for one confirmed regression."""
    test_id = regression["test"].split("::", 1)[1]
    json_path, log_path = os.path.join(out, "%d.json" % n), os.path.join(out, "%d.log" % n)
    # The reproducer runs on the same side as the night's JIT targets: QEMU under
    # --config=aarch64 (bazel run's --run_under), a remote ARM host's a64jit-run elsewhere.
    repro_runner = " ".join(["bazel", "run", "--ui_event_filters=-info,-stdout"] + bazel_args +
                            ["//jit/python:a64jit-run", "--"])
    argv = ([BISECTOR, "--json", json_path, "--workdir", os.path.join(out, str(n)),
             "--red-exit", str(BAZEL_TEST_FAILED), "--deadline", str(deadline),
             "--repro-runner", repro_runner, "--"] +
            bisect_command(suite, regression["module"], test_id, bazel_args,
                           in_module=label == "confirmed in module"))
    with open(log_path, "w") as log:
        subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT)
    try:
        with open(json_path) as f:
            result = json.load(f)
    except (OSError, ValueError) as e:
        return "bisection failed: no result (%s); see %s" % (e, log_path)
    if result["verdict"] == "culprit":
        return "%s (%d runs)" % (result["message"], result["runs"])
    message = result["message"]
    prefix = "bisection could not finish: "
    if message.startswith(prefix):
        message = message[len(prefix):]
    return "bisection %s: %s" % (result["verdict"], message)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", required=True)
    ap.add_argument("--report", required=True, help="junit_compare --json output")
    ap.add_argument("--labels", required=True, help="suites/rerun.py's labels, updated in place")
    ap.add_argument("--out", required=True, help="a directory for the bisections' files")
    ap.add_argument("--bazel-arg", action="append", default=[],
                    help="an argument for each bazel test (e.g. --config=aarch64)")
    ap.add_argument("--max-bisections", type=int, default=3,
                    help="bisect at most this many confirmed regressions (default 3)")
    ap.add_argument("--deadline", type=float, default=3600,
                    help="seconds for each bisection (default 3600)")
    args = ap.parse_args()
    try:
        with open(args.report) as f:
            regressions = json.load(f)["regressions"]
        with open(args.labels) as f:
            labels = json.load(f)
    except (OSError, ValueError, KeyError) as e:
        print("culprits: cannot read %s or %s: %s" % (args.report, args.labels, e),
              file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    confirmed = [r for r in regressions
                 if labels.get(r["test"]) in ("confirmed", "confirmed in module") and
                 "::" in r["test"]]
    for n, r in enumerate(confirmed, 1):
        if n > args.max_bisections:
            found = "not bisected: more than %d confirmed regressions" % args.max_bisections
        else:
            print("culprits: bisecting %s (%d of %d)" % (r["test"], n, len(confirmed)),
                  file=sys.stderr)
            found = bisect(n, args.suite, r, labels[r["test"]], args.bazel_arg, args.out,
                           args.deadline)
        labels[r["test"]] += "; " + found
        print("culprits: %s: %s" % (r["test"], found), file=sys.stderr)
    with open(args.labels, "w") as f:
        json.dump(labels, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
