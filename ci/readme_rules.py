#!/usr/bin/python3.11
"""Checks that every README is a user's document, not a lab notebook: at most 300 lines, the
top README at most 200, and no "step N" entries or commit hashes (a measurement's history
goes to docs/measurements/, dated, or to a commit message).

A commit hash is a word of 7 to 40 hex digits with a letter and a digit that names a commit
of this repository (git rev-parse), so a hex constant such as 0x1000000 or a figure passes.

Usage: readme_rules.py [ROOT]      ROOT defaults to the repository holding this script.
Exit status: 0 all pass, 1 some README breaks a rule (each printed as FILE:LINE: rule), 2
ROOT is not a git checkout.
"""
import os
import re
import subprocess
import sys

MAX_LINES, MAX_TOP_LINES = 300, 200
STEP = re.compile(r"\b[Ss]tep \d+\b")
HEX = re.compile(r"(?<![\w.])([0-9a-f]{7,40})(?![\w])")


def is_commit(root, word):
    if not (re.search(r"[a-f]", word) and re.search(r"[0-9]", word)):
        return False
    return subprocess.run(["git", "-C", root, "rev-parse", "--verify", "-q", word + "^{commit}"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def check(root, path):
    lines = open(os.path.join(root, path), encoding="utf-8", errors="replace").read().splitlines()
    limit = MAX_TOP_LINES if path == "README.md" else MAX_LINES
    problems = []
    if len(lines) > limit:
        problems.append("%s: %d lines, more than %d" % (path, len(lines), limit))
    for n, line in enumerate(lines, 1):
        if STEP.search(line):
            problems.append("%s:%d: a \"step N\" entry: %s" % (path, n, STEP.search(line).group(0)))
        for word in HEX.findall(line):
            if is_commit(root, word):
                problems.append("%s:%d: names commit %s" % (path, n, word))
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.realpath(__file__)))
    listed = subprocess.run(["git", "-C", root, "ls-files", "README.md", "*/README.md"],
                            capture_output=True, text=True)
    if listed.returncode != 0:
        print("readme_rules: %s is not a git checkout" % root)
        return 2
    readmes = [p for p in listed.stdout.split() if os.path.exists(os.path.join(root, p))]
    problems = [p for path in readmes for p in check(root, path)]
    for p in problems:
        print(p)
    print("readme_rules: %d README(s), %d problem(s)" % (len(readmes), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
