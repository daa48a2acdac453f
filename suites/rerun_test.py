#!/usr/bin/python3.11
"""rerun.py against a stand-in `bazel` on PATH that records its arguments and passes or
fails each target as the test says. Four regressions must get the four labels, each
re-run must name its test with --test_filter and its module's target, the bazel arguments
given to rerun.py must reach every run, and a target Bazel cannot run must be said so.

Usage (from Bazel): rerun_test.py RERUN_PY
"""

import json
import os
import subprocess
import sys
import tempfile

# The stand-in bazel: exit status from FAKE_BAZEL_RESULTS ({"target": status}), default 0.
FAKE_BAZEL = """#!/usr/bin/python3.11
import json, os, sys
with open(os.environ["FAKE_BAZEL_LOG"], "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\\n")
results = json.loads(os.environ["FAKE_BAZEL_RESULTS"])
sys.exit(results.get(sys.argv[-1].split(":")[-1], 0))
"""

REGRESSIONS = [
    {"module": "test_a", "test": "test_a::test.test_a.T.test_pre", "kind": "fail"},
    {"module": "test_b", "test": "test_b::test.test_b.T.test_confirmed", "kind": "fail"},
    {"module": "test_c", "test": "test_c::test.test_c.T.test_flaky", "kind": "fail"},
    {"module": "test_d", "test": "test_d::test.test_d.T.test_lost", "kind": "crash",
     "culprit": "test_d::test.test_d.T.test_killer"},
    {"module": "test_e", "test": "test_e::test.test_e.T.test_x", "kind": "fail"},
]
RESULTS = {"test_a_stock": 3, "test_b_jit": 3, "test_e_stock": 1}
EXPECTED = {
    "test_a::test.test_a.T.test_pre": "pre-existing",
    "test_b::test.test_b.T.test_confirmed": "confirmed",
    "test_c::test.test_c.T.test_flaky": "flaky",
    "test_d::test.test_d.T.test_lost": "collateral",
    "test_e::test.test_e.T.test_x": "not re-run: bazel exit 1 on the stock side",
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
               FAKE_BAZEL_RESULTS=json.dumps(RESULTS))
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
                    "test_e_stock"]
    targets = [argv[-1] for argv in runs]
    if targets != ["//suites/cpython:" + t for t in want_targets]:
        failures.append("re-ran %s, expected %s" % (targets, want_targets))
    for argv in runs:
        test_filters = [a for a in argv if a.startswith("--test_filter=")]
        module = argv[-1].split(":")[-1].rsplit("_", 1)[0]
        if argv[0] != "test" or "--config=aarch64" not in argv or len(test_filters) != 1 or \
                not test_filters[0].startswith("--test_filter=test.%s.T." % module) or \
                "--cache_test_results=no" not in argv:
            failures.append("bad bazel arguments: %s" % argv)
    if "rerun: 5 regression(s)" not in proc.stderr:
        failures.append("no summary line: %r" % proc.stderr)
    # A night with more regressions than --max-reruns re-runs only the first ones.
    capped = os.path.join(tmp, "capped.json")
    subprocess.run([rerun, "--suite", "cpython", "--report", report, "--labels", capped,
                    "--max-reruns", "2"], env=env, capture_output=True, text=True)
    got = json.load(open(capped)) if os.path.exists(capped) else {}
    over = [t for t, label in got.items() if label == "not re-run: more than 2 regressions"]
    if len(got) != 5 or sorted(over) != sorted(r["test"] for r in REGRESSIONS[2:]):
        failures.append("--max-reruns 2 labelled %s" % got)
    for f in failures:
        print("FAIL", f)
    print("rerun_test: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
