#!/usr/bin/env bash
# The benchmark set's second, deterministic figure: guest instructions per round under
# qemu-aarch64 (benchmarks/qemu_profile's plugin), stock (a64jit-run --no-jit) against the
# JIT (--threshold=0). Each side runs every program with 2 and with 6 rounds at its own size,
# and the difference / 4 is one round without start-up or compiling. Prints one table with
# the stock/JIT ratio per program and their geometric mean. QEMU overstates what fewer
# indirect branches gain on hardware; the table gives them too.
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
    [ "$side" = jit ] && flag=--threshold=0
    for rounds in 2 6; do
      $run -plugin "$tmp/tb_profile.so,out=$tmp/$p.$side.$rounds" "$tmp/a64jit-run" $flag \
        "$tmp/$p.py" - "$rounds" >/dev/null
    done
    benchmarks/qemu_profile/report.py "$tmp/$p.$side.6" --base "$tmp/$p.$side.2" --per 4 \
      --top 0 | head -1 >"$tmp/$p.$side.txt"
  done
  echo "== $p: $(cat "$tmp/$p.stock.txt") / $(cat "$tmp/$p.jit.txt")" >&2
done
/usr/bin/python3.11 - "$tmp" "${programs[@]}" <<'PY'
import math, re, sys
tmp, programs = sys.argv[1], sys.argv[2:]
def figures(path):
    text = open(path).read()
    return [int(re.search(name + r" (-?\d+)", text).group(1))
            for name in ("guest instructions", "blocks", "indirect branches")]
print("| program | stock instr./round | JIT instr./round | stock/JIT | stock indirect | JIT indirect |")
print("|---|---|---|---|---|---|")
ratios = []
for p in programs:
    (si, _, sb), (ji, _, jb) = figures(f"{tmp}/{p}.stock.txt"), figures(f"{tmp}/{p}.jit.txt")
    ratios.append(si / ji)
    print(f"| {p} | {si / 1e6:.1f} M | {ji / 1e6:.1f} M | {si / ji:.3f} | {sb / 1e6:.2f} M | {jb / 1e6:.2f} M |")
print("| geometric mean | | | %.3f | | |" % math.exp(sum(map(math.log, ratios)) / len(ratios)))
PY
