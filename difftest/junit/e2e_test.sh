#!/usr/bin/env bash
# End to end: runner.py runs the fixture suites for real (Debian's pytest) stock and under
# fixtures/fake_jit.py, junit_compare compares them, and the report must name exactly the
# differences the fixtures plant; the HTML report is then opened in headless Chromium and
# checked by its DOM. Usage (from Bazel): e2e_test.sh JUNIT_COMPARE RUNNER FIXTURES_DIR
set -euo pipefail
compare=$1
runner=$2
fixtures=$3
# In --config=aarch64 junit_compare is an aarch64 binary: run it under QEMU.
run_compare() { ${A64JIT_TARGET_RUNNER:-} "$compare" "$@"; }
out="${TEST_TMPDIR:-$(mktemp -d)}/e2e"
rm -rf "$out"
mkdir -p "$out"
export HOME="${TEST_TMPDIR:-/tmp}"

/usr/bin/python3.11 "$runner" --out "$out" \
  --jit-cmd "/usr/bin/python3.11 $fixtures/fake_jit.py" \
  --jit-env "A64JIT_FIXTURE_TMP=$out" --timeout 4 \
  "$fixtures"/test_basic.py "$fixtures"/test_crash.py "$fixtures"/test_flaky.py \
  "$fixtures"/test_hang.py "$fixtures"/test_jit_diff.py

set +e
run_compare "$out/stock" "$out/jit" --json="$out/report.json" --html="$out/report.html" \
  --history="$out/history" > "$out/report.md"
status=$?
set -e
cat "$out/report.md"
if [ "$status" -ne 1 ]; then
  echo "FAIL: junit_compare exited $status, expected 1 (regressions, evidence trusted)"
  exit 1
fi

/usr/bin/python3.11 - "$out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def by_test(items):
    return {i["test"].split("::", 1)[1] if "::" in i["test"] else i["test"]: i for i in items}
fails = []
def expect(what, got, want):
    if got != want:
        fails.append("%s: got %r, want %r" % (what, got, want))
reg = by_test(r["regressions"])
m = "difftest.junit.fixtures."
expect("regressions", sorted(i["test"] for i in r["regressions"]), sorted(m + t for t in [
    "test_crash::test_after", "test_crash::test_before", "test_crash::test_segfaults_on_jit",
    "test_hang::test_hangs_on_jit", "test_hang::test_quick",
    "test_jit_diff::test_regresses_to_error", "test_jit_diff::test_regresses_to_failure"]))
kinds = {i["test"][len(m):]: (i["kind"], i.get("signal")) for i in r["regressions"]}
expect("kind failure", kinds.get("test_jit_diff::test_regresses_to_failure"), ("fail", None))
expect("kind error", kinds.get("test_jit_diff::test_regresses_to_error"), ("error", None))
expect("kind crash", kinds.get("test_crash::test_before"), ("crash", "SIGSEGV"))
expect("kind timeout", kinds.get("test_hang::test_quick"), ("crash", "timeout"))
culprits = {c["module"]: (c["signal"], c["culprit"]) for c in r["crashes"]}
expect("crash culprit", culprits.get("test_crash", (None, ""))[1].endswith("test_crash.py::test_segfaults_on_jit"), True)
expect("hang culprit", culprits.get("test_hang", (None, ""))[1].endswith("test_hang.py::test_hangs_on_jit"), True)
expect("fixed", [i["test"] for i in r["fixed"]], [m + "test_jit_diff::test_fixed_by_jit"])
expect("flaky", [(i["test"], i["side"]) for i in r["flaky"]], [(m + "test_flaky::test_flaky_on_jit", "jit")])
expect("newly skipped", [(i["test"], i["reason"]) for i in r["newly_skipped"]],
       [(m + "test_jit_diff::test_newly_skipped_slow", "slow")])
for empty in ("unskipped", "corrupt", "missing_suites", "untrusted", "not_run"):
    expect(empty, r[empty], [])
expect("compiled", r["jit"]["compiled_functions"], 35)
basic = [x for x in r["modules"] if x["module"] == "test_basic"][0]
expect("test_basic unchanged", basic["stock"], basic["jit"])
expect("test_basic counts", basic["stock"], {"pass": 5, "fail": 1, "error": 1, "skip": 1, "xfail": 1})
if fails:
    print("FAIL:\n  " + "\n  ".join(fails))
    sys.exit(1)
print("report: exactly the planted differences")
PY

# Regressions re-run alone: stock passes, JIT fails -> confirmed; crash victims -> collateral.
/usr/bin/python3.11 "$runner" --out "$out/rerun" \
  --jit-cmd "/usr/bin/python3.11 $fixtures/fake_jit.py" --jit-env "A64JIT_FIXTURE_TMP=$out" \
  --timeout 4 --rerun-regressions --compare "${A64JIT_TARGET_RUNNER:-} $compare" \
  "$fixtures"/test_crash.py "$fixtures"/test_jit_diff.py > /dev/null
/usr/bin/python3.11 - "$out/rerun/labels.json" <<'PY'
import json, sys
labels = {k.split("fixtures.")[-1]: v for k, v in json.load(open(sys.argv[1])).items()}
want = {"test_jit_diff::test_regresses_to_failure": "confirmed",
        "test_jit_diff::test_regresses_to_error": "confirmed",
        "test_crash::test_segfaults_on_jit": "confirmed",
        "test_crash::test_before": "collateral", "test_crash::test_after": "collateral"}
if labels != want:
    print("FAIL: labels %r, want %r" % (labels, want)); sys.exit(1)
print("re-run labels: as expected")
PY

# unittest-xml-reporting, run for real: subTest rows, XFAIL, UnexpectedSuccess.
for side in stock jit; do
  mkdir -p "$out/ut/$side/test_unittest_style"
  (cd "$fixtures" && A64JIT_FIXTURE_SIDE=$side /usr/bin/python3.11 -m xmlrunner \
     -o "$out/ut/$side/test_unittest_style" test_unittest_style > /dev/null 2>&1) || true
done
set +e
# Both sides are python3.11 under xmlrunner (no manifests): JIT evidence waived.
run_compare "$out/ut/stock" "$out/ut/jit" --json="$out/ut.json" --waive-jit-evidence > /dev/null
status=$?
set -e
/usr/bin/python3.11 - "$out/ut.json" "$status" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
got = ([(x["test"], x["kind"]) for x in r["regressions"]], int(sys.argv[2]))
want = ([("test_unittest_style::TestStyle::test_sub", "fail")], 1)
counts = r["modules"][0]["stock"]
if got != want or counts != {"pass": 2, "fail": 0, "error": 1, "skip": 1, "xfail": 1}:
    print("FAIL: xmlrunner: got %r %r, want %r" % (got, counts, want)); sys.exit(1)
print("xmlrunner: one regression (the failing subTests), XFAIL and UnexpectedSuccess unchanged")
PY

# The HTML report, rendered by a real browser: the tables are there and the script ran.
if ! command -v chromium >/dev/null; then
  echo "FAIL: chromium is missing (ci/setup.sh installs it)"
  exit 1
fi
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
  --disable-background-networking --disable-component-update --disable-sync --no-first-run \
  --user-data-dir="$out/chromium" --dump-dom "file://$out/report.html" > "$out/dom.html" 2>/dev/null
/usr/bin/python3.11 - "$out/dom.html" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
def table(id):
    m = re.search(r'<table[^>]* id="%s".*?</table>' % id, dom, re.S)
    return m.group(0) if m else ""
modules, crashes = table("modules"), table("crashes")
checks = {
    "script ran": 'data-ready="1"' in dom,
    "headline": "Stock vs JIT: 7 regression(s)" in dom,
    "module table rows": len(re.findall(r"<tr data-regressions=", modules)) == 5,
    "module columns": "<th>Compiled share</th>" in modules and "<th>Compiled entries</th>" in modules,
    "regression rows": dom.count("test_regresses_to_") >= 2 and 'id="regressions"' in dom,
    # A crashed or hung module is one row, its lost tests behind a click.
    "lost module rows": len(re.findall(r"<tr ", crashes)) == 2 and "SIGSEGV" in crashes
                        and "timeout" in crashes and "<summary>3 test(s)</summary>" in crashes,
    "real columns": "<th>Stock s</th>" in modules and "<b>" not in dom,
    # The page opens on its regressions: the first section, one card each, with a log link.
    "opens on regressions": dom.find("<h2") == dom.find("<h2", dom.find('<section id="regressions"')),
    "regression cards": dom.count('<div class="regression"') >= 2 and '">log</a>' in dom,
}
bad = [k for k, ok in checks.items() if not ok]
if bad:
    print("FAIL: HTML DOM checks: " + ", ".join(bad)); sys.exit(1)
print("html: rendered by chromium, %d checks" % len(checks))
PY
# The command line: --help, usage errors (64, not a verdict), a value as the next argument,
# the verdict as JUnit XML, and relative paths as the caller's under `bazel run`.
cli_fail() { echo "FAIL: junit_compare's command line: $*"; exit 1; }
run_compare --help | grep -q "^usage: junit_compare" || cli_fail "--help"
run_compare --version | grep -q "^junit_compare (a64jit), report schema a64jit-junit-compare/1$" ||
  cli_fail "--version"
set +e
# '--' ends the options: a directory named like an option is a directory.
mkdir -p "$out/-jit" && cp -r "$out/jit/." "$out/-jit/"
run_compare --json "$out/dashdash.json" -- "$out/stock" "$out/-jit" > /dev/null 2>&1
[ $? -eq 1 ] && [ -f "$out/dashdash.json" ] || cli_fail "-- before a directory named -jit"
run_compare "$out/stock" "$out/jit" --bogus > /dev/null 2>&1; [ $? -eq 64 ] || cli_fail "unknown option"
run_compare "$out/stock" > /dev/null 2>&1; [ $? -eq 64 ] || cli_fail "one directory"
run_compare "$out/stock" "$out/jit" --json > /dev/null 2>&1; [ $? -eq 64 ] || cli_fail "no value"
mkdir -p "$out/elsewhere"
compare=$(realpath "$compare")
(cd "$out/elsewhere" && BUILD_WORKING_DIRECTORY="$out" run_compare stock jit \
  --junit-out verdict.xml > /dev/null)
status=$?
set -e
[ "$status" -eq 1 ] || cli_fail "relative directories under bazel run: exit $status"
[ -f "$out/verdict.xml" ] || cli_fail "--junit-out did not write the caller's verdict.xml"
/usr/bin/python3.11 - "$out/verdict.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
cases = {c.get("name"): c for c in ET.parse(sys.argv[1]).getroot().iter("testcase")}
failed = {n for n, c in cases.items() if c.find("failure") is not None}
ok = ("evidence" in cases and "evidence" not in failed and "test_jit_diff" in failed
      and "test_regresses_to_fail" in cases["test_jit_diff"].find("failure").text)
if not ok:
    print("FAIL: verdict XML: cases %s, failed %s" % (sorted(cases), sorted(failed)))
    sys.exit(1)
print("cli: usage errors 64, --junit-out: %d cases, %d failed" % (len(cases), len(failed)))
PY
echo "e2e: PASS"
