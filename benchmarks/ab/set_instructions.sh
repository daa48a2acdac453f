#!/usr/bin/env bash
# The benchmark set's second, deterministic figure: guest instructions per round under
# qemu-aarch64 (benchmarks/qemu_profile's plugin), stock (a64jit-run --no-jit) against the
# JIT (--threshold=0). Each side runs every program with 2 and with 6 rounds at its own size,
# and the difference / 4 is one round without start-up or compiling. Prints one table with
# the stock/JIT ratio per program and their geometric mean. QEMU overstates what fewer
# indirect branches gain on hardware; the table gives them too. It also gives translation
# blocks executed: QEMU ends a block at every branch, and each one costs about as much as
# three simple instructions there (a not-taken cbz measured at ~1 ns, an add at ~0.3 ns),
# so time under QEMU follows blocks as much as instructions; hardware predicts such
# branches almost for free.
#
# It also says how much a JIT could gain at most on each program: the stock side's
# instructions in _PyEval_EvalFrameDefault (the interpreter loop, which compiled code
# replaces) and the ratio if compiled code took no instructions at all, stock / (stock -
# interpreter). The rest (objects, dicts, sorting, C calls) runs the same C code on both
# sides. Library code is attributed to the nearest exported symbol, so the interpreter's
# share is approximate: static helpers of ceval.c may land elsewhere.
# A64JIT_SET_THRESHOLD=T compiles each function on its call T + 1 instead of the first (T >= 8:
# with 3.11's type feedback, jit/hir/feedback.h).
# Usage: benchmarks/ab/set_instructions.sh [PROGRAM...]   (default: every program)
set -euo pipefail
cd "$(dirname "$0")/../.."
bazel build //benchmarks/qemu_profile:tb_profile.so >&2
plugin_built=bazel-out/k8-fastbuild/bin/benchmarks/qemu_profile/tb_profile.so
bazel build --config=aarch64 //jit/python:a64jit-run >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source benchmarks/ab/set_programs.sh
cp "$plugin_built" bazel-out/aarch64-fastbuild/bin/jit/python/a64jit-run "$tmp/"
copy_set "$tmp"
run="qemu-aarch64 -cpu ${A64JIT_QEMU_CPU:-neoverse-n1}"
set_names "$tmp" "$@"
for p in "${programs[@]}"; do
  for side in stock jit; do
    flag=--no-jit
    [ "$side" = jit ] && flag=--threshold=${A64JIT_SET_THRESHOLD:-0}
    for rounds in 2 6; do
      $run -plugin "$tmp/tb_profile.so,out=$tmp/$p.$side.$rounds" "$tmp/a64jit-run" $flag \
        "$tmp/$p.py" - "$rounds" >/dev/null
    done
    benchmarks/qemu_profile/report.py "$tmp/$p.$side.6" --base "$tmp/$p.$side.2" --per 4 \
      --top 60 >"$tmp/$p.$side.txt"
  done
  echo "== $p: $(head -1 "$tmp/$p.stock.txt") / $(head -1 "$tmp/$p.jit.txt")" >&2
done
/usr/bin/python3.11 - "$tmp" "${programs[@]}" <<'PY'
import math, re, sys
tmp, programs = sys.argv[1], sys.argv[2:]
def figures(path):
    text = open(path).read()
    return [int(re.search(name + r" (-?\d+)", text).group(1))
            for name in ("guest instructions", "blocks", "indirect branches")]
def instructions_in(path, pattern):
    """Guest instructions of the report's functions whose name matches `pattern`."""
    rows = open(path).read().splitlines()[2:]
    return sum(int(r.split()[0]) for r in rows if re.search(pattern, r))
print("| program | stock instr./round | JIT instr./round | stock/JIT | stock in the interpreter "
      "| at most | JIT in compiled code | stock indirect | JIT indirect | blocks stock/JIT |")
print("|---|---|---|---|---|---|---|---|---|---|")
ratios, ceilings, block_ratios = [], [], []
for p in programs:
    stock, jit = f"{tmp}/{p}.stock.txt", f"{tmp}/{p}.jit.txt"
    (si, sk, sb), (ji, jk, jb) = figures(stock), figures(jit)
    block_ratios.append(sk / jk)
    interp = instructions_in(stock, r":_PyEval_EvalFrameDefault$")
    compiled = instructions_in(jit, r"\[anonymous ")
    ratios.append(si / ji)
    ceilings.append(si / (si - interp))
    print(f"| {p} | {si / 1e6:.1f} M | {ji / 1e6:.1f} M | {si / ji:.3f} | {100 * interp / si:.0f}% "
          f"| {ceilings[-1]:.2f} | {compiled / 1e6:.1f} M | {sb / 1e6:.2f} M | {jb / 1e6:.2f} M "
          f"| {block_ratios[-1]:.3f} |")
mean = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("| geometric mean | | | %.3f | | %.2f | | | | %.3f |" % (mean(ratios), mean(ceilings),
                                                        mean(block_ratios)))
PY
