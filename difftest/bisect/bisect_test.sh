#!/usr/bin/env bash
# The bisector against planted miscompiles of testdata/planted.py (A64JIT_TEST_PLANT): it must
# name the planted function and the decision the plant rode on, within the run budget; call
# a plant that fails one run in three flaky; and give clear verdicts for commands that pass
# with the JIT or fail without it. Runs in both configs (A64JIT_TARGET_RUNNER: QEMU).
set -uo pipefail
run=(${A64JIT_TARGET_RUNNER:-} "$PWD/jit/python/a64jit-run")
bisect=(/usr/bin/python3.11 difftest/bisect/bisector.py)
prog=difftest/bisect/testdata/planted.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; failed=1; }

# plant KIND FUNCTION DECISION_KIND REPRODUCER: bisect, then check the JSON result (the
# reproducer's verdict: "reproduces", or "none" when the arguments are not plain values).
plant() {
  local kind=$1 func=$2 decision=$3 repro=$4 json="$tmp/$1.json"
  A64JIT_TEST_PLANT="$kind:$func" "${bisect[@]}" --json "$json" --workdir "$tmp/$kind" -- \
    "${run[@]}" --threshold=0 "$prog" >"$tmp/$kind.out" 2>&1
  local rc=$?
  grep -E "^(result|runs):" "$tmp/$kind.out"
  if /usr/bin/python3.11 - "$json" "$func" "$decision" "$repro" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))
func, kind, repro = sys.argv[2], sys.argv[3], sys.argv[4]
d = r["decision"] or {}
assert r["verdict"] == "culprit" and r["functions"] == [func], r
assert d.get("kind") == kind, d
# the plant is applied in the decision the bisector names
assert d.get("plant") == f"plant {r['decision']['plant'].split()[1]} at decision {d['number']}", d
# budget: log2 of the functions and of the decisions, plus 3 runs for each of 6 verdicts + 1
# (and one run capturing the culprit's calls for the reproducer)
budget = r["log2"] + math.ceil(math.log2(d["count"])) + 6 * 3 + 2
assert r["runs"] <= budget, (r["runs"], budget)
assert r["reproducer"]["verdict"] == repro, r["reproducer"]
print(f"  reproducer: {r['reproducer']['verdict']}: {r['reproducer']['why']}")
print(f"  {r['runs']} runs (budget {budget}) for {r['compiled']} functions, {d['count']} decisions")
PY
  then
    [ $rc -eq 0 ] && pass "$kind plant: $func, $decision, reproducer $repro" ||
      fail "$kind plant: exit $rc"
  else
    fail "$kind plant: $func, $decision, reproducer $repro"
    tail -20 "$tmp/$kind.out"
  fi
}

plant flip-branch __main__:count_below hir.fuse-compare-truth reproduces
plant drop-decref __main__:replace_first lower.list-store-inline none
plant cache-index __main__:xs_of lower.load-attr-inline none

# verdict NAME EXPECTED_STATUS EXPECTED_RESULT_TEXT COMMAND...
verdict() {
  local name=$1 want=$2 text=$3
  shift 3
  "${bisect[@]}" --no-decisions --workdir "$tmp/verdict" -- "$@" >"$tmp/v.out" 2>&1
  local rc=$?
  grep -E "^result:" "$tmp/v.out"
  if [ $rc -eq "$want" ] && grep -qE "^result: $text" "$tmp/v.out"; then
    pass "$name"
  else
    fail "$name (exit $rc, want $want)"
    tail -8 "$tmp/v.out"
  fi
}

echo 0 >"$tmp/counter"
A64JIT_TEST_PLANT=flip-branch:__main__:count_below A64JIT_TEST_PLANT_FLAKY="$tmp/counter" \
  verdict "a plant failing one run in three is flaky" 5 "flaky: red in 1 of 3" \
  "${run[@]}" --threshold=0 "$prog"
verdict "passing with the JIT: nothing to bisect" 3 "passes" "${run[@]}" --threshold=0 "$prog"
verdict "failing without compiled code" 4 "fails-without-jit: red in 3 of 3 runs with no function" \
  "${run[@]}" --threshold=0 -c 'import json, sys; print(json.dumps([3, 1])); sys.exit(1)'
"${bisect[@]}" >"$tmp/u.out" 2>&1
[ $? -eq 2 ] && grep -q "no command to bisect" "$tmp/u.out" && pass "no command: usage error" ||
  fail "no command: usage error"
exit $failed
