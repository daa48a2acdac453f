#!/usr/bin/env bash
# The benchmark set (benchmarks/programs/*.py and generators/generators.py): each program
# stock (A, a64jit-run --no-jit) against the JIT (B, every function compiled on its first
# call), natively under qemu-aarch64, interleaved (ab.py), then one table: per program the
# medians, the ratio and its 95% CI, and the geometric mean of the ratios. Also the ratio of
# each side's fastest run: on a shared host whose runs slow down by up to 2x at times (other
# tenants; seen here), noise only ever adds time, so the fastest run is the least disturbed.
# A64JIT_SET_THRESHOLD=T compiles each function on its call T + 1 instead (T >= 8: with 3.11's
# type feedback, jit/hir/feedback.h).
# Usage: benchmarks/ab/set_ab.sh [RUNS] [PROGRAM...]   (default: 5 runs, every program)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
shift || true
bazel build --config=aarch64 //jit/python:a64jit-run >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source benchmarks/ab/set_programs.sh
cp bazel-out/aarch64-fastbuild/bin/jit/python/a64jit-run "$tmp/"
copy_set "$tmp"
run="qemu-aarch64 -cpu ${A64JIT_QEMU_CPU:-neoverse-n1} $tmp/a64jit-run"
threshold=--threshold=${A64JIT_SET_THRESHOLD:-0}
set_names "$tmp" "$@"
for p in "${programs[@]}"; do
  echo "== $p" >&2
  # The JIT side's compiled share, once, for the record.
  $run $threshold --stats "$tmp/$p.py" 2>&1 >/dev/null | grep -E "compiled share" >&2 || true
  /usr/bin/python3.11 benchmarks/ab/ab.py --runs "$runs" --label-a stock --label-b jit \
    --metric 'regex:time=([0-9.]+)' --json "$tmp/$p.json" \
    --a "$run --no-jit $tmp/$p.py" --b "$run $threshold $tmp/$p.py" >&2
done
/usr/bin/python3.11 - "$tmp" "${programs[@]}" <<'PY'
import json, math, sys
tmp, programs = sys.argv[1], sys.argv[2:]
print("| program | stock ms | JIT ms | stock/JIT | 95% CI | stock/JIT of the fastest runs |\n"
      "|---|---|---|---|---|---|")
ratios, fastest = [], []
for p in programs:
    s = json.load(open(f"{tmp}/{p}.json"))
    ratios.append(s["ratio_of_medians"])
    fastest.append(s["a"]["min"] / s["b"]["min"])
    print("| %s | %.2f | %.2f | %.3f | [%.3f, %.3f] | %.3f |" % (
        p, s["a"]["median"], s["b"]["median"], s["ratio_of_medians"], *s["ratio_ci95"],
        fastest[-1]))
mean = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("| geometric mean | | | %.3f | | %.3f |" % (mean(ratios), mean(fastest)))
PY
