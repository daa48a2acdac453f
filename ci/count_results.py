#!/usr/bin/python3.11
"""Counts test cases for one `bazel test` run of ci/gate.sh.

Input: the console output of `bazel test --test_summary=short` (one status line per test
target) and the config's testlogs directory. Each target's test.xml gives its cases: a gtest
binary reports every TEST, a target that crashed or failed to build counts as one failure.
Output: a per-config summary on stdout, failures named with the reason (a crash names its
signal), and one machine-readable line `COUNTS <passed> <failed> <skipped>` at the end.
"""

import argparse
import os
import re
import signal
import sys
import xml.etree.ElementTree as ET

STATUS_LINE = re.compile(
    r"^(//\S+)\s+(?:\(cached\)\s+)?"
    r"(PASSED|FAILED TO BUILD|FAILED|NO STATUS|TIMEOUT|FLAKY|INCOMPLETE|REMOTE FAILURE|SKIPPED)"
    r"\b")
EXIT_CODE = re.compile(r"exited with error code (\d+)")


def signal_name(exit_code):
    """Shell convention: 128+N means killed by signal N."""
    if exit_code > 128:
        try:
            return signal.Signals(exit_code - 128).name
        except ValueError:
            return "signal %d" % (exit_code - 128)
    return None


def target_dir(testlogs, label):
    package, _, name = label[2:].partition(":")
    return os.path.join(testlogs, package, name)


def count_xml(path):
    """Returns (passed, failed, skipped, failed_names) from one test.xml, or None."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    passed = failed = skipped = 0
    failed_names = []
    for case in root.iter("testcase"):
        name = "%s.%s" % (case.get("classname", ""), case.get("name", ""))
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        if failure is not None:
            failed += 1
            failed_names.append((name, failure.get("message", "")))
        elif case.find("skipped") is not None or case.get("result") == "skipped":
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped, failed_names


def describe_failure(message, log_path):
    """Names a crash by its signal when the exit code says the process was killed."""
    text = message or ""
    match = EXIT_CODE.search(text)
    if not match and os.path.exists(log_path):
        with open(log_path, errors="replace") as f:
            match = EXIT_CODE.search(f.read()[-4000:])
    if match:
        sig = signal_name(int(match.group(1)))
        if sig:
            return "crashed: %s (exit code %s)" % (sig, match.group(1))
        return "exit code %s" % match.group(1)
    return text.strip().splitlines()[0][:200] if text.strip() else "failed"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", required=True)
    parser.add_argument("--summary", required=True, help="bazel test console output")
    parser.add_argument("--testlogs", required=True)
    parser.add_argument("--bazel-exit", type=int, required=True)
    args = parser.parse_args()

    with open(args.summary, errors="replace") as f:
        lines = f.read().splitlines()
    targets = []
    for line in lines:
        m = STATUS_LINE.match(line.strip())
        if m:
            targets.append((m.group(1), m.group(2)))

    passed = failed = skipped = 0
    problems = []
    for label, status in targets:
        d = target_dir(args.testlogs, label)
        counted = None
        if status in ("PASSED", "FAILED", "FLAKY", "TIMEOUT"):
            counted = count_xml(os.path.join(d, "test.xml"))
        if counted is None:
            if status == "PASSED":
                passed += 1
            else:
                failed += 1
                problems.append((label, status.lower()))
            continue
        p, fl, s, names = counted
        passed, failed, skipped = passed + p, failed + fl, skipped + s
        for name, message in names:
            problems.append((label, "%s: %s" % (name, describe_failure(
                message, os.path.join(d, "test.log")))))
        if status != "PASSED" and fl == 0:
            # The target failed without a failing case (a crash after the last case, a
            # timeout, a leak check): it still counts.
            failed += 1
            problems.append((label, status.lower()))

    if not targets:
        failed += 1
        problems.append(("(bazel)", "no test targets ran (exit %d)" % args.bazel_exit))
    elif args.bazel_exit not in (0, 3) and not any(s == "FAILED TO BUILD" for _, s in targets):
        # 3 = some tests failed (already counted). Anything else is a build error of a
        # non-test target, or an infrastructure error.
        failed += 1
        problems.append(("(bazel)", "build or infrastructure error (exit %d)" % args.bazel_exit))
    elif args.bazel_exit == 3 and not problems:
        failed += 1
        problems.append(("(bazel)", "bazel reported failing tests that were not counted"))

    print("%s: %d test targets; %d passed, %d failed, %d skipped" %
          (args.config, len(targets), passed, failed, skipped))
    for label, why in problems:
        print("  FAILED %s %s" % (label, why))
    print("COUNTS %d %d %d" % (passed, failed, skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
