#!/usr/bin/env bash
# suite_test.sh under Bazel's --test_filter (how suites/rerun.py re-runs one regression):
# the filtered target runs that one test and passes, and a filter that matches no test
# fails instead of passing with nothing run.
set -uo pipefail
suite_test=$1 runner=$2 a64jit=$3
run_filtered() {  # side, filter -> status; the XML in $xml
  local dir
  dir=$(mktemp -d "${TEST_TMPDIR:-/tmp}/filter.XXXXXX")
  xml=$dir/test.xml
  env TESTBRIDGE_TEST_ONLY="$2" TEST_TMPDIR="$dir" TEST_UNDECLARED_OUTPUTS_DIR="$dir/out" \
    XML_OUTPUT_FILE="$xml" bash "$suite_test" regrtest "$1" test_augassign "$runner" "$a64jit" \
    >"$dir/log" 2>&1
}
source ci/check.sh
cases() { grep -o "<testcase " "$xml" 2>/dev/null | wc -l; }
for side in stock jit; do
  run_filtered "$side" test.test_augassign.AugAssignTest.testBasic
  status=$?
  check "$side: the filtered test alone passes" test "$status" = 0 -a "$(cases)" = 1
  run_filtered "$side" test.test_augassign.AugAssignTest.no_such_test
  status=$?
  check "$side: a filter that matches no test fails" test "$status" != 0
done
check_summary
