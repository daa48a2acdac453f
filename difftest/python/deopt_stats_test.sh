#!/usr/bin/env bash
# a64jit.get_deopt_stats() (deopt_stats_test.py), then what --stats prints of it and the JSON
# stats file's "deopt_sites".
set -uo pipefail
run=(${A64JIT_TARGET_RUNNER:-} jit/python/a64jit-run --threshold=0)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"${run[@]}" --jitlist='__main__:*' --stats --stats-file="$tmp/stats.json" \
  difftest/python/deopt_stats_test.py >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out"
grep -E "^a64jit: (compiled [0-9]|compiled share|emulated|deopt|  )" "$tmp/err"
failed=0
[ $rc -eq 0 ] || { echo "FAIL deopt_stats_test.py: status $rc"; tail -5 "$tmp/err"; failed=1; }
if grep -qE "^a64jit:   1  __main__:lookup line [0-9]+ BINARY_SUBSCR @6: exception \(KeyError\) -> unwound" "$tmp/err"; then
  echo "PASS --stats lists the top deopt sites"
else
  echo "FAIL --stats lists the top deopt sites"
  failed=1
fi
if /usr/bin/python3.11 -c '
import json, sys
sites = json.load(open(sys.argv[1]))["deopt_sites"]
assert [(s["function"], s["reason"], s["type"], s["count"]) for s in sites] == [
    ("__main__:lookup", "exception", "KeyError", 1)], sites' "$tmp/stats.json"; then
  echo "PASS the stats file carries the deopt sites"
else
  echo "FAIL the stats file carries the deopt sites"
  failed=1
fi
exit $failed
