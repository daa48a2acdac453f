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


def unpack(outputs_dir, side, name, dest, shard=""):
    """Copies the target's <side>/<stem>/* into dest/<side>/<name>/, and returns its
    manifest entries with "file" set to the target's name: two suites' files may share a
    stem (numpy has several test_regression.py), their targets' names do not. A shard's
    files get the shard's name before their extension (test_nn.shard_2_of_8.xml), so that
    the shards of one module sit side by side."""
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
        base, ext = os.path.splitext(parts[-1])
        file_name = base + (".%s" % shard if shard else "") + ext
        with open(os.path.join(out_dir, file_name), "wb") as out:
            out.write(data)
    if manifest_text is None:
        return []
    entries = json.loads(manifest_text)["files"]
    for e in entries:
        e["file"] = name
        # runner.py's reproducer names paths inside the test's sandbox; a suite's is the
        # target's (junit_compare --reproducer, from ci/nightly.sh).
        e.pop("reproduce", None)
    return entries


SHARD_DIR = re.compile(r"^shard_(\d+)_of_(\d+)$")
SUMMED = ("duration_s", "compiled_functions", "failed_functions", "compiled_entries",
          "interpreted_entries")


def shard_dirs(logs):
    """A sharded target's shard_K_of_N directories, in shard order, or [] if it has none."""
    try:
        names = [n for n in os.listdir(logs) if SHARD_DIR.match(n)]
    except OSError:
        return []
    return sorted(names, key=lambda n: int(SHARD_DIR.match(n).group(1)))


def merge_shards(name, shards):
    """One manifest entry for a module from its shards' entries [(shard, entry)]: counts and
    durations add up; the first shard that crashed or failed gives the exit status, the
    culprit and the signal, which names that shard."""
    merged = dict(shards[0][1])
    merged["file"] = name
    for key in SUMMED:
        values = [e.get(key) for _, e in shards]
        merged[key] = None if any(v is None for v in values) else sum(values)
    causes = {}
    for _, e in shards:
        for cause, n in (e.get("failure_causes") or {}).items():
            causes[cause] = causes.get(cause, 0) + n
    merged["failure_causes"] = causes
    merged["exit_status"], merged["signal"], merged["culprit"] = 0, None, None
    for shard, e in shards:
        if e.get("signal") or e.get("exit_status"):
            merged["exit_status"] = e.get("exit_status") or -1
            merged["signal"] = ("%s in %s" % (e["signal"], shard)) if e.get("signal") else None
            merged["culprit"] = e.get("culprit")
            break
    merged["shards"] = len(shards)
    return merged


def gather_target(package, target, name, side, suite, dest, skipped):
    """The manifest entries of one target (one per module: a sharded target's shards are
    merged), or [] when it skipped itself here (counted in skipped)."""
    logs = os.path.join(package, target)
    shards = shard_dirs(logs)
    units = [(s, os.path.join(logs, s)) for s in shards] if shards else [("", logs)]
    parts = []
    for shard, shard_logs in units:
        found = unpack(os.path.join(shard_logs, "test.outputs"), side, name, dest, shard)
        if not found:
            verdict = bazel_verdict(os.path.join(shard_logs, "test.log"))
            if verdict.startswith("SKIPPED: "):  # not a module of this suite here: no row
                reason = verdict[len("SKIPPED: "):]
                skipped[reason] = skipped.get(reason, 0) + 1
                return []
            found = [{"file": name, "exit_status": -1, "signal": verdict or "not run",
                      "duration_s": 0.0, "culprit": None, "compiled_functions": None,
                      "command": "bazel test //suites/%s:%s%s" % (
                          suite, target, " (%s)" % shard if shard else "")}]
        parts.extend((shard, e) for e in found)
    return [merge_shards(name, parts)] if shards else [e for _, e in parts]


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
    # Only what this gathers is replaced: the two sides' folders, never the rest of --out
    # (a night's report, labels, culprits, or anything a user keeps there).
    for side in SIDES:
        if os.path.isdir(os.path.join(args.out, side)):
            shutil.rmtree(os.path.join(args.out, side))
    # With --expect, only this night's targets: any other testlog is an earlier night's,
    # perhaps of another build, and must not pass for tonight's result.
    for target in sorted(expected or targets):
        parsed = target_side(target)
        if parsed is None:
            continue
        name, side = parsed
        entries[side].extend(
            gather_target(package, target, name, side, args.suite, args.out, skipped))
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
