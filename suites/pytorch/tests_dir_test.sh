#!/usr/bin/env bash
# A64JIT_PYTORCH_TESTS, the one setting that points //suites/pytorch at another PyTorch's
# test/ folder, is honoured: a module that exists only in a made-up folder runs from there on
# both sides (its one test is in the XML, and it passes), and a module missing from the
# folder fails with a message naming the path. And --qemu-ignore (modules.bzl's QEMU_IGNORE)
# leaves its test out under QEMU only: there the module passes without it, elsewhere the
# test runs (and, planted to fail, fails the module).
set -uo pipefail
suite_test=$1 runner=$2 a64jit=$3
tests=$(mktemp -d "${TEST_TMPDIR:-/tmp}/pytorch-tests.XXXXXX")
cat > "$tests/test_only_elsewhere.py" <<'PY'
def test_from_the_other_folder():
    assert sum(range(10)) == 45
PY
cat > "$tests/test_with_a_qemu_ignore.py" <<'PY'
class TestQemu:
    def test_runs_everywhere(self):
        pass

    def test_left_out_under_qemu(self):
        assert False, "planted: this test must be deselected under QEMU"
PY
run_module() {  # side, module [args] -> status; the XML in $xml, the log in $log
  local dir
  dir=$(mktemp -d "${TEST_TMPDIR:-/tmp}/run.XXXXXX")
  xml=$dir/test.xml log=$dir/log
  env A64JIT_PYTORCH_TESTS="$tests" TEST_TMPDIR="$dir" TEST_UNDECLARED_OUTPUTS_DIR="$dir/out" \
    XML_OUTPUT_FILE="$xml" bash "$suite_test" pytorch "$1" "$2" "$runner" "$a64jit" "${@:3}" \
    >"$log" 2>&1
}
source ci/check.sh
for side in stock jit; do
  run_module "$side" test_only_elsewhere
  status=$?
  check "$side: the module runs from A64JIT_PYTORCH_TESTS" \
    test "$status" = 0 -a "$(grep -c 'name="test_from_the_other_folder"' "$xml" 2>/dev/null)" = 1
  run_module "$side" test_missing_here
  status=$?
  check "$side: a module missing there fails, naming the path" \
    test "$status" != 0 -a "$(grep -c "$tests/test_missing_here.py is missing" "$log")" = 1
  run_module "$side" test_with_a_qemu_ignore --qemu-ignore=TestQemu::test_left_out_under_qemu
  status=$?
  ran=$(grep -c 'name="test_left_out_under_qemu"' "$xml" 2>/dev/null)
  if [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
    check "$side: under QEMU the ignored test is left out" test "$status" = 0 -a "$ran" = 0
  else
    check "$side: off QEMU the ignored test runs" test "$status" != 0 -a "$ran" = 1
  fi
done
check_summary
