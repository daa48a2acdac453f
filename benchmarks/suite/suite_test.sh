#!/usr/bin/env bash
# The suite's harness and driver, on the programs with stock python3.11 on both sides (what is
# tested is the measuring, not a JIT): every program runs in both modes and gets its three
# ratios with intervals and a geometric mean; a program whose result is wrong fails the run
# and is named.
set -uo pipefail
source ci/check.sh
out=$(mktemp -d "${TEST_TMPDIR:-/tmp}/suite.XXXXXX")
export A64JIT_SUITE_TARGET_S=0.01 A64JIT_SUITE_VALUES=3
py=/usr/bin/python3.11
$py benchmarks/suite/run_suite.py --stock $py --jit $py --runs 2 --json "$out/r.json" \
  > "$out/table.md" 2> "$out/log"
check "the suite runs stock against stock" test $? = 0
programs=$(ls benchmarks/suite/programs/*.py | wc -l)
check "a row per program and a geometric mean" \
  test "$(grep -c '^| [a-z_]* | [0-9.]* \[' "$out/table.md")" = "$programs" -a \
  "$(grep -c '^| geometric mean |' "$out/table.md")" = 1
check "three ratios with intervals in the JSON" $py -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert all(set(p) == {"warm", "first", "process"} and all(len(m["ci95"]) == 2 for m in p.values())
           for p in r["programs"].values()), r' "$out/r.json"
# --paired: each stock process beside its JIT process. Both sides sleep half a second, so
# processes run one after the other would not overlap at all.
mkdir -p "$out/slow"
cat > "$out/slow/nap.py" <<'PY'
import time
import harness
time.sleep(0.5)
harness.run("nap", lambda: 42, lambda r: None if r == 42 else "got %r" % r)
PY
$py benchmarks/suite/run_suite.py --stock $py --jit $py --runs 2 --paired --dir "$out/slow" \
  --json "$out/paired.json" > "$out/paired.md" 2> "$out/paired.log"
check "--paired runs the suite" test $? = 0
check "--paired: each pair's processes ran at the same time, and each ratio is a pair's" \
  $py -c '
import json, sys
r = json.load(open(sys.argv[1]))
p = r["programs"]["nap"]
assert r["paired"] is True and p["overlap"] > 0.5, r
assert all(p[m]["ci95"][0] <= p[m]["ratio"] <= p[m]["ci95"][1] for m in ("warm", "first",
           "process")), p
assert 0.8 < p["process"]["ratio"] < 1.25, p  # both sides sleep half a second' "$out/paired.json"
mkdir -p "$out/bad"
cat > "$out/bad/wrong.py" <<'PY'
import harness
harness.run("wrong", lambda: 41, lambda r: None if r == 42 else "got %r" % r)
PY
$py benchmarks/suite/run_suite.py --stock $py --jit $py --runs 1 --dir "$out/bad" \
  > /dev/null 2> "$out/bad.log"
check "a wrong result fails the run, named" test $? != 0 -a \
  "$(grep -c 'wrong result: got 41' "$out/bad.log")" -ge 1
line=$(A64JIT_SUITE_MODE=process A64JIT_SUITE_CALLS=3 PYTHONPATH=benchmarks/suite \
  $py benchmarks/suite/programs/cli_config.py)
check "A64JIT_SUITE_CALLS sets a process's calls (instructions.py)" \
  test "$line" = 'suite-result {"name": "cli_config", "calls": 3}'
cat "$out/table.md"
check_summary
