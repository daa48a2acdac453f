#!/usr/bin/python3.11
"""collect.py on a made-up bazel-testlogs tree: a module that ran on both sides (outputs
zipped, as Bazel 4 leaves them), two files with the same stem, one whose JIT target Bazel
killed at its timeout, one expected target that never ran, one that skipped itself, and
one an earlier night left in the testlogs, and one in two shards (one of which crashed). The gathered directories must hold the XML of the module
that ran, and a manifest entry for every module and side, the lost ones with their reason.

Usage (from Bazel): collect_test.py COLLECT_PY
"""

import json
import os
import subprocess
import sys
import tempfile
import zipfile

XML = ("<testsuites><testsuite tests='1'><testcase name='test.test_a.T.test_x'/>"
       "</testsuite></testsuites>")


def target(testlogs, name, side, outputs=True, log="", stem=None, shard="", compiled=5,
           signal=None):
    d = os.path.join(testlogs, "suites", "cpython", "%s_%s" % (name, side), shard)
    os.makedirs(os.path.join(d, "test.outputs"))
    with open(os.path.join(d, "test.log"), "w") as f:
        f.write(log)
    if not outputs:
        return
    stem = stem or name
    manifest = {"schema": "a64jit-run-manifest/1", "side": side, "files": [
        {"file": "/some/path/%s.py" % stem, "exit_status": -11 if signal else 0, "signal": signal,
         "duration_s": 1.0, "culprit": "t.py::boom" if signal else None,
         "compiled_functions": compiled if side == "jit" else None}]}
    with zipfile.ZipFile(os.path.join(d, "test.outputs", "outputs.zip"), "w") as z:
        z.writestr("%s/manifest.json" % side, json.dumps(manifest))
        z.writestr("%s/%s/%s.xml" % (side, stem, stem), XML)


def main():
    collect = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
    logs, out = os.path.join(tmp, "testlogs"), os.path.join(tmp, "out")
    target(logs, "test_a", "stock")
    target(logs, "test_a", "jit")
    target(logs, "test_b", "stock")
    target(logs, "test_b", "jit", outputs=False, log="...\n-- Test timed out at 2026-11-22 --\n")
    # A target that skipped itself here (suite_test.sh --host-only under QEMU): no row.
    for side in ("stock", "jit"):
        target(logs, "test_torchy", side, outputs=False, log="SKIPPED: amd64 only\n")
    # Two files with the same stem (numpy's core/ and lib/ test_regression.py).
    for name in ("core_test_regression", "lib_test_regression"):
        for side in ("stock", "jit"):
            target(logs, name, side, stem="test_regression")
    # A sharded module (Bazel's shard_K_of_N directories): one row a side, counts added up,
    # the crash of its second shard named; both shards' XML kept.
    for side in ("stock", "jit"):
        target(logs, "test_big", side, shard="shard_1_of_2", compiled=3)
        target(logs, "test_big", side, shard="shard_2_of_2", compiled=4,
               signal="SIGSEGV" if side == "jit" else None)
    # An earlier night's target, not part of this one: left out.
    for side in ("stock", "jit"):
        target(logs, "test_old", side)
    expect = ["//suites/cpython:%s_%s" % (name, side) for side in ("stock", "jit")
              for name in ("test_a", "test_b", "test_torchy", "core_test_regression",
                           "lib_test_regression", "test_big")] + ["//suites/cpython:test_c_jit"]
    subprocess.run([sys.executable, collect, "--testlogs", logs, "--suite", "cpython",
                    "--out", out, "--expect"] + expect, check=True)
    problems = []
    for side in ("stock", "jit"):
        for name, stem in (("test_a", "test_a"), ("core_test_regression", "test_regression"),
                           ("lib_test_regression", "test_regression")):
            if not os.path.exists(os.path.join(out, side, name, stem + ".xml")):
                problems.append("%s: %s's XML not gathered" % (side, name))
        for shard in ("shard_1_of_2", "shard_2_of_2"):
            if not os.path.exists(os.path.join(out, side, "test_big", "test_big.%s.xml" % shard)):
                problems.append("%s: test_big's %s XML not gathered" % (side, shard))
    rows = {(side, e["file"]): e for side in ("stock", "jit")
            for e in json.load(open(os.path.join(out, side, "manifest.json")))["files"]}
    want = {("stock", "test_a"): None, ("jit", "test_a"): None, ("stock", "test_b"): None,
            ("jit", "test_b"): "timeout", ("jit", "test_c"): "not run",
            ("stock", "core_test_regression"): None, ("jit", "core_test_regression"): None,
            ("stock", "lib_test_regression"): None, ("jit", "lib_test_regression"): None,
            ("stock", "test_big"): None, ("jit", "test_big"): "SIGSEGV in shard_2_of_2"}
    got = {k: v["signal"] for k, v in rows.items()}
    if got != want:
        problems.append("manifest rows %r, want %r" % (got, want))
    if rows.get(("jit", "test_a"), {}).get("compiled_functions") != 5:
        problems.append("test_a's compiled count was not kept")
    big = rows.get(("jit", "test_big"), {})
    if (big.get("compiled_functions"), big.get("shards"), big.get("culprit")) != (7, 2, "t.py::boom"):
        problems.append("test_big's shards were not merged: %r" % big)
    if problems:
        print("FAIL: " + "; ".join(problems))
        return 1
    print("PASS: 5 modules gathered (two with one stem, one in two shards), a timeout and a target that never ran "
          "kept as rows, a skipped target and an earlier night's left out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
