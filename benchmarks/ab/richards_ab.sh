#!/usr/bin/env bash
# Richards, nojit (A) against jitlist (B), natively under qemu-aarch64, interleaved.
# Usage: benchmarks/ab/richards_ab.sh [RUNS] [B_MODE]   (B_MODE: jitlist or autojit=N)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-10}
mode=${2:-jitlist}
bazel build --config=aarch64 //benchmarks/richards:richards_benchmark >&2
bin=bazel-bin/benchmarks/richards/richards_benchmark
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$bin" "$tmp/"
cp benchmarks/richards/richards.py "$tmp/"
run="env RICHARDS_PY=$tmp/richards.py qemu-aarch64 -cpu ${A64JIT_QEMU_CPU:-neoverse-n1} \
$tmp/richards_benchmark --benchmark_format=json --benchmark_min_time=2"
if [ "${mode#autojit=}" != "$mode" ]; then run="env A64JIT_AUTOJIT=${mode#autojit=} $run"; fi
exec /usr/bin/python3.11 benchmarks/ab/ab.py --runs "$runs" --label-a nojit --label-b "$mode" \
  --a "$run --benchmark_filter=richards/nojit\$" --b "$run --benchmark_filter=richards/${mode}\$"
