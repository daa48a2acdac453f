#!/usr/bin/env bash
# Code-size budgets (budgets.txt): each function compiled alone, its size against its budget.
# In --config=aarch64, a64jit-run is an aarch64 binary started through
# $A64JIT_TARGET_RUNNER (qemu-aarch64).
set -euo pipefail
exec /usr/bin/python3.11 benchmarks/code_size/code_size.py --runner jit/python/a64jit-run \
  --programs benchmarks/code_size --programs benchmarks/richards
