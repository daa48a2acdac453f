"""Checks that a64jit-run --help, the README's options table and the sources agree: every
--option and A64JIT_* variable in --help is in the table and the other way round, and every
A64JIT_* variable a source reads (getenv, KnobSet, KnobNumber) is in --help.
Usage: options_doc_check.py HELP_TEXT README.md SOURCE... Prints PASS or FAIL with the
differences; exit 1 on FAIL."""

import re
import sys

NAME = re.compile(r"(?<![\w-])(--[a-z][a-z-]*|A64JIT_[A-Z0-9_]+)")
READ = re.compile(r"(?:getenv|KnobSet|KnobNumber)\(\"(A64JIT_[A-Z0-9_]+)\"")
# What --help mentions that is not a64jit-run's: perf's own option.
NOT_OURS = {"--help", "--jit"}


def table_names(readme):
    """The names in the first column of the README's "a64jit-run options" table."""
    text = open(readme).read()
    start = text.find("| option | environment |")
    if start < 0:
        sys.exit("FAIL %s has no '| option | environment |' table" % readme)
    names = set()
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = line.split("|")
        names |= set(NAME.findall(cells[1] + cells[2]))
    return names


def main():
    help_names = set(NAME.findall(open(sys.argv[1]).read())) - NOT_OURS
    readme_names = table_names(sys.argv[2])
    read = set()
    for path in sys.argv[3:]:
        if not path.endswith("_test.cc"):
            read |= set(READ.findall(open(path, errors="replace").read()))
    problems = []
    if help_names - readme_names:
        problems.append("in --help, not in the README's table: %s" % sorted(help_names - readme_names))
    if readme_names - help_names:
        problems.append("in the README's table, not in --help: %s" % sorted(readme_names - help_names))
    if read - help_names:
        problems.append("read by the sources, not in --help: %s" % sorted(read - help_names))
    if not read:
        problems.append("no source reads any A64JIT_ variable: wrong arguments?")
    print(("FAIL --help, README and sources agree on options: " + "; ".join(problems)) if problems
          else "PASS --help, README and sources agree on %d options and variables" % len(help_names))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
