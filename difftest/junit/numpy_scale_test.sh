#!/usr/bin/env bash
# Scale on a real suite: about 10,000 tests of Debian's python3-numpy, run twice (the
# "JIT" side is the same interpreter: there is no a64jit pytest plugin yet) and compared.
# There must be no regression and no corrupt report, and the report must show the counts.
# Usage (from Bazel): numpy_scale_test.sh JUNIT_COMPARE RUNNER
set -euo pipefail
compare="${A64JIT_TARGET_RUNNER:-} $(pwd)/$1"
runner=$(pwd)/$2
out="${TEST_TMPDIR:-$(mktemp -d)}/numpy"
if [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
  # The suite runs on the x86 host's Python in both configs; only junit_compare would
  # differ, and //difftest/junit:junit_test and :e2e_test already run it under QEMU.
  source ci/skip_test.sh
  skip_test numpy_scale numpy_twice \
    "runs in the host config only: the suite uses the host's Python either way"
fi
np=/usr/lib/python3/dist-packages/numpy
files=("$np"/{ma,linalg,polynomial,fft,random,matrixlib}/tests/test_*.py
       "$np"/core/tests/test_{dtype,indexing,numeric,ufunc,shape_base,function_base}.py)
cd "${TEST_TMPDIR:-/tmp}"   # hypothesis keeps its database in the working directory
export HOME="${TEST_TMPDIR:-/tmp}"
/usr/bin/python3.11 "$runner" --out "$out" --jobs 2 --timeout 600 \
  --stock-cmd "/usr/bin/python3.11 -m pytest" --jit-cmd "/usr/bin/python3.11 -m pytest" \
  "${files[@]}" > "$out.runner.log"
set +e
# Both sides are the same interpreter: no JIT evidence, waived.
$compare "$out/stock" "$out/jit" --json="$out/report.json" --waive-jit-evidence \
  > "$out/report.md"
status=$?
set -e
head -n 30 "$out/report.md"
/usr/bin/python3.11 - "$out/report.json" "$status" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
status = int(sys.argv[2])
tests = r["stock"]["tests"]
passed = sum(m["stock"]["pass"] for m in r["modules"])
print("numpy: %d tests stock, %d JIT side, %d passed, %d modules, %d regressions, exit %d"
      % (tests, r["jit"]["tests"], passed, len(r["modules"]), len(r["regressions"]), status))
problems = []
if tests < 8000: problems.append("only %d tests ran" % tests)
if r["regressions"]: problems.append("regressions: %s" % [x["test"] for x in r["regressions"][:5]])
if r["corrupt"] or r["missing_suites"]: problems.append("corrupt or missing suites")
if status != 0: problems.append("exit status %d" % status)
if problems:
    print("FAIL: " + "; ".join(problems)); sys.exit(1)
PY
