"""Checks the compiled size of each function in budgets.txt against its budget.

Each function is compiled alone (`--jitlist`, `--threshold=0`) in a run of its program, and
its size read from the run's JSON statistics (`code_bytes`, with `compiled` == 1 as the proof
that the JIT compiled it). A function written `NAME@T` is compiled on its call T + 1 instead
(`--threshold=T`), after 3.11 quickened it: with type feedback (jit/hir/feedback.h) when T is
at least 9; such a row also needs `feedback_sites` > 0. Prints a table of size, budget, goal and CinderX's figure, and
exits 1 if a function is over its budget, did not compile, or its program failed.

Usage: code_size.py --runner A64JIT_RUN [--budgets FILE] [--programs DIR]
(A64JIT_TARGET_RUNNER, e.g. "qemu-aarch64 -cpu neoverse-n1", runs an aarch64 runner.)
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def read_budgets(path):
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) != 5:
                raise SystemExit(f"{path}:{number}: expected 5 fields, got {len(fields)}")
            program, function = fields[0], fields[1]
            try:
                budget, goal, cinderx = (int(x) for x in fields[2:])
            except ValueError:
                raise SystemExit(f"{path}:{number}: budget, goal and CinderX must be integers")
            rows.append((program, function, budget, goal, cinderx))
    return rows


def measure(runner, program_path, function):
    """(code bytes, compiled count, feedback sites) of `function` compiled alone, or an error
    string."""
    function, _, threshold = function.partition("@")
    threshold = int(threshold or 0)
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        prefix = shlex.split(os.environ.get("A64JIT_TARGET_RUNNER", ""))
        cmd = prefix + [runner, f"--threshold={threshold}", f"--jitlist={function}",
                        f"--stats-file={stats}", program_path]
        if program_path.endswith("richards.py"):
            cmd.append("1")
        elif program_path.endswith("sqrt200.py"):
            cmd.append(str(threshold + 1))  # calls: the last one runs compiled
        run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             timeout=600)
        if run.returncode != 0:
            signal = f" (signal {-run.returncode})" if run.returncode < 0 else ""
            return f"exit status {run.returncode}{signal}: {run.stderr.strip()[-300:]}"
        try:
            with open(stats) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            return f"no statistics: {e}"
        return data["code_bytes"], data["compiled"], data["feedback_sites"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runner", required=True)
    parser.add_argument("--budgets", default=os.path.join(HERE, "budgets.txt"))
    parser.add_argument("--programs", action="append", default=[],
                        help="a directory holding the programs (repeatable)")
    args = parser.parse_args()
    dirs = args.programs or [HERE]
    failures = 0
    print("| function | bytes | budget | goal | CinderX aarch64 | bytes / goal |")
    print("|---|---|---|---|---|---|")
    for program, function, budget, goal, cinderx in read_budgets(args.budgets):
        path = next((os.path.join(d, program) for d in dirs
                     if os.path.exists(os.path.join(d, program))), None)
        if path is None:
            print(f"FAIL {function}: {program} not found in {dirs}")
            failures += 1
            continue
        result = measure(args.runner, path, function)
        if isinstance(result, str):
            print(f"FAIL {function}: {result}")
            failures += 1
            continue
        size, compiled, feedback_sites = result
        print(f"| {function} | {size:,} | {budget:,} | {goal:,} | {cinderx:,} | "
              f"{size / goal:.2f} |")
        if compiled != 1:
            print(f"FAIL {function}: compiled {compiled} functions, expected 1")
            failures += 1
        elif "@" in function and feedback_sites == 0:
            print(f"FAIL {function}: compiled without type feedback (feedback_sites 0)")
            failures += 1
        elif size > budget:
            print(f"FAIL {function}: {size:,} B is over its budget of {budget:,} B")
            failures += 1
    print(f"code size: {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
