"""Counts what compiled code is made of, over the dumps of A64JIT_DUMP_DIR.

    census.py DUMP_DIR [--top N]

Each file of DUMP_DIR is one compiled function's dump (jit/python/jit.cc WriteDump): its
decisions, then `=== hir ===`, `=== lir ===` and `=== asm ===`. The shared stubs' dumps
(WriteStubDump, `function: a64jit:stub:...`) are skipped: they are not any function's code. The census prints:
- how many functions and instructions (the asm's addressed lines, literal words included);
- the most frequent pairs of neighbouring instructions, immediates written `#` and
  addresses past 16 bits `@`, so that one shape of site counts as one pair;
- the stores of `prev_instr` (LIR `store.ptr %v, [%1 + 56]`: %1 is the frame, 56 the field's
  offset, docs/cpython311.md), by what follows them: the callee of the next call in the
  block, or the block's end;
- the calls that pass the frame (%1) as their first argument, by callee.

This is how benchmarks/code_size/README.md chose its changes: a figure for what a change
can remove before it is made.
"""

import argparse
import collections
import os
import re
import sys

ADDRESSED = re.compile(r"^[0-9a-f]{4,}: (.*)$")
PREV_INSTR_STORE = re.compile(r"store\.ptr %\d+, \[%1 \+ 56\]")
NEXT_CALL = re.compile(r"call @(\w+)|^\s*(ret|jmp|br|tailcall)\b")
FRAME_FIRST = re.compile(r"call @(\w+)\(%1[,)]")


def sections(text):
    """The dump's sections by name ('hir', 'lir', 'asm'); missing ones are empty."""
    found = {}
    parts = re.split(r"^=== (\w+) ===$", text, flags=re.M)
    for name, body in zip(parts[1::2], parts[2::2]):
        found[name] = body
    return found


def normalise(instruction):
    instruction = re.sub(r"#0x[0-9a-f]{5,}", "@", instruction)
    return re.sub(r"#-?0x[0-9a-f]+|#-?\d+", "#", instruction)


def count(dump_dir):
    totals = collections.Counter()
    pairs = collections.Counter()
    prev_instr = collections.Counter()
    frame_first = collections.Counter()
    for name in sorted(os.listdir(dump_dir)):
        with open(os.path.join(dump_dir, name), encoding="utf-8", errors="replace") as f:
            text = f.read()
        parts = sections(text)
        if "asm" not in parts or text.startswith("function: a64jit:stub:"):
            continue  # the shared stubs' dumps (jit.cc WriteStubDump): not a function's code
        totals["functions"] += 1
        asm = [normalise(m.group(1)) for m in map(ADDRESSED.match, parts["asm"].splitlines()) if m]
        totals["instructions"] += len(asm)
        pairs.update(" ; ".join(asm[i : i + 2]) for i in range(len(asm) - 1))
        lir = parts.get("lir", "").splitlines()
        for i, line in enumerate(lir):
            if PREV_INSTR_STORE.search(line):
                prev_instr[next_call(lir[i + 1 :])] += 1
            call = FRAME_FIRST.search(line)
            if call:
                frame_first[call.group(1)] += 1
    return totals, pairs, prev_instr, frame_first


def next_call(lines):
    """The callee of the first call in `lines` before the block ends, or how it ends."""
    for line in lines:
        m = NEXT_CALL.search(line)
        if m:
            return m.group(1) or "(" + m.group(2) + ")"
    return "(end)"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump_dir")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args(argv)
    if not os.path.isdir(args.dump_dir):
        print(f"census: {args.dump_dir}: not a directory", file=sys.stderr)
        return 2
    totals, pairs, prev_instr, frame_first = count(args.dump_dir)
    if totals["functions"] == 0:
        print(f"census: {args.dump_dir}: no dump with an asm section", file=sys.stderr)
        return 1
    n = totals["instructions"]
    print(f"functions {totals['functions']}, instructions {n}")
    print(f"\nmost frequent pairs ({args.top}):")
    for pair, c in pairs.most_common(args.top):
        print(f"  {c:8d} {100.0 * c / n:5.2f}%  {pair}")
    print(f"\nprev_instr stores {sum(prev_instr.values())}, by what follows:")
    for callee, c in prev_instr.most_common(args.top):
        print(f"  {c:8d}  {callee}")
    print(f"\ncalls passing the frame first {sum(frame_first.values())}, by callee:")
    for callee, c in frame_first.most_common(args.top):
        print(f"  {c:8d}  {callee}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
