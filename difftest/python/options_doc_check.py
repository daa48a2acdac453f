"""Checks that the README's options table is the one options.h's table makes (options_table),
and that every A64JIT_* variable a source reads (getenv, KnobSet, KnobNumber) is in it; --help
is made from the same table.
Usage: options_doc_check.py TABLE README.md SOURCE...   (TABLE: options_table's output)
Prints PASS or FAIL with the differences; exit 1 on FAIL."""

import difflib
import re
import sys

READ = re.compile(r"(?:getenv|KnobSet|KnobNumber)\(\"(A64JIT_[A-Z0-9_]+)\"")
VARIABLE = re.compile(r"A64JIT_[A-Z0-9_]+")


def readme_table(readme, header):
    """The lines of the README's table that starts with `header`, or None."""
    lines = open(readme).read().splitlines()
    if header not in lines:
        return None
    start = lines.index(header)
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return lines[start:end]


def main():
    table = open(sys.argv[1]).read().splitlines()
    readme = readme_table(sys.argv[2], table[0])
    read = set()
    for path in sys.argv[3:]:
        if not path.endswith("_test.cc"):
            read |= set(READ.findall(open(path, errors="replace").read()))
    problems = []
    if readme is None:
        problems.append("%s has no table starting %r" % (sys.argv[2], table[0]))
    elif readme != table:
        diff = "\n".join(difflib.unified_diff(readme, table, "README", "options_table",
                                              lineterm="", n=0))
        problems.append("the README's table is not options_table's (bazel run "
                        "//jit/python:options_table -- --update jit/python/README.md):\n" + diff)
    listed = {m.group(0) for row in table for m in VARIABLE.finditer(row.split("|")[2])
              if len(row.split("|")) > 2}
    if read - listed:
        problems.append("read by the sources, not in the table: %s" % sorted(read - listed))
    if not read:
        problems.append("no source reads any A64JIT_ variable: wrong arguments?")
    print(("FAIL options table: " + "; ".join(problems)) if problems
          else "PASS README's table is options_table's; the %d variables the sources read are in it"
          % len(read))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
