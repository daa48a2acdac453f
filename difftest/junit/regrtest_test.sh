#!/usr/bin/env bash
# CPython's own regression suite as the oracle (runner.py --regrtest, junit_compare).
# 1. Planted: the fixture modules of fixtures/regrtest, run by /usr/bin/python3.11 -m test
#    on both sides, the "JIT" side with A64JIT_FIXTURE_SIDE=jit; the comparison must name
#    exactly the planted regressions (a plain failure, a failing subTest, an abort with its
#    culprit) and nothing else.
# 2. Real: test_scope and test_with (Debian's libpython3.11-testsuite) run by
#    /usr/bin/python3.11 -m test and by a64jit-run --threshold=0 -m test. There must be no
#    regression, and the report must give each module's JIT statistics (compiled, failed,
#    compiled share, failure causes; the entry share is printed).
# In --config=aarch64 a64jit-run and junit_compare are aarch64 binaries run under QEMU; the
# stock side is the host's python3.11 either way.
# Usage (from Bazel): regrtest_test.sh JUNIT_COMPARE RUNNER A64JIT_RUN FIXTURES_DIR
set -euo pipefail
compare="${A64JIT_TARGET_RUNNER:-} $(pwd)/$1"
runner=$(pwd)/$2
jit="${A64JIT_TARGET_RUNNER:-} $(pwd)/$3"
fixtures=$(pwd)/$4
modules=(test_scope test_with)
if [ ! -f /usr/lib/python3.11/test/test_scope.py ]; then
  echo "FAIL: CPython's test suite is missing (package libpython3.11-testsuite): run ci/setup.sh"
  exit 1
fi
out="${TEST_TMPDIR:-$(mktemp -d)}/regrtest"
rm -rf "$out"
# regrtest works in a directory it creates under the temporary directory.
export TMPDIR="${TEST_TMPDIR:-/tmp}"
export HOME="$TMPDIR"

echo "=== planted differences"
/usr/bin/python3.11 "$runner" --regrtest --out "$out/planted" --timeout 120 \
  --jit-cmd "/usr/bin/python3.11 -m test" --jit-env A64JIT_FIXTURE_SIDE=jit \
  --test-arg=--testdir --test-arg="$fixtures" test_a64planted test_a64aborts
set +e
# The "JIT" side is python3.11 itself: no JIT evidence, waived.
$compare "$out/planted/stock" "$out/planted/jit" --json="$out/planted.json" \
  --waive-jit-evidence > /dev/null
status=$?
set -e
/usr/bin/python3.11 - "$out/planted.json" "$status" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
status = int(sys.argv[2])
fails = []
def expect(what, got, want):
    if got != want:
        fails.append("%s: got %r, want %r" % (what, got, want))
expect("exit status", status, 1)
got = sorted((x["test"], x["kind"], x.get("culprit")) for x in r["regressions"])
culprit = "test_a64aborts::test_a64aborts.Aborts.test_b_aborts_on_jit"
expect("regressions", got, sorted([
    ("test_a64aborts::test_a64aborts.Aborts.test_a_before", "crash", culprit),
    ("test_a64aborts::test_a64aborts.Aborts.test_b_aborts_on_jit", "crash", culprit),
    ("test_a64aborts::test_a64aborts.Aborts.test_c_after", "crash", culprit),
    ("test_a64planted::test_a64planted.Planted.test_fails_on_jit", "fail", None),
    ("test_a64planted::test_a64planted.Planted.test_subtest_fails_on_jit", "fail", None),
]))
planted = [m for m in r["modules"] if m["module"] == "test_a64planted"][0]
expect("stock counts", planted["stock"], {"pass": 4, "fail": 0, "error": 0, "skip": 1, "xfail": 1})
expect("crashes", [(c["side"], c["signal"]) for c in r["crashes"]], [("jit", "SIGABRT")])
for empty in ("fixed", "flaky", "newly_skipped", "unskipped", "corrupt", "not_run"):
    expect(empty, r[empty], [])
if fails:
    print("FAIL (planted):\n  " + "\n  ".join(fails))
    sys.exit(1)
print("planted: exactly the planted regressions")
PY

echo "=== ${modules[*]} with the JIT"
/usr/bin/python3.11 "$runner" --regrtest --out "$out/real" --timeout 600 \
  --jit-cmd "$jit --threshold=0 -m test" "${modules[@]}"
set +e
$compare "$out/real/stock" "$out/real/jit" --json="$out/real.json" > "$out/real.md"
status=$?
set -e
cat "$out/real.md"
/usr/bin/python3.11 - "$out/real.json" "$status" "${modules[@]}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
status, modules = int(sys.argv[2]), sys.argv[3:]
problems = []
if status != 0:
    problems.append("junit_compare exited %d (%d regression(s), untrusted: %s)" % (
        status, len(r["regressions"]), r["untrusted"]))
rows = {m["module"]: m for m in r["modules"]}
if sorted(rows) != sorted(modules):
    problems.append("modules %s, expected %s" % (sorted(rows), sorted(modules)))
for name in modules:
    m = rows.get(name)
    if m is None:
        continue
    if m["stock"]["pass"] == 0:
        problems.append("%s: no stock test passed" % name)
    if not m.get("compiled"):
        problems.append("%s: the JIT compiled nothing" % name)
    if m.get("failed") is None or m.get("compiled_share") is None:
        problems.append("%s: no failed-function count (statistics file not read?)" % name)
    print("%s: %d tests, compiled %s, failed %s, compiled share %s, compiled entries %s, "
          "causes %s" % (
              name, sum(m["jit"].values()), m.get("compiled"), m.get("failed"),
              "?" if m.get("compiled_share") is None else "%.1f%%" % (100 * m["compiled_share"]),
              "?" if m.get("entry_share") is None else "%.1f%%" % (100 * m["entry_share"]),
              m.get("failure_causes")))
if problems:
    print("FAIL:\n  " + "\n  ".join(problems))
    sys.exit(1)
print("PASS: %d modules, %d tests, no regression" % (len(modules), r["stock"]["tests"]))
PY
