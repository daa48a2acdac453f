#!/usr/bin/env bash
# The start delay (jit/python/start_delay.h): a process that ends within it runs as stock
# (no eval-frame hook, no engine made, nothing compiled); past it the waker builds the engine
# without the GIL (engine.h), the hook goes in and hot code compiles,
# also in a child forked while waiting and while the main thread is blocked in a join; a
# disable cancels it; a process exits promptly while a waker sleeps; a64jit.enable() puts
# the hook in at once; a bad value is a usage error. The automatic delay elapses in CPU time.
set -uo pipefail
source ci/check.sh
run=(${A64JIT_TARGET_RUNNER:-} jit/python/a64jit-run)
prog=difftest/python/start_delay_test.py
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
log=$out/log

"${run[@]}" $prog short > "$log" 2>&1
check "a short process: no hook, no engine, nothing compiled, an automatic delay" \
  grep -qE '^short engine=0 hooked=0 compiled=0 delay=[1-9]' "$log"
"${run[@]}" $prog idle > "$log" 2>&1
check "the automatic delay is CPU time: not over while the process sleeps" \
  grep -qE '^idle hooked=0 compiled=0 delay=[1-9]' "$log"
check "the automatic delay is CPU time: over once the process has worked" \
  grep -qE '^busy hooked=1' "$log"
"${run[@]}" --start-delay=100 $prog long > "$log" 2>&1
check "past the delay: the hook and a compiled function" grep -q '^long off_gil=1 hooked=1 compiled=1' "$log"
"${run[@]}" --start-delay=200 $prog fork > "$log" 2>&1
check "forked while waiting: the child's hook" grep -q '^child hooked=1 compiled=1' "$log"
check "forked while waiting: the parent's hook" grep -q '^parent hooked=1 compiled=1' "$log"
"${run[@]}" --start-delay=100 $prog thread > "$log" 2>&1
check "main thread in a join: the hook, and the worker's calls compiled" \
  grep -q '^thread other_thread_entries=1 hooked=1 compiled=1' "$log"
"${run[@]}" --start-delay=1000 $prog disable > "$log" 2>&1
check "disabled within the delay: the hook never goes in" \
  grep -q '^disabled enabled=0 hooked=0' "$log"
"${run[@]}" --start-delay=100000 $prog enable > "$log" 2>&1
check "a64jit.enable(): the hook at once" grep -q '^enable started_ms=0 off_gil=0 hooked=1' "$log"
start=$(date +%s)
timeout 60 "${run[@]}" --start-delay=100000 -c 'print("bye")' > "$log" 2>&1
status=$?
check "exit while a waker sleeps: prompt, status 0" \
  test "$status" = 0 -a $(($(date +%s) - start)) -lt 30 -a "$(cat "$log")" = bye
"${run[@]}" --start-delay=soon -c pass > "$log" 2>&1
status=$?
check "a bad delay: a usage error naming it" \
  test "$status" = 64 -a "$(grep -c 'start-delay' "$log")" -ge 1
check_summary
