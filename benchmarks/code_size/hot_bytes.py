"""How much of each compiled function's code runs, from a qemu_profile profile.

    hot_bytes.py PROFILE PERF_MAP [--hot N] [--dump-dir DIR] [--mix] [--base BASE] [NAME ...]

PROFILE is what `../qemu_profile`'s plugin writes (a line per translated block: its guest
address, its instruction count, how often it ran, its last instruction); PERF_MAP is the
map `a64jit-run --perf-map` writes (`/tmp/perf-PID.map`: start, size in hex, name). Each
instruction's count is the sum over the blocks that cover it, so a block translated twice
counts once per run of either copy. For each compiled function (NAME: only the functions
whose names end with one of these) it prints its bytes, the bytes that ran at least once,
and the bytes that ran N times or more (`--hot`, default 100). With `--dump-dir` (the run's
`A64JIT_DUMP_DIR`), also how many of those hot bytes are increfs and decrefs, found by their
instruction pattern in the function's `=== asm ===` section.

With `--mix` (which needs `--dump-dir`) it prints instead what the instructions that ran were,
weighted by their runs: increfs, decrefs, the entry and exit (the saves, restores and frame
setup around the body), calls, branches, compares, loads, stores, moves and the rest; then
the instructions each shared stub ran (`a64jit:stub:...`), against the compiled functions'
total. `--base` subtracts a profile of the same run doing less (QEMU places code at the same
addresses when both run under `setarch -R` with PYTHONHASHSEED fixed), for a warm window.

README.md's last section measured Richards' functions with it: the code that runs is already
over their goals, so no placement of cold code can meet them.
"""

import argparse
import bisect
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "qemu_profile"))
from census import ADDRESSED, sections  # noqa: E402 (this folder's dump reader)
from report import load_perf_map, load_profile  # noqa: E402 (the profile's own readers)

LOAD = re.compile(r"^ldr (x\d+), \[(x\d+)\]$")


def fail(message, status):
    print(f"hot_bytes: {message}", file=sys.stderr)
    sys.exit(status)


def compiled_functions(perf_map):
    """[(start, end, name)] of the map's compiled functions (stubs, `a64jit:stub:`, left out)."""
    return [(start, end, name[len("a64jit:"):]) for start, end, name in load_perf_map(perf_map)
            if name.startswith("a64jit:") and not name.startswith("a64jit:stub:")]


def stub_functions(perf_map):
    """[(start, end, name)] of the map's shared stubs (`a64jit:stub:`), named without that."""
    return [(start, end, name[len("a64jit:stub:"):]) for start, end, name in load_perf_map(perf_map)
            if name.startswith("a64jit:stub:")]


def instruction_runs(profile, functions, base=None):
    """Runs of each instruction address inside `functions` (sorted), from the profile's blocks,
    less those of the profile `base` when given."""
    starts = [start for start, _, _ in functions]
    counts = collections.Counter()
    blocks = load_profile(profile)
    if base is not None:
        blocks.subtract(load_profile(base))
    for (address, insns, _), runs in blocks.items():
        if runs <= 0:
            continue
        end = address + 4 * insns
        last = bisect.bisect_left(starts, end) - 1  # the last function starting before `end`
        if last >= 0 and functions[last][1] > address:
            for i in range(insns):
                counts[address + 4 * i] += runs
    return counts


def asm_lines(dump_path):
    """[(offset, instruction)] of a dump's asm."""
    with open(dump_path) as f:
        asm = sections(f.read()).get("asm", "")
    lines = []
    for line in asm.splitlines():
        m = ADDRESSED.match(line)
        if m:
            lines.append((int(line.split(":", 1)[0], 16), m.group(1)))
    return lines


def refcount_kinds(lines):
    """{offset: "incref" or "decref"} over asm `lines` (asm_lines): the increfs (ldr, add #1,
    str) and decrefs (ldr, sub #1, str, and the cbz/cbnz on the count when it follows)."""
    kinds = {}
    for i in range(len(lines) - 2):
        m = LOAD.match(lines[i][1])
        if not m:
            continue
        reg, base = m.groups()
        store = f"str {reg}, [{base}]"
        for op in ("add", "sub"):
            if lines[i + 1][1] == f"{op} {reg}, {reg}, #1" and lines[i + 2][1] == store:
                span = [lines[j][0] for j in range(i, i + 3)]
                after = lines[i + 3][1] if i + 3 < len(lines) else ""
                if op == "sub" and re.match(rf"cbn?z {reg}, ", after):
                    span.append(lines[i + 3][0])
                kinds.update((off, "incref" if op == "add" else "decref") for off in span)
    return kinds


def refcount_offsets(dump_path):
    """Offsets of the increfs and decrefs of a dump's asm (refcount_kinds)."""
    return set(refcount_kinds(asm_lines(dump_path)))


# The entry and exit of a compiled function: saving and restoring callee-saved registers and
# the frame record, setting up and dropping the stack frame, returning.
ENTRY_EXIT = re.compile(r"^(stp|ldp|stur|ldur) x(19|2[0-9]|30), .*\[(sp|x29)|^mov (x29, sp|sp, x29)$"
                        r"|^(sub|add) sp, sp, |^ret$")
KINDS = ("incref", "decref", "entry and exit", "call", "branch", "compare", "load", "store",
         "move", "other")


def instruction_kind(instruction):
    """What one instruction that is no incref or decref does, as a KINDS name."""
    op = instruction.split()[0]
    if ENTRY_EXIT.match(instruction):
        return "entry and exit"
    if op in ("bl", "blr"):
        return "call"
    if op.startswith("b.") or op in ("b", "br", "cbz", "cbnz", "tbz", "tbnz"):
        return "branch"
    if op in ("cmp", "cmn", "ccmp", "ccmn", "tst"):
        return "compare"
    if op.startswith(("ldr", "ldur", "ldp")):
        return "load"
    if op.startswith(("str", "stur", "stp")):
        return "store"
    if op in ("mov", "movz", "movk", "movn"):
        return "move"
    return "other"


def print_mix(functions, counts, dumps, stubs):
    """The --mix tables: the run instructions of `functions` by kind, then each stub's."""
    mix = collections.Counter()
    for start, end, name in functions:
        if name not in dumps:
            mix["no dump"] += sum(counts[a] for a in range(start, end, 4))
            continue
        lines = asm_lines(dumps[name])
        kinds = refcount_kinds(lines)
        for off, instruction in lines:
            kind = kinds.get(off) or instruction_kind(instruction)
            mix[kind] += counts[start + off]
    total = sum(mix.values())
    print("| kind | instructions run | share |")
    print("|---|---|---|")
    for kind in KINDS + (("no dump",) if mix["no dump"] else ()):
        print(f"| {kind} | {mix[kind]:,} | {100 * mix[kind] / total if total else 0:.1f}% |")
    print(f"| compiled functions | {total:,} | 100% |")
    print()
    print("| stub | instructions run | against the compiled functions' |")
    print("|---|---|---|")
    for start, end, name in stubs:
        ran = sum(counts[a] for a in range(start, end, 4))
        print(f"| {name} | {ran:,} | {100 * ran / total if total else 0:.1f}% |")


def dumps_by_function(dump_dir):
    """Each dump's path by its `function:` line (the last dump of a name wins)."""
    found = {}
    for name in sorted(os.listdir(dump_dir)):
        path = os.path.join(dump_dir, name)
        with open(path) as f:
            first = f.readline()
        if first.startswith("function: "):
            found[first[len("function: "):].strip()] = path
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("profile")
    ap.add_argument("perf_map")
    ap.add_argument("names", nargs="*", help="only functions whose names end with these")
    ap.add_argument("--hot", type=int, default=100, help="runs that make an instruction hot")
    ap.add_argument("--dump-dir", help="the run's A64JIT_DUMP_DIR, for the refcount split")
    ap.add_argument("--mix", action="store_true", help="the instructions run, by kind")
    ap.add_argument("--base", help="a profile of the same run doing less, subtracted")
    args = ap.parse_intermixed_args()
    if args.mix and not args.dump_dir:
        fail("--mix needs --dump-dir: the kinds are read from the dumps' asm", 2)
    for path in (args.profile, args.perf_map, args.dump_dir, args.base):
        if path is not None and not os.path.exists(path):
            fail(f"{path}: no such file or directory", 2)
    functions = [f for f in compiled_functions(args.perf_map)
                 if not args.names or any(f[2].endswith(n) for n in args.names)]
    if not functions:
        fail(f"no compiled function of {args.perf_map} matched {args.names or 'anything'}", 1)
    stubs = stub_functions(args.perf_map) if args.mix else []
    counts = instruction_runs(args.profile, sorted(functions + stubs), args.base)
    dumps = dumps_by_function(args.dump_dir) if args.dump_dir else {}
    if args.mix:
        return print_mix(functions, counts, dumps, stubs)
    header = f"| function | bytes | run at least once | run {args.hot} times or more |"
    print(header + (" of those, refcounts |" if args.dump_dir else ""))
    print("|---" * (5 if args.dump_dir else 4) + "|")
    for start, end, name in functions:
        runs = [counts[address] for address in range(start, end, 4)]
        ran = 4 * sum(1 for r in runs if r >= 1)
        hot = 4 * sum(1 for r in runs if r >= args.hot)
        row = f"| {name} | {end - start:,} | {ran:,} | {hot:,} |"
        if args.dump_dir:
            if name in dumps:
                rc = refcount_offsets(dumps[name])
                hot_rc = 4 * sum(1 for off in rc if counts[start + off] >= args.hot)
                row += f" {hot_rc:,} ({100 * hot_rc / hot if hot else 0:.0f}%) |"
            else:
                row += " no dump |"
        print(row)


if __name__ == "__main__":
    main()
