#!/usr/bin/env bash
# suite_test.sh with A64JIT_SUITE_RECORD=1 (how ci/nightly.sh runs the suites, so that a
# finished module is cached and a stopped night resumes): a module whose tests ran passes
# even where one of them failed, and says so; without the setting it fails. A crash, and a
# module that ran no test, still fail.
set -uo pipefail
suite_test=$1 runner=$2 a64jit=$3
tests=$(mktemp -d "${TEST_TMPDIR:-/tmp}/record.XXXXXX")
cat > "$tests/test_one_fails.py" <<'PY'
def test_passes():
    pass

def test_fails():
    assert 1 + 1 == 3, "a failure the comparison judges"
PY
cat > "$tests/test_crashes.py" <<'PY'
import os, signal

def test_crashes():
    os.kill(os.getpid(), signal.SIGSEGV)
PY
cat > "$tests/test_none.py" <<'PY'
def helper():
    pass
PY
run_module() {  # side, module, record (1 or empty) -> status; the log in $log
  local dir
  dir=$(mktemp -d "${TEST_TMPDIR:-/tmp}/run.XXXXXX")
  log=$dir/log
  env A64JIT_SUITE_RECORD="$3" TEST_TMPDIR="$dir" TEST_UNDECLARED_OUTPUTS_DIR="$dir/out" \
    XML_OUTPUT_FILE="$dir/test.xml" bash "$suite_test" pytest "$1" "$tests/$2.py" "$runner" \
    "$a64jit" >"$log" 2>&1
}
source ci/check.sh
for side in stock jit; do
  run_module "$side" test_one_fails ""
  check "$side: a failed test fails the module" test $? != 0
  run_module "$side" test_one_fails 1
  status=$?
  check "$side: recorded, a failed test leaves the module passing" \
    test "$status" = 0 -a "$(grep -c 'recorded for the nightly' "$log")" = 1
  run_module "$side" test_crashes 1
  status=$?
  check "$side: recorded, a crash fails with its signal" \
    test "$status" != 0 -a "$(grep -c 'crashed: SIGSEGV' "$log")" = 1
  run_module "$side" test_none 1
  check "$side: recorded, a module that ran no test fails" test $? != 0
done
check_summary
