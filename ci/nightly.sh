#!/usr/bin/env bash
# Nightly stock-vs-JIT run of a Python test suite (on an ARM host: PyTorch's): runs every
# test file stock and with the JIT (difftest/junit/runner.py), re-runs regressions alone to
# label them, compares the JUnit XML per test (junit_compare), keeps the night's JSON in a
# history directory and renders the Markdown report and an HTML page with trends.
#
#   ci/nightly.sh --jit-cmd "CMD" [--jit-env K=V]... [--out DIR] [--history DIR]
#                 [--night NAME] [--timeout SECONDS] [--compare BIN] TEST_FILE...
#   ci/nightly.sh --demo        # the fixture suites, with a stand-in JIT
#
# Exit status: junit_compare's (0 no regression, 1 regressions, 2 evidence not trusted).
set -euo pipefail
cd "$(dirname "$0")/.."

night=$(date -u +%Y-%m-%d)
out=""
history="out/nightly/history"
timeout=900
jit_cmd=""
compare=""
jit_env=()
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jit-cmd) jit_cmd=$2; shift 2 ;;
    --jit-env) jit_env+=(--jit-env "$2"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --history) history=$2; shift 2 ;;
    --night) night=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --compare) compare=$2; shift 2 ;;
    --demo)
      jit_cmd="/usr/bin/python3.11 difftest/junit/fixtures/fake_jit.py"
      timeout=4
      files=(difftest/junit/fixtures/test_*.py)
      shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "nightly: unknown option $1" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
if [ -z "$jit_cmd" ] || [ "${#files[@]}" -eq 0 ]; then
  echo "nightly: need --jit-cmd and test files (or --demo); see --help" >&2
  exit 2
fi
out=${out:-out/nightly/$night}
if [ -z "$compare" ]; then
  bazel build -c opt //difftest/junit:junit_compare >&2
  compare=$(bazel info -c opt bazel-bin 2>/dev/null)/difftest/junit/junit_compare
fi
rm -rf "$out"
mkdir -p "$out" "$history"
jit_env+=(--jit-env "A64JIT_FIXTURE_TMP=$out")
# A crash of a JIT process then shows its native stack (a64jit-run; not passed to children).
jit_env+=(--jit-env "A64JIT_NATIVE_BACKTRACE=1")

/usr/bin/python3.11 difftest/junit/runner.py --out "$out" --jit-cmd "$jit_cmd" "${jit_env[@]}" \
  --timeout "$timeout" --rerun-regressions --compare "$compare" "${files[@]}"

set +e
# $compare may be a command with a prefix (a QEMU wrapper): split it into words.
$compare "$out/stock" "$out/jit" --labels="$out/labels.json" --night="$night" \
  --json="$history/$night.json" > /dev/null
$compare "$out/stock" "$out/jit" --labels="$out/labels.json" --night="$night" \
  --json="$out/report.json" --html="$out/report.html" --history="$history" > "$out/report.md"
status=$?
set -e
cat "$out/report.md"
echo
echo "nightly $night: report $out/report.md, $out/report.html (history: $(ls "$history" | wc -l) night(s)), exit $status"
exit "$status"
