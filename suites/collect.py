#!/usr/bin/python3.11
"""Gathers a suite's Bazel testlogs into the two directories junit_compare reads.

Each //suites/<suite>:<name>_<side> target leaves in bazel-testlogs/suites/<suite>/<target>/
its test.log and test.outputs/outputs.zip, which holds runner.py's <side>/manifest.json
and <side>/<module>/<module>.xml (suites/suite_test.sh). This writes OUT/stock and OUT/jit
(one directory per target name, which is the module's name in the report, and a merged
manifest.json each), ready for

    junit_compare OUT/stock OUT/jit

With --expect (the targets this night ran, from `bazel query`), only those are gathered:
bazel-testlogs keeps every target's last result, including other tags' from earlier nights.
A target that was expected but left no outputs, because Bazel
killed it at its timeout or never ran it, still gets its manifest entry, with signal
"timeout" or "not run": a module that vanished is a row in the report, never silence. A
target that skipped itself here (its test.log says "SKIPPED: reason", e.g. torch under
QEMU) is no module of this run: it is counted, with its reason, and left out.

Usage: collect.py --testlogs DIR --suite cpython --out OUT [--expect TARGET...]
"""

import argparse
import json
import os
import re
import shutil
import sys
import zipfile

SIDES = ("stock", "jit")


def target_side(target):
    """("test_scope", "jit") for "test_scope_jit", or None."""
    for side in SIDES:
        if target.endswith("_" + side):
            return target[: -len(side) - 1], side
    return None


def bazel_verdict(log_path):
    """What a target's test.log says when it left no outputs: "timeout" (Bazel killed it),
    "SKIPPED: <reason>" (suite_test.sh skipped it here, via ci/skip_test.sh), or ""."""
    try:
        with open(log_path, errors="replace") as f:
            text = f.read()
    except OSError:
        return ""
    if "-- Test timed out at" in text[-4000:]:
        return "timeout"
    skipped = re.search(r"^SKIPPED: .*$", text, re.M)
    return skipped.group(0) if skipped else ""


def output_files(outputs_dir):
    """(path relative to the outputs, bytes) of a target's undeclared outputs: zipped, as
    Bazel 4 leaves them, or a plain directory (later Bazels, remote runners)."""
    zipped = os.path.join(outputs_dir, "outputs.zip")
    if os.path.exists(zipped):
        with zipfile.ZipFile(zipped) as z:
            for member in z.namelist():
                if not member.endswith("/"):
                    yield member, z.read(member)
        return
    for root, _, files in os.walk(outputs_dir):
        for f in files:
            path = os.path.join(root, f)
            with open(path, "rb") as data:
                yield os.path.relpath(path, outputs_dir), data.read()


def unpack(outputs_dir, side, name, dest):
    """Copies the target's <side>/<stem>/* into dest/<side>/<name>/, and returns its
    manifest entries with "file" set to the target's name: two suites' files may share a
    stem (numpy has several test_regression.py), their targets' names do not."""
    out_dir = os.path.join(dest, side, name)
    manifest_text = None
    for path, data in output_files(outputs_dir):
        parts = path.split("/")
        if parts[0] != side:
            continue
        if parts[1:] == ["manifest.json"]:
            manifest_text = data.decode()
            continue
        os.makedirs(out_dir, exist_ok=True)
        with open(os.path.join(out_dir, parts[-1]), "wb") as out:
            out.write(data)
    if manifest_text is None:
        return []
    entries = json.loads(manifest_text)["files"]
    for e in entries:
        e["file"] = name
    return entries


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--testlogs", required=True, help="bazel-testlogs (bazel info bazel-testlogs)")
    ap.add_argument("--suite", required=True, help="cpython, numpy, torch")
    ap.add_argument("--out", required=True)
    ap.add_argument("--expect", nargs="*", default=[],
                    help="targets that should have run (//suites/S:NAME_SIDE or NAME_SIDE)")
    args = ap.parse_args()
    package = os.path.join(args.testlogs, "suites", args.suite)
    if not os.path.isdir(package) and not args.expect:
        sys.exit("collect: no testlogs under %s (did `bazel test //suites/%s/...` run?)"
                 % (package, args.suite))
    targets = set(os.listdir(package)) if os.path.isdir(package) else set()
    expected = {t.rsplit(":", 1)[-1] for t in args.expect}
    entries = {side: [] for side in SIDES}
    skipped = {}  # reason -> targets
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    # With --expect, only this night's targets: any other testlog is an earlier night's,
    # perhaps of another build, and must not pass for tonight's result.
    for target in sorted(expected or targets):
        parsed = target_side(target)
        if parsed is None:
            continue
        name, side = parsed
        logs = os.path.join(package, target)
        found = unpack(os.path.join(logs, "test.outputs"), side, name, args.out)
        if not found:
            verdict = bazel_verdict(os.path.join(logs, "test.log"))
            if verdict.startswith("SKIPPED: "):  # not a module of this suite here: no row
                reason = verdict[len("SKIPPED: "):]
                skipped[reason] = skipped.get(reason, 0) + 1
                continue
            found = [{"file": name, "command": "bazel test //suites/%s:%s" % (args.suite, target),
                      "exit_status": -1, "signal": verdict or "not run", "duration_s": 0.0,
                      "culprit": None, "compiled_functions": None}]
        entries[side].extend(found)
    for side in SIDES:
        os.makedirs(os.path.join(args.out, side), exist_ok=True)
        manifest = {"schema": "a64jit-run-manifest/1", "side": side,
                    "command": "bazel test //suites/%s/..." % args.suite,
                    "files": sorted(entries[side], key=lambda e: e["file"])}
        with open(os.path.join(args.out, side, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=2)
    print("collect: %d stock and %d JIT module(s) from %s into %s%s"
          % (len(entries["stock"]), len(entries["jit"]), package, args.out,
             "".join("; %d target(s) skipped: %s" % (n, why) for why, n in skipped.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
