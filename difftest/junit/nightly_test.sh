#!/usr/bin/env bash
# ci/nightly.sh --demo on two nights: both land in the history, the second night's HTML
# draws a trend through both and its report knows the first (none new); progress gives N of
# M; a third night with every regression a known failure passes. Usage (from Bazel): nightly_test.sh NIGHTLY JUNIT_COMPARE
set -euo pipefail
nightly=$1
compare="${A64JIT_TARGET_RUNNER:-} $(pwd)/$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
for night in 2026-11-20 2026-11-21; do
  set +e
  "$nightly" --demo --night "$night" --out "$tmp/$night" --history "$tmp/history" \
    --compare "$compare" > "$tmp/$night.log" 2>&1
  status=$?
  set -e
  if [ "$status" -ne 1 ]; then
    cat "$tmp/$night.log"
    echo "FAIL: nightly $night exited $status, expected 1 (the demo has regressions)"
    exit 1
  fi
done
/usr/bin/python3.11 - "$tmp" <<'PY'
import json, os, re, sys
tmp = sys.argv[1]
nights = sorted(os.listdir(os.path.join(tmp, "history")))
assert nights == ["2026-11-20.json", "2026-11-21.json"], nights
for n in nights:
    r = json.load(open(os.path.join(tmp, "history", n)))
    # 7 planted by the pytest fixtures, 1 by test_unittest_style (failing subTests)
    assert r["night"] == n[:-5] and len(r["regressions"]) == 8, (n, len(r["regressions"]))
html = open(os.path.join(tmp, "2026-11-21", "report.html")).read()
points = re.search(r'class="trend-regressions"[^>]*points="([^"]*)"', html).group(1).split()
assert len(points) == 2, points
assert "2026-11-20" in html and "2026-11-21" in html
# The second night knows the first: the same regressions, none new.
md = open(os.path.join(tmp, "2026-11-21", "report.md")).read()
assert md.startswith("# Stock vs JIT: 8 regression(s), 0 new since 2026-11-20"), md[:200]
assert "## Since the last night (2026-11-20)" in md
# Progress while it ran: N of M and the time left.
log = open(os.path.join(tmp, "2026-11-21.log")).read()
assert re.search(r"^\[ 1/12\] .* about \d+s left$", log, re.M), log[:600]
print("nightly: 2 nights in the history, trend drawn through both, none new the second night")
PY

# Known failures: a night whose every regression is known does not fail, and shows them.
echo '[{"test": "*test_jit_diff::test_regresses_to_*", "reason": "planted by the fixtures"},
       {"test": "*", "reason": "the stand-in JIT", "expires": "2999-01-01"}]' > "$tmp/known.json"
set +e
"$nightly" --demo --night 2026-11-22 --out "$tmp/2026-11-22" --history "$tmp/history" \
  --known-failures "$tmp/known.json" --compare "$compare" > "$tmp/2026-11-22.log" 2>&1
status=$?
set -e
grep -q "^# Stock vs JIT: no regression; 8 known failure(s)$" "$tmp/2026-11-22/report.md" &&
  grep -q "test_regresses_to_error.*planted by the fixtures" "$tmp/2026-11-22/report.md" &&
  [ "$status" -eq 0 ] ||
  { head -30 "$tmp/2026-11-22/report.md"; echo "FAIL: known failures (exit $status)"; exit 1; }
echo "nightly: 8 known failures shown, the night passes"

# Nothing lost: a second night of the same name goes to NAME-r2 (its folder and its history
# entry); a given --out that holds something else is refused unless --force; a folder marked
# as a stopped night is taken again (resumed).
# The default --out is under the repository nightly.sh runs from (here the runfiles tree).
root=$(cd "$(dirname "$nightly")/.." && pwd)
cd "$root"
rm -rf out/nightly/same out/nightly/same-r2 out/nightly/same-r3
for i in 1 2; do
  "$nightly" --demo --night same --history "$tmp/history" --compare "$compare" > "$tmp/same$i.log" 2>&1 || true
done
[ -f out/nightly/same/report.md ] && [ -f out/nightly/same-r2/report.md ] ||
  { ls -R out | head; echo "FAIL: a second night of the same name did not go to same-r2"; exit 1; }
[ -f "$tmp/history/same.json" ] && [ -f "$tmp/history/same-r2.json" ] ||
  { ls "$tmp/history"; echo "FAIL: the history lost a night of the same name"; exit 1; }
grep -qx done out/nightly/same/.a64jit-night || { echo "FAIL: no 'done' mark"; exit 1; }
mkdir -p "$tmp/keep" && echo precious > "$tmp/keep/notes.txt"
set +e
"$nightly" --demo --out "$tmp/keep" --history "$tmp/history" --compare "$compare" > "$tmp/keep.log" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] && grep -q "is not empty and holds no stopped night" "$tmp/keep.log" &&
  [ "$(cat "$tmp/keep/notes.txt")" = precious ] ||
  { cat "$tmp/keep.log"; echo "FAIL: --out replaced a folder it did not make"; exit 1; }
echo running > out/nightly/same-r2/.a64jit-night  # as a night that was stopped leaves it
"$nightly" --demo --night same --history "$tmp/history" --compare "$compare" > "$tmp/same3.log" 2>&1 || true
[ ! -e out/nightly/same-r3 ] && grep -qx done out/nightly/same-r2/.a64jit-night ||
  { ls out/nightly; echo "FAIL: a stopped night was not resumed in its folder"; exit 1; }
grep -q "^Run: night same, commit .*, host $(hostname)\.$" out/nightly/same/report.md ||
  { head -5 out/nightly/same/report.md; echo "FAIL: the report does not say what ran"; exit 1; }
echo "nightly: a second night went to -r2, a foreign --out was refused, a stopped night resumed"
