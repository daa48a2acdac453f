#!/usr/bin/env bash
# The x86 CI gate: every test in the host config (emitted aarch64 code runs under Unicorn),
# then every test cross-compiled with --config=aarch64 and run under qemu-aarch64, then the
# compiler's own tests (HIR, lowering, LIR, goldens: no emulator, whose internals
# emulation/unicorn_dirty_tlb.cc scans past object bounds on purpose) under
# AddressSanitizer (--config=asan).
# The real suites (//suites/...) are the nightly's; the gate runs their slice,
# //suites:gate_slice. Prints the counts per config and ends with one line
# `N passed, N failed, N skipped` summed over all three. Exits non-zero on any failed test, crash, build error, or a config with no tests.
#
# Usage: ci/gate.sh [extra bazel test flags]     e.g. ci/gate.sh --test_filter=Asmjit.*
set -uo pipefail
cd "$(dirname "$0")/.."

PY=/usr/bin/python3.11
if [ ! -x "$PY" ] || ! command -v bazel >/dev/null 2>&1; then
  echo "gate: Debian's python3.11 or bazel is missing; run ci/setup.sh first" >&2
  exit 2
fi

out_dir=$(mktemp -d /tmp/a64jit-gate.XXXXXX)
trap 'rm -rf "$out_dir"' EXIT
total_passed=0
total_failed=0
total_skipped=0
start=$(date +%s)

run_config() {
  local name=$1
  shift
  local log="$out_dir/$name.log"
  echo "=== gate: $name: bazel test $* ${TARGETS[*]}"
  local t0=$(date +%s)
  bazel test "$@" --keep_going --test_summary=short "${EXTRA[@]}" -- "${TARGETS[@]}" 2>&1 | tee "$log" |
    grep -E '^(//|ERROR:|Executed|FAIL)' | sed 's/^/  /'
  local rc=${PIPESTATUS[0]}
  local testlogs
  testlogs=$(bazel info "$@" bazel-testlogs 2>/dev/null)
  "$PY" ci/count_results.py --config "$name" --summary "$log" --testlogs "$testlogs" \
    --bazel-exit "$rc" >"$out_dir/$name.counts"
  grep -v '^COUNTS ' "$out_dir/$name.counts"
  echo "  ($name took $(($(date +%s) - t0)) s)"
  read -r _ p f s < <(grep '^COUNTS ' "$out_dir/$name.counts")
  total_passed=$((total_passed + p))
  total_failed=$((total_failed + f))
  total_skipped=$((total_skipped + s))
}

EXTRA=("$@")
TARGETS=(//... -//suites/... //suites:gate_slice)
run_config host
run_config aarch64 --config=aarch64
TARGETS=(//jit/hir/... //jit/lower/... //jit/lir/... //golden/... //difftest/lir:liveness_test)
run_config asan --config=asan

echo "=== gate: all configs in $(($(date +%s) - start)) s"
echo "${total_passed} passed, ${total_failed} failed, ${total_skipped} skipped"
[ "$total_failed" -eq 0 ]
