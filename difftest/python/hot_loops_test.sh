#!/usr/bin/env bash
# Loop-aware hotness (--hot-loop-us, jit/python/jit.h): at --threshold=100 a function called
# three times compiles only by its loop's interpreted time. hot_loops_test.py must print what
# stock prints; with the default --hot-loop-us exactly count_primes compiles (the log names
# it, the stats count one function qualified by loop time, and its later calls run compiled);
# with --hot-loop-us=0 nothing compiles.
set -uo pipefail
run=(${A64JIT_TARGET_RUNNER:-} jit/python/a64jit-run)
prog=difftest/python/hot_loops_test.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
check() {  # NAME CONDITION...
  local name=$1
  shift
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; failed=1; fi
}
"${run[@]}" --no-jit "$prog" >"$tmp/stock" 2>&1
"${run[@]}" --threshold=100 --log=stderr --stats-file="$tmp/on.json" "$prog" >"$tmp/on" 2>"$tmp/on.err"
on_rc=$?
"${run[@]}" --threshold=100 --hot-loop-us=0 --stats-file="$tmp/off.json" "$prog" >"$tmp/off" 2>&1
off_rc=$?
cat "$tmp/on"
grep "^a64jit: compiled" "$tmp/on.err"
stat() {  # FILE KEY
  /usr/bin/python3.11 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}
check "exit status 0 both ways (got $on_rc, $off_rc)" [ "$on_rc" = 0 -a "$off_rc" = 0 ]
check "output as stock's" cmp -s "$tmp/stock" "$tmp/on"
check "count_primes compiled by its loop time" grep -q "^a64jit: compiled __main__:count_primes " "$tmp/on.err"
on_compiled=$(stat "$tmp/on.json" compiled) on_loop=$(stat "$tmp/on.json" loop_time_qualified)
on_entries=$(stat "$tmp/on.json" entries)
check "one function compiled, qualified by loop time (compiled $on_compiled, loop_time_qualified $on_loop)" \
  [ "$on_compiled" = 1 -a "$on_loop" = 1 ]
check "its later calls ran compiled (entries $on_entries, want 2)" [ "$on_entries" = 2 ]
mode=$(stat "$tmp/on.json" exec_mode) emulated=$(stat "$tmp/on.json" emulated_instructions)
if [ "$mode" = unicorn ]; then
  check "under Unicorn, guest instructions emulated ($emulated)" [ "$emulated" -gt 0 ]
fi
off_compiled=$(stat "$tmp/off.json" compiled)
check "--hot-loop-us=0: nothing compiled (compiled $off_compiled)" [ "$off_compiled" = 0 ]
exit $failed
