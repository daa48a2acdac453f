#!/usr/bin/python3.11
"""Re-runs each regression of a suite's night alone, stock then JIT, and labels it.

A regression in junit_compare's report (`--json`) names its module, which for a suite is
the target prefix (suites/collect.py), and its test. This re-runs that one test through the
module's own Bazel targets, `bazel test --test_filter=TEST //suites/SUITE:MODULE_stock` and
then `..._jit` (suite_test.sh hands Bazel's filter to regrtest `-m` or to pytest as a node
id), so a re-run goes wherever the night's targets went: QEMU here, a remote pool of ARM
hosts in the field. The labels, for `junit_compare --labels`:

  pre-existing  fails alone stock too: not the JIT's
  confirmed     passes alone stock, fails alone with the JIT
  flaky         passes alone on both sides
  collateral    lost in a crash that another test (the culprit) caused
  not re-run: ...  Bazel could not run the target (its exit status), or the night had more
                   regressions than --max-reruns (a night cut short or a broken build
                   loses whole modules; re-running each of their tests would take days)

Usage: rerun.py --suite cpython --report REPORT.json --labels LABELS.json [--bazel-arg A]...
                [--max-reruns N]
"""

import argparse
import json
import subprocess
import sys

# bazel test's exit statuses: 0 all passed, 3 a test failed (timeouts included).
BAZEL_PASSED, BAZEL_TEST_FAILED = 0, 3


def test_alone_command(suite, target, test_id, bazel_args):
    """`bazel test` of one test alone in //suites/SUITE:TARGET, never from the cache (also
    suites/culprits.py's runs)."""
    return (["bazel", "test"] + bazel_args +
            ["--cache_test_results=no", "--test_output=summary", "--test_filter=" + test_id,
             "//suites/%s:%s" % (suite, target)])


def passes_alone(suite, target, test_id, bazel_args):
    """True or False for the test alone in //suites/SUITE:TARGET, or Bazel's exit status
    when it could not run the target at all."""
    argv = test_alone_command(suite, target, test_id, bazel_args)
    status = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    if status == BAZEL_PASSED:
        return True
    if status == BAZEL_TEST_FAILED:
        return False
    return status


def label_of(suite, regression, bazel_args):
    test, module = regression["test"], regression["module"]
    if "::" not in test:
        return "not re-run: no test id in %r" % test
    if (regression.get("kind") == "crash" and regression.get("culprit") and
            regression["culprit"] != test):
        return "collateral"
    test_id = test.split("::", 1)[1]
    for side, if_fails in (("stock", "pre-existing"), ("jit", "confirmed")):
        ok = passes_alone(suite, "%s_%s" % (module, side), test_id, bazel_args)
        if ok is not True and ok is not False:
            return "not re-run: bazel exit %d on the %s side" % (ok, side)
        if not ok:
            return if_fails
    return "flaky"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", required=True)
    ap.add_argument("--report", required=True, help="junit_compare --json output")
    ap.add_argument("--labels", required=True, help="where to write test -> label")
    ap.add_argument("--bazel-arg", action="append", default=[],
                    help="an argument for each bazel test (e.g. --config=aarch64)")
    ap.add_argument("--max-reruns", type=int, default=40,
                    help="re-run at most this many regressions (default 40)")
    args = ap.parse_args()
    try:
        with open(args.report) as f:
            regressions = json.load(f)["regressions"]
    except (OSError, ValueError, KeyError) as e:
        print("rerun: cannot read the regressions of %s: %s" % (args.report, e), file=sys.stderr)
        return 2
    labels = {}
    for i, r in enumerate(regressions):
        if i < args.max_reruns:
            labels[r["test"]] = label_of(args.suite, r, args.bazel_arg)
        else:
            labels[r["test"]] = "not re-run: more than %d regressions" % args.max_reruns
    with open(args.labels, "w") as f:
        json.dump(labels, f, indent=2)
    counts = {}
    for label in labels.values():
        key = label.split(":")[0]
        counts[key] = counts.get(key, 0) + 1
    print("rerun: %d regression(s) re-run alone: %s" % (
        len(labels), ", ".join("%s=%d" % kv for kv in sorted(counts.items())) or "none"),
        file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
