#!/usr/bin/env bash
# What a user does after `bazel run //jit/python:install`: numpy's matrixlib tests in Debian's
# python3.11 with pytest, stock and with PYTHONJIT=1, compared per test by junit_compare: 0
# regressions, and the JIT's statistics (each file's functions compiled, and its compiled
# share) as proof that it ran; compiled code runs under Unicorn on x86-64. A few minutes.
set -euo pipefail
source ci/skip_test.sh
if [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
  skip_test install_numpy_test matrixlib "the aarch64 a64jit.so cannot load into the x86-64 python3.11"
fi
export HOME="$TEST_TMPDIR/home"
unset A64JIT_THRESHOLD A64JIT_JITLIST A64JIT_JITLIST_FILE PYTHONJIT PYTHONJITAUTO || true
jit/python/install > /dev/null
tests=$(/usr/bin/python3.11 -c 'import numpy, os; print(os.path.dirname(numpy.__file__))')/matrixlib
# As a user compares a suite stock and with the installed JIT: runner.py, one process per
# test file and side, then junit_compare (exit 0: no regression, the JIT's activity known).
/usr/bin/python3.11 difftest/junit/runner.py --out "$TEST_TMPDIR/out" \
  --stock-cmd "/usr/bin/python3.11 -m pytest -p no:cacheprovider" \
  --jit-cmd "/usr/bin/python3.11 -m pytest -p no:cacheprovider" --jit-env PYTHONJIT=1 \
  --jobs 2 "$tests"/tests/test_*.py
rc=0
difftest/junit/junit_compare "$TEST_TMPDIR/out/stock" "$TEST_TMPDIR/out/jit" > "$TEST_TMPDIR/report.md" ||
  rc=$?
cat "$TEST_TMPDIR/report.md"
# Under Unicorn the JIT's statistics also count the guest instructions it emulated.
/usr/bin/python3.11 - "$TEST_TMPDIR/out/jit" <<'PY' || rc=1
import glob, json, sys
stats = [json.load(open(p)) for p in glob.glob(sys.argv[1] + "/*/jit-stats.json")]
compiled = sum(s["compiled"] for s in stats)
failed = sum(s["failed"] for s in stats)
guest = sum(s["emulated_instructions"] for s in stats)
print(f"JIT side: {len(stats)} files, {compiled} functions compiled, {failed} failed "
      f"(share {compiled}/{compiled + failed}), {guest} emulated instructions")
sys.exit(0 if stats and compiled > 0 and guest > 0 else 1)
PY
jit/python/install --uninstall > /dev/null
exit $rc
