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
  confirmed in module
                passes alone on both sides, fails again when its module's JIT target runs
                whole (the failure needs the module's earlier tests: a cache, a leak, a
                counter they left behind; exactly what a re-run alone would miss)
  flaky         passes alone on both sides, and passes in its module's JIT target run whole
  collateral    lost in a crash that another test (the culprit) caused
  not re-run: ...  Bazel could not run the target (its exit status), or the night had more
                   regressions than --max-reruns (a night cut short or a broken build
                   loses whole modules; re-running each of their tests would take days)

Usage: rerun.py --suite cpython --report REPORT.json --labels LABELS.json [--bazel-arg A]...
                [--max-reruns N]
       rerun.py --suite cpython --module-red MODULE TEST [--bazel-arg A]...
The second form is suites/culprits.py's red test for a `confirmed in module` regression: it
runs the module's JIT target whole and exits 3 when TEST failed in it, 0 when TEST passed,
2 when it could not tell (Bazel's status, or TEST not in the module's test.xml).
"""

import argparse
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

# bazel test's exit statuses: 0 all passed, 3 a test failed (timeouts included).
BAZEL_PASSED, BAZEL_TEST_FAILED = 0, 3


def test_command(suite, target, bazel_args, test_id=None):
    """`bazel test` of //suites/SUITE:TARGET, never from the cache: one test alone with
    TEST_ID, else the whole target. Never sharded: a sharded module (suites/pytorch) runs in
    one process, so the test is in it and its result in the target's one test.xml."""
    test_filter = [] if test_id is None else ["--test_filter=" + test_id]
    return (["bazel", "test"] + bazel_args + ["--cache_test_results=no", "--test_output=summary",
                                              "--test_sharding_strategy=disabled"] +
            test_filter + ["//suites/%s:%s" % (suite, target)])


def test_alone_command(suite, target, test_id, bazel_args):
    """`bazel test` of one test alone in //suites/SUITE:TARGET (also suites/culprits.py's
    runs)."""
    return test_command(suite, target, bazel_args, test_id)


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


def test_xml_outcome(xml_path, test_id):
    """"pass", "fail" or None (not in the file) for TEST_ID in a module's JUnit XML. TEST_ID
    is the part of junit_compare's key after the module: regrtest's testcase name is the whole
    dotted id ("test.test_gc.GCTests.test_x"); pytest's is the class's last component and the
    name ("TestX::test_y"), or the name alone."""
    try:
        root = ET.parse(xml_path).getroot()
    except (OSError, ET.ParseError):
        return None
    for case in root.iter("testcase"):
        name, cls = case.get("name", ""), case.get("classname", "").rsplit(".", 1)[-1]
        if test_id not in (name, cls + "::" + name):
            continue
        failed = any(c.tag in ("failure", "error") for c in case)
        return "fail" if failed else "pass"
    return None


def fails_in_module(suite, module, test_id, bazel_args):
    """True when TEST_ID fails with its module's JIT target run whole, False when it passes
    there, or a string saying why that could not be told."""
    target = "%s_jit" % module
    status = subprocess.run(test_command(suite, target, bazel_args), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    if status not in (BAZEL_PASSED, BAZEL_TEST_FAILED):
        return "bazel exit %d on the module's JIT target" % status
    info = subprocess.run(["bazel", "info"] + bazel_args + ["bazel-testlogs"],
                          capture_output=True, text=True)
    xml_path = os.path.join(info.stdout.strip(), "suites", suite, target, "test.xml")
    outcome = test_xml_outcome(xml_path, test_id)
    if outcome is None:
        return "not in %s" % xml_path
    return outcome == "fail"


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
    # Passes alone on both sides: a failure that needs its module's earlier tests would
    # pass here too, so the module runs once more, whole, before the test is called flaky.
    in_module = fails_in_module(suite, module, test_id, bazel_args)
    if in_module is True:
        return "confirmed in module"
    if in_module is False:
        return "flaky"
    return "flaky (module re-run: %s)" % in_module


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", required=True)
    ap.add_argument("--report", help="junit_compare --json output")
    ap.add_argument("--labels", help="where to write test -> label")
    ap.add_argument("--module-red", nargs=2, metavar=("MODULE", "TEST"),
                    help="exit 3 when TEST fails in MODULE's JIT target run whole, 0 when not")
    ap.add_argument("--bazel-arg", action="append", default=[],
                    help="an argument for each bazel test (e.g. --config=aarch64)")
    ap.add_argument("--max-reruns", type=int, default=40,
                    help="re-run at most this many regressions (default 40)")
    args = ap.parse_args()
    if args.module_red:
        verdict = fails_in_module(args.suite, args.module_red[0], args.module_red[1],
                                  args.bazel_arg)
        if verdict is True or verdict is False:
            return BAZEL_TEST_FAILED if verdict else BAZEL_PASSED
        print("rerun: %s" % verdict, file=sys.stderr)
        return 2
    if not args.report or not args.labels:
        ap.error("--report and --labels are required (or --module-red)")
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
        key = label.split(":")[0].split(" (")[0]
        counts[key] = counts.get(key, 0) + 1
    print("rerun: %d regression(s) re-run: %s" % (
        len(labels), ", ".join("%s=%d" % kv for kv in sorted(counts.items())) or "none"),
        file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
