#!/usr/bin/python3.11
"""rerun.py against a stand-in `bazel` on PATH that records its arguments and passes or
fails each target as the test says. The regressions must get their labels, each re-run
alone must name its test with --test_filter and its module's target, a test that passes
alone on both sides must be re-run in its module's JIT target whole (whose test.xml the
stand-in writes) and be `confirmed in module` when it fails there, the bazel arguments given
to rerun.py must reach every run, and a target Bazel cannot run must be said so.

Usage (from Bazel): rerun_test.py RERUN_PY
"""

import json
import os
import subprocess
import sys
import tempfile

# The stand-in bazel: exit status from FAKE_BAZEL_RESULTS ({"target": status}), default 0.
# `bazel info ... bazel-testlogs` prints FAKE_BAZEL_TESTLOGS; a `bazel test` of a whole target
# (no --test_filter) writes its test.xml there from FAKE_BAZEL_XML ({"target": xml}) and
# fails (3) when that has a failure.
FAKE_BAZEL = """#!/usr/bin/python3.11
import json, os, sys
logs = os.environ["FAKE_BAZEL_TESTLOGS"]
if sys.argv[1] == "info":
    print(logs)
    sys.exit(0)
with open(os.environ["FAKE_BAZEL_LOG"], "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\\n")
target = sys.argv[-1].split(":")[-1]
xml = json.loads(os.environ["FAKE_BAZEL_XML"]).get(target)
if xml is not None and not any(a.startswith("--test_filter=") for a in sys.argv):
    os.makedirs(os.path.join(logs, "suites", "cpython", target), exist_ok=True)
    with open(os.path.join(logs, "suites", "cpython", target, "test.xml"), "w") as f:
        f.write(xml)
    sys.exit(3 if "<failure" in xml else 0)
results = json.loads(os.environ["FAKE_BAZEL_RESULTS"])
sys.exit(results.get(target, 0))
"""

REGRESSIONS = [
    {"module": "test_a", "test": "test_a::test.test_a.T.test_pre", "kind": "fail"},
    {"module": "test_b", "test": "test_b::test.test_b.T.test_confirmed", "kind": "fail"},
    {"module": "test_c", "test": "test_c::test.test_c.T.test_flaky", "kind": "fail"},
    {"module": "test_d", "test": "test_d::test.test_d.T.test_lost", "kind": "crash",
     "culprit": "test_d::test.test_d.T.test_killer"},
    {"module": "test_e", "test": "test_e::test.test_e.T.test_x", "kind": "fail"},
    {"module": "test_f", "test": "test_f::test.test_f.T.test_after_others", "kind": "fail"},
]
RESULTS = {"test_a_stock": 3, "test_b_jit": 3, "test_e_stock": 1}
# Whole-module runs: test_c's test passes in its module (flaky); test_f's fails only there.
XML = {
    "test_c_jit": '<testsuite><testcase name="test.test_c.T.test_flaky"/></testsuite>',
    "test_f_jit": '<testsuite><testcase name="test.test_f.T.test_other"/>'
                  '<testcase name="test.test_f.T.test_after_others"><failure message="x"/>'
                  '</testcase></testsuite>',
}
EXPECTED = {
    "test_a::test.test_a.T.test_pre": "pre-existing",
    "test_b::test.test_b.T.test_confirmed": "confirmed",
    "test_c::test.test_c.T.test_flaky": "flaky",
    "test_d::test.test_d.T.test_lost": "collateral",
    "test_e::test.test_e.T.test_x": "not re-run: bazel exit 1 on the stock side",
    "test_f::test.test_f.T.test_after_others": "confirmed in module",
}


def main():
    rerun = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    with open(os.path.join(bindir, "bazel"), "w") as f:
        f.write(FAKE_BAZEL)
    os.chmod(os.path.join(bindir, "bazel"), 0o755)
    report, labels, log = (os.path.join(tmp, n) for n in ("report.json", "labels.json", "log"))
    with open(report, "w") as f:
        json.dump({"regressions": REGRESSIONS}, f)
    env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], FAKE_BAZEL_LOG=log,
               FAKE_BAZEL_RESULTS=json.dumps(RESULTS), FAKE_BAZEL_XML=json.dumps(XML),
               FAKE_BAZEL_TESTLOGS=os.path.join(tmp, "testlogs"))
    proc = subprocess.run([rerun, "--suite", "cpython", "--report", report, "--labels", labels,
                           "--bazel-arg=--config=aarch64"], env=env, capture_output=True,
                          text=True)
    failures = []
    if proc.returncode != 0:
        failures.append("exit %d: %s" % (proc.returncode, proc.stderr))
    got = json.load(open(labels)) if os.path.exists(labels) else {}
    if got != EXPECTED:
        failures.append("labels %s, expected %s" % (got, EXPECTED))
    runs = [json.loads(line) for line in open(log)] if os.path.exists(log) else []
    want_targets = ["test_a_stock", "test_b_stock", "test_b_jit", "test_c_stock", "test_c_jit",
                    "test_c_jit", "test_e_stock", "test_f_stock", "test_f_jit", "test_f_jit"]
    targets = [argv[-1] for argv in runs]
    if targets != ["//suites/cpython:" + t for t in want_targets]:
        failures.append("re-ran %s, expected %s" % (targets, want_targets))
    whole = [argv for argv in runs if not any(a.startswith("--test_filter=") for a in argv)]
    if [argv[-1] for argv in whole] != ["//suites/cpython:test_c_jit",
                                        "//suites/cpython:test_f_jit"] or \
            any("--config=aarch64" not in argv or "--cache_test_results=no" not in argv
                for argv in whole):
        failures.append("whole-module re-runs %s" % whole)
    for argv in runs:
        if argv in whole:
            continue
        test_filters = [a for a in argv if a.startswith("--test_filter=")]
        module = argv[-1].split(":")[-1].rsplit("_", 1)[0]
        if argv[0] != "test" or "--config=aarch64" not in argv or len(test_filters) != 1 or \
                not test_filters[0].startswith("--test_filter=test.%s.T." % module) or \
                "--cache_test_results=no" not in argv:
            failures.append("bad bazel arguments: %s" % argv)
    if "rerun: 6 regression(s)" not in proc.stderr:
        failures.append("no summary line: %r" % proc.stderr)
    # A night with more regressions than --max-reruns re-runs only the first ones.
    capped = os.path.join(tmp, "capped.json")
    subprocess.run([rerun, "--suite", "cpython", "--report", report, "--labels", capped,
                    "--max-reruns", "2"], env=env, capture_output=True, text=True)
    got = json.load(open(capped)) if os.path.exists(capped) else {}
    over = [t for t, label in got.items() if label == "not re-run: more than 2 regressions"]
    if len(got) != 6 or sorted(over) != sorted(r["test"] for r in REGRESSIONS[2:]):
        failures.append("--max-reruns 2 labelled %s" % got)
    for f in failures:
        print("FAIL", f)
    print("rerun_test: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
