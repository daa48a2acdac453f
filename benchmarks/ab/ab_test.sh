#!/usr/bin/env bash
# ab.py's statistics and interleaving (host Python; ab.py never runs target binaries itself).
set -euo pipefail
exec /usr/bin/python3.11 benchmarks/ab/ab_test.py -v
