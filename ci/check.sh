# Sourced by shell tests: `check NAME CONDITION...` runs CONDITION, prints "PASS NAME" or
# "FAIL NAME" (and, on a failure, the last lines of $log when the test set it), and counts;
# `check_summary` prints "N passed, N failed" and returns non-zero if any check failed.
check_passed=0
check_failed=0
check() {
  local name=$1
  shift
  if "$@"; then
    check_passed=$((check_passed + 1))
    echo "PASS $name"
  else
    check_failed=$((check_failed + 1))
    echo "FAIL $name"
    if [ -n "${log:-}" ] && [ -f "$log" ]; then sed 's/^/    /' "$log" | tail -n 15; fi
  fi
}
check_summary() {
  echo "$check_passed passed, $check_failed failed"
  [ "$check_failed" = 0 ]
}
