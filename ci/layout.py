#!/usr/bin/python3.11
"""The compiler's size limits, so that a newcomer can read each piece at once.

In jit/ no function may be over 100 lines, and no file over 1,000 lines.

Functions are found by their braces: a line at indent 0 or 2 that ends a signature with `{`
(not a control statement, namespace, class, struct or enum) opens one, and the next line
with a `}` at that indent closes it. A function formatted otherwise is not seen; clang-format's
Google style writes them this way.

Usage: layout.py [ROOT]   ROOT defaults to the repository holding this script.
Exit status: 0 within the limits, 1 otherwise (each breach printed as FILE:LINE).
"""
import glob
import os
import re
import sys

MAX_FUNCTION_LINES = 100
MAX_FILE_LINES = 1000
SIGNATURE_END = re.compile(r"^( {0,2})(?![ }#/]).*\)\s*(const\s*)?(override\s*)?(noexcept\s*)?\{\s*$")
NOT_A_FUNCTION = re.compile(r"^\s*(if|for|while|switch|else|do|namespace|struct|class|enum)\b")


def long_functions(path, lines):
    """(line, length, first line) of each function over the limit in one file."""
    found = []
    i = 0
    while i < len(lines):
        m = SIGNATURE_END.match(lines[i])
        if m and not NOT_A_FUNCTION.match(lines[i]):
            indent = m.group(1)
            j = i + 1
            while j < len(lines) and not lines[j].startswith(indent + "}"):
                j += 1
            length = j - i + 1
            if length > MAX_FUNCTION_LINES:
                found.append((i + 1, length, lines[i].strip()))
            i = j
        i += 1
    return found


def check(root):
    problems = []
    sources = sorted(glob.glob(os.path.join(root, "jit", "**", "*.cc"), recursive=True) +
                     glob.glob(os.path.join(root, "jit", "**", "*.h"), recursive=True))
    for path in sources:
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        for line, length, first in long_functions(rel, lines):
            problems.append("%s:%d: a function of %d lines (at most %d): %s"
                            % (rel, line, length, MAX_FUNCTION_LINES, first[:60]))
        if len(lines) > MAX_FILE_LINES:
            problems.append("%s: %d lines (at most %d)" % (rel, len(lines), MAX_FILE_LINES))
    for p in problems:
        print(p)
    print("layout: %d file(s) in jit/, %d over the limits" % (len(sources), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.exit(check(sys.argv[1] if len(sys.argv) > 1 else here))
