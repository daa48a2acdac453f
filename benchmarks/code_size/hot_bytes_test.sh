#!/bin/sh
# hot_bytes.py over a known profile and perf map (testdata/hot_bytes):
# - m:f (32 B) has blocks at 0x1000 (4 instructions, 150 runs), 0x1010 (2, 1 run) and a second
#   translation of its first two instructions (10 runs): 24 B ran, 16 B ran 100 times or
#   more, 12 of those an incref (its decref ran once);
# - m:g (16 B): its first instruction ran 99 + 1 = 100 times (hot at exactly --hot), its
#   second 99 times (not hot);
# - the stub and the block outside every function are left out.
# With --mix, the instructions that ran by kind: m:f's incref 160 + 160 + 150 = 470, its decref
# 1 + 1, its ret 150; m:g, without a dump, 100 + 99; the call stub 2 x 500 against the 821 of
# the functions. With --base (m:f's first block 50 runs fewer) the incref is 320, the ret 100.
# And its errors: --mix without --dump-dir (exit 2), a missing profile (exit 2), a malformed profile line (exit 1, naming it),
# no function matching the names (exit 1).
set -u
here=$(dirname "$0")
data="$here/testdata/hot_bytes"
py=/usr/bin/python3.11
failed=0
out=$("$py" "$here/hot_bytes.py" "$data/profile.txt" "$data/perf.map" --dump-dir "$data/dumps") ||
  { echo "FAIL: hot_bytes exited $?"; exit 1; }
expect() {
  if printf '%s\n' "$out" | grep -qxF -- "$1"; then echo "PASS $1"; else echo "FAIL missing: $1"; failed=1; fi
}
expect "| m:f | 32 | 24 | 16 | 12 (75%) |"
expect "| m:g | 16 | 8 | 4 | no dump |"
if printf '%s\n' "$out" | grep -q stub; then echo "FAIL: a stub was counted"; failed=1; fi
out=$("$py" "$here/hot_bytes.py" "$data/profile.txt" "$data/perf.map" --hot 1 g)
expect "| m:g | 16 | 8 | 8 |"
out=$("$py" "$here/hot_bytes.py" "$data/profile.txt" "$data/perf.map" --dump-dir "$data/dumps" --mix)
expect "| incref | 470 | 57.2% |"
expect "| decref | 2 | 0.2% |"
expect "| entry and exit | 150 | 18.3% |"
expect "| no dump | 199 | 24.2% |"
expect "| compiled functions | 821 | 100% |"
expect "| call | 1,000 | 121.8% |"
base=$(mktemp)
printf '1000 4 50 b4000280\n' > "$base"
out=$("$py" "$here/hot_bytes.py" "$data/profile.txt" "$data/perf.map" --dump-dir "$data/dumps" --mix \
  --base "$base")
rm -f "$base"
expect "| incref | 320 | 51.5% |"
expect "| entry and exit | 100 | 16.1% |"
"$py" "$here/hot_bytes.py" "$data/profile.txt" "$data/perf.map" --mix >/dev/null 2>&1
[ $? -eq 2 ] && echo "PASS --mix without dumps: exit 2" || { echo "FAIL --mix without dumps"; failed=1; }
"$py" "$here/hot_bytes.py" "$data/no_such_profile" "$data/perf.map" >/dev/null 2>&1
[ $? -eq 2 ] && echo "PASS missing profile: exit 2" || { echo "FAIL missing profile"; failed=1; }
bad=$(mktemp)
printf '1000 4 150 0\nnot a line\n' > "$bad"
err=$("$py" "$here/hot_bytes.py" "$bad" "$data/perf.map" 2>&1 >/dev/null)
status=$?
rm -f "$bad"
if [ $status -eq 1 ] && printf '%s' "$err" | grep -q ":2: not a profile line"; then
  echo "PASS malformed profile: exit 1, line named"
else
  echo "FAIL malformed profile: exit $status, $err"; failed=1
fi
"$py" "$here/hot_bytes.py" "$data/profile.txt" "$data/perf.map" nothing >/dev/null 2>&1
[ $? -eq 1 ] && echo "PASS no function matched: exit 1" || { echo "FAIL no function matched"; failed=1; }
exit $failed
