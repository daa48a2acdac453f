#!/usr/bin/env bash
# A fixed-seed batch of random Python programs, interpreter vs JIT (pyfuzz.py). A mismatch
# is shrunk and both programs are kept in the test's undeclared outputs.
set -euo pipefail
exec /usr/bin/python3.11 difftest/python/pyfuzz.py \
  --runner jit/python/a64jit-run --seed 2026 --count 20
