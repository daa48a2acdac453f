#!/usr/bin/env bash
# The Python corpus (and Richards), each program run by the interpreter and with every
# function compiled on its first call, compared. In --config=aarch64, a64jit-run is an
# aarch64 binary that pydiff.py starts through $A64JIT_TARGET_RUNNER (qemu-aarch64).
# Also compares `a64jit-run --no-jit` with Debian's /usr/bin/python3.11, so the reference
# is stock CPython.
set -euo pipefail
exec /usr/bin/python3.11 difftest/python/pydiff.py \
  --runner jit/python/a64jit-run --stock /usr/bin/python3.11 \
  difftest/python/corpus/*.py benchmarks/richards/richards.py
