#!/usr/bin/env bash
# Nightly stock-vs-JIT run of a Python test suite (on an ARM host: PyTorch's): runs every
# test file stock and with the JIT (difftest/junit/runner.py), re-runs regressions alone to
# label them, compares the JUnit XML per test (junit_compare), keeps the night's JSON in a
# history directory and renders the Markdown report and an HTML page with trends.
#
#   ci/nightly.sh --jit-cmd "CMD" [--jit-env K=V]... [--out DIR [--force]] [--history DIR]
#                 [--night NAME] [--timeout SECONDS] [--compare BIN]
#                 [--known-failures FILE] TEST_FILE...
#   ci/nightly.sh --demo        # the fixture suites, with a stand-in JIT
#   ci/nightly.sh --suite cpython [--tag core] [--config aarch64] [--jobs N] [--out DIR]
#                 [--history DIR] [--night NAME] [--max-bisections N] [--target T]...
#                 [--plant KIND:PATTERN] [--test-env K=V]...
#   ci/nightly.sh --suite pytorch --config aarch64 --jobs 2 [--fresh]
#                 [--jit-test-env A64JIT_SUITE_THRESHOLD=1000]
#
# --suite runs a suite's Bazel test targets (//suites/<suite>/..., each module stock and
# with the JIT; --tag filters them, e.g. core) with `bazel test --keep_going`, gathers the
# testlogs (suites/collect.py), re-runs each regression alone through its module's targets
# to label it (suites/rerun.py), bisects each confirmed one to its culprit function and
# compiler decision (suites/culprits.py, at most --max-bisections, default 3) and compares
# them. --target runs only the named targets (e.g. //suites/cpython:test_heapq_stock and
# _jit). --plant (a test of the whole chain) miscompiles the matching functions on the JIT
# side (A64JIT_TEST_PLANT, jit/decisions.h). --test-env passes a variable to every test
# target and re-run (Bazel's --test_env): the JIT side's threshold, or another PyTorch's
# tests (A64JIT_PYTORCH_TESTS, suites/pytorch/README.md); --jit-test-env only to the JIT
# side's targets (its threshold). Bazel's --jobs runs the modules in parallel,
# and --remote_executor would run them on a pool of ARM hosts (suites/README.md).
#
# A --suite night resumes: every finished target (shard) goes to a Bazel disk cache
# ($A64JIT_NIGHTLY_CACHE, default ~/.cache/a64jit/nightly) as it ends, so a night that was
# stopped runs only what had not finished when started again. Targets run with
# A64JIT_SUITE_RECORD=1 (a module whose tests ran passes; the comparison judges them) and
# with a key of the suite's inputs outside the repository (the Debian packages and
# /opt/a64jit's stamps), so new tests or a new torch are never taken from the cache.
# --fresh runs everything again.
#
# Nothing is lost: the default --out (out/nightly/[SUITE-]NIGHT) becomes NIGHT-r2, -r3 ...
# when a finished night is there, and so does the night's name in the history; a given
# --out that holds anything but a stopped night is refused unless --force (which replaces
# it). A stopped night's folder is taken again by the same command, which resumes it.
#
# The report (junit_compare) opens on the regressions, new ones first, each with the end of
# its traceback, its log and the command that reproduces it; then what changed since the
# night before (in the history) and the known failures: --known-failures FILE (default for
# a suite: suites/SUITE/known-failures.json when there is one) lists tests that fail for a
# known reason, shown but not failing the night until their expiry. While it runs, progress
# says N of M and the time left at the pace so far.
#
# Exit status: junit_compare's (0 no regression, 1 regressions, 2 evidence not trusted); 1
# also for a refused --out, 2 for a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."

night=$(date -u +%Y-%m-%d)
out=""
history="out/nightly/history"
timeout=900
jit_cmd=""
compare=""
suite="" tag="" jobs=2 config=() max_bisections=3 targets=() plant=() plant_value=""
jit_env=()
test_env=()
cache_tests=()
jit_test_env=()
files=()
force=0
known_failures=""
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
    --suite) suite=$2; shift 2 ;;
    --tag) tag=$2; shift 2 ;;
    --config) config=(--config="$2"); shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --max-bisections) max_bisections=$2; shift 2 ;;
    --target) targets+=("$2"); shift 2 ;;
    --plant) plant=(--test_env="A64JIT_TEST_PLANT=$2") plant_value=$2; shift 2 ;;
    --test-env) test_env+=(--test_env="$2"); shift 2 ;;
    --fresh) cache_tests=(--nocache_test_results); shift ;;
    --force) force=1; shift ;;
    --known-failures) known_failures=$2; shift 2 ;;
    --jit-test-env) jit_test_env+=(--test_env="$2"); shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "nightly: unknown option $1" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
if [ -z "$suite" ] && { [ -z "$jit_cmd" ] || [ "${#files[@]}" -eq 0 ]; }; then
  echo "nightly: need --jit-cmd and test files, --suite, or --demo; see --help" >&2
  exit 2
fi
if [ -n "$suite" ]; then
  [ -z "$known_failures" ] && [ -f "suites/$suite/known-failures.json" ] &&
    known_failures=suites/$suite/known-failures.json
  history=${history%/history}/$suite-history
  default_out=out/nightly/$suite-$night
else
  default_out=out/nightly/$night
fi
# Nothing of an earlier night is lost. A night's folder holds .a64jit-night, saying "running"
# until its report is written and "done" after. Without --out a night takes the first of
# NAME, NAME-r2, NAME-r3 ... that holds no finished night (and is named so in the history);
# a stopped night's folder is taken again, so the same command resumes it. A given --out
# that holds anything but a stopped night is refused, unless --force.
night_state() { cat "$1/.a64jit-night" 2>/dev/null || true; }
taken() { [ -n "$(ls -A "$1" 2>/dev/null)" ] && [ "$(night_state "$1")" != running ]; }
if [ -z "$out" ]; then
  out=$default_out
  first_night=$night
  r=1
  while taken "$out"; do
    r=$((r + 1))
    out=$default_out-r$r
    night=$first_night-r$r
  done
elif [ -n "$(ls -A "$out" 2>/dev/null)" ] && [ "$(night_state "$out")" != running ] &&
  [ "$force" = 0 ]; then
  echo "nightly: $out is not empty and holds no stopped night: choose another --out, or" \
    "--force to replace what is there" >&2
  exit 1
fi
# Nor is an earlier night's entry in the history replaced (a second night of the same name).
if [ "$(night_state "$out")" != running ]; then
  first_night=$night
  r=1
  while [ -e "$history/$night.json" ]; do
    r=$((r + 1))
    night=$first_night-r$r
  done
fi
if [ -z "$compare" ]; then
  bazel build -c opt //difftest/junit:junit_compare >&2
  compare=$(bazel info -c opt bazel-bin 2>/dev/null)/difftest/junit/junit_compare
fi
rm -rf "$out"
mkdir -p "$out" "$history"
echo running > "$out/.a64jit-night"

# A digest of what the suites read from outside the repository: the Debian packages they run
# and the stamps of what ci/setup.sh unpacked into /opt/a64jit. As a test variable it is
# part of every target's cache key.
suite_inputs_key() {
  { dpkg-query -W python3.11 libpython3.11-testsuite python3-numpy python3-torch 2>/dev/null
    cat /opt/a64jit/*/version 2>/dev/null
  } | sha256sum | cut -c1-16
}

# `bazel test` of suite targets, resumable: ARGS are more flags, then -- and the targets.
# `inputs_key` and `cache` are run_suite_targets'.
bazel_test_targets() {
  bazel test "${config[@]}" "${plant[@]}" "${test_env[@]}" --keep_going --jobs="$jobs" \
    --disk_cache="$cache" "${cache_tests[@]}" --test_env=A64JIT_SUITE_RECORD=1 \
    --test_env=A64JIT_SUITE_INPUTS="$inputs_key" --test_summary=short "$@" >&2 || true
}

# Every minute while the targets run: how many of them have finished (every test.xml of the
# target, each shard's, written since the night began) and the time left at that pace.
report_progress() {
  local testlogs=$1 t0=$2 total
  shift 2
  total=$#
  touch -d "@$t0" "$out/.started"
  while sleep "${A64JIT_NIGHTLY_PROGRESS_S:-60}"; do
    local finished=0 t xmls
    for t in "$@"; do
      xmls=$(find "$testlogs/suites/$suite/${t##*:}" -name test.xml 2>/dev/null)
      [ -n "$xmls" ] && [ -z "$(find $xmls ! -newer "$out/.started")" ] &&
        finished=$((finished + 1))
    done
    local elapsed=$(( $(date +%s) - t0 )) left="?"
    [ "$finished" -gt 0 ] && left=$(( elapsed * (total - finished) / finished / 60 ))
    echo "nightly: $finished of $total target(s) finished after $((elapsed / 60)) min," \
      "about $left min left" >&2
  done
}

# Fills $out/stock and $out/jit from the suite's Bazel test targets.
run_suite_targets() {
  local filter=() query="tests(//suites/$suite/...)" t0 expect
  if [ -n "$tag" ]; then
    filter=(--test_tag_filters="$tag")
    query="attr(tags, $tag, $query)"
  fi
  local patterns=("//suites/$suite/...")
  if [ "${#targets[@]}" -gt 0 ]; then
    patterns=("${targets[@]}")
    expect=("${targets[@]}")
  else
    mapfile -t expect < <(bazel query "$query" 2>/dev/null)
  fi
  t0=$(date +%s)
  local testlogs monitor
  testlogs=$(bazel info "${config[@]}" bazel-testlogs 2>/dev/null)
  report_progress "$testlogs" "$t0" "${expect[@]}" &
  monitor=$!
  local inputs_key cache=${A64JIT_NIGHTLY_CACHE:-$HOME/.cache/a64jit/nightly}
  inputs_key=$(suite_inputs_key)
  mkdir -p "$cache"
  if [ "${#jit_test_env[@]}" -eq 0 ]; then
    bazel_test_targets "${filter[@]}" -- "${patterns[@]}"
  else
    # The JIT side's own variables (its threshold) stay out of the other targets' cache keys:
    # the stock side of a night at threshold 1000 is the one already run at threshold 0.
    local jit_targets=() other_targets=()
    mapfile -t jit_targets < <(bazel query "attr(tags, '\bjit\b', set(${expect[*]}))" 2>/dev/null)
    mapfile -t other_targets < <(bazel query "set(${expect[*]}) except set(${jit_targets[*]})" \
      2>/dev/null)
    bazel_test_targets -- "${other_targets[@]}"
    bazel_test_targets "${jit_test_env[@]}" -- "${jit_targets[@]}"
  fi
  kill "$monitor" 2>/dev/null || true
  echo "nightly: ${#expect[@]} target(s) of //suites/$suite in $(( $(date +%s) - t0 )) s" >&2
  /usr/bin/python3.11 suites/collect.py --suite "$suite" --out "$out" \
    --testlogs "$(bazel info "${config[@]}" bazel-testlogs 2>/dev/null)" --expect "${expect[@]}"
}

# Re-runs each regression of the gathered night alone, stock then JIT, through the module's
# own targets (suites/rerun.py), and writes $out/labels.json for the report.
rerun_suite_regressions() {
  local bazel_args=()
  [ "${#config[@]}" -gt 0 ] && bazel_args=(--bazel-arg="${config[0]}")
  [ "${#plant[@]}" -gt 0 ] && bazel_args+=(--bazel-arg="${plant[0]}")
  local e
  for e in "${test_env[@]}" "${jit_test_env[@]}"; do bazel_args+=(--bazel-arg="$e"); done
  $compare "$out/stock" "$out/jit" --json="$out/first-report.json" > /dev/null || true
  /usr/bin/python3.11 suites/rerun.py --suite "$suite" --report "$out/first-report.json" \
    --labels "$out/labels.json" "${bazel_args[@]}" >&2
  # The plant (a test of this chain) also reaches the reproducers' bazel run.
  ${plant_value:+env A64JIT_TEST_PLANT="$plant_value"} \
    /usr/bin/python3.11 suites/culprits.py --suite "$suite" --report "$out/first-report.json" \
      --labels "$out/labels.json" --out "$out/culprits" --max-bisections "$max_bisections" \
      "${bazel_args[@]}" >&2
}

# Fills $out/stock and $out/jit by running the test files, and labels the regressions.
run_test_files() {
  jit_env+=(--jit-env "A64JIT_FIXTURE_TMP=$out")
  # A crash of a JIT process then shows its native stack (a64jit-run; not passed to children).
  jit_env+=(--jit-env "A64JIT_NATIVE_BACKTRACE=1")
  /usr/bin/python3.11 difftest/junit/runner.py --out "$out" --jit-cmd "$jit_cmd" \
    "${jit_env[@]}" --timeout "$timeout" --rerun-regressions --compare "$compare" "${files[@]}"
}

if [ -n "$suite" ]; then
  run_suite_targets
  rerun_suite_regressions
else
  run_test_files
fi

# What the night ran: the JIT's commit, the host and, for a suite, the config and threshold.
about=(--about "commit=$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)"
  --about "host=$(hostname)")
if [ -n "$suite" ]; then
  threshold=0
  for e in "${test_env[@]}" "${jit_test_env[@]}"; do
    case "$e" in --test_env=A64JIT_SUITE_THRESHOLD=*) threshold=${e##*=} ;; esac
  done
  config_name=host
  [ "${#config[@]}" -gt 0 ] && config_name=${config[0]#--config=}
  about+=(--about "config=$config_name" --about "threshold=$threshold")
fi

# Each regression's reproducer: for a suite, its module's JIT target with the test alone
# (as suites/rerun.py runs it); for test files, runner.py's command (in the manifests).
report_args=(--labels="$out/labels.json" --night="$night" "${about[@]}" --history="$history")
[ -n "$known_failures" ] && report_args+=(--known-failures="$known_failures")
if [ -n "$suite" ]; then
  report_args+=(--reproducer="bazel test ${config[*]} --cache_test_results=no \
--test_output=errors --test_sharding_strategy=disabled --test_filter={id} //suites/$suite:{module}_jit")
fi

set +e
# $compare may be a command with a prefix (a QEMU wrapper): split it into words.
$compare "$out/stock" "$out/jit" "${report_args[@]}" --json="$history/$night.json" > /dev/null
$compare "$out/stock" "$out/jit" "${report_args[@]}" --json="$out/report.json" \
  --html="$out/report.html" > "$out/report.md"
status=$?
set -e
cat "$out/report.md"
echo
echo done > "$out/.a64jit-night"
echo "nightly ${suite:+$suite }$night: report $out/report.md, $out/report.html (history: $(ls "$history" | wc -l) night(s)), exit $status"
exit "$status"
