#!/usr/bin/env bash
# Runs compile_time.py under a64jit-run with compiling on calls switched off (a JIT list
# that matches nothing), so that only its force_compile calls compile. Bazel starts it in
# the runfiles tree. In --config=aarch64, a64jit-run is an aarch64 binary started through
# $A64JIT_TARGET_RUNNER (qemu-aarch64 and its options).
set -euo pipefail
read -ra prefix <<<"${A64JIT_TARGET_RUNNER:-}"
exec "${prefix[@]}" jit/python/a64jit-run --jitlist=-:- benchmarks/compile_time/compile_time.py "$@"
