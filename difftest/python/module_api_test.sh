#!/usr/bin/env bash
# The a64jit module API (module_api_test.py): built into a64jit-run in every config, and as
# the a64jit.so extension in Debian's /usr/bin/python3.11 on x86-64 (in --config=aarch64 the
# extension is an aarch64 library and there is no aarch64 python3.11 to load it).
set -euo pipefail
runner=(${A64JIT_TARGET_RUNNER:-} jit/python/a64jit-run --no-jit)
echo "== built into a64jit-run"
"${runner[@]}" difftest/python/module_api_test.py
if [ -z "${A64JIT_TARGET_RUNNER:-}" ]; then
  echo "== extension module in /usr/bin/python3.11"
  PYTHONPATH=jit/python /usr/bin/python3.11 difftest/python/module_api_test.py
else
  echo "SKIP extension module in /usr/bin/python3.11: aarch64 extension, x86-64 interpreter"
fi
