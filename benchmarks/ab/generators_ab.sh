#!/usr/bin/env bash
# The generator workload (benchmarks/generators/generators.py): the stock interpreter (A,
# a64jit-run --no-jit) against the JIT (B, every function compiled on its first call),
# natively under qemu-aarch64, interleaved. Both sides are the same aarch64 binary.
# Usage: benchmarks/ab/generators_ab.sh [RUNS] [N] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-10}
n=${2:-20000}
rounds=${3:-15}
bazel build --config=aarch64 //jit/python:a64jit-run >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp bazel-bin/jit/python/a64jit-run benchmarks/generators/generators.py "$tmp/"
run="qemu-aarch64 -cpu ${A64JIT_QEMU_CPU:-neoverse-n1} $tmp/a64jit-run"
prog="$tmp/generators.py $n $rounds"
# The JIT side's compiled share, once, for the record (stderr).
$run --threshold=0 --stats $prog 2>&1 >/dev/null | grep -E "compiled (share|entries)" >&2
exec /usr/bin/python3.11 benchmarks/ab/ab.py --runs "$runs" --label-a stock --label-b jit \
  --metric 'regex:time=([0-9.]+)' --a "$run --no-jit $prog" --b "$run --threshold=0 $prog"
