#!/usr/bin/env bash
# ci/nightly.sh --demo on two nights: both land in the history and the second night's HTML
# draws a trend through both. Usage (from Bazel): nightly_test.sh NIGHTLY JUNIT_COMPARE
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
print("nightly: 2 nights in the history, trend drawn through both")
PY
