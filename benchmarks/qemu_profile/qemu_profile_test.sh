#!/usr/bin/env bash
# tb_profile.so and report.py on a program with known work (spin.c, built here for aarch64
# and run under qemu-aarch64): the difference of a 1000 and a 3000 run must show bump()
# called exactly 2000 times (2000 blocks, each ending in ret) and spin()'s loop 2000 times.
# Usage (from Bazel): qemu_profile_test.sh PLUGIN REPORT SPIN_C
set -euo pipefail
if [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
  # The plugin is loaded by the x86-64 qemu-aarch64; an aarch64 build of it cannot be.
  source ci/skip_test.sh
  skip_test qemu_profile known_work \
    "host config only: the plugin is an x86-64 library that qemu-aarch64 loads"
fi
plugin=$(pwd)/$1
report=$(pwd)/$2
src=$(pwd)/$3
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
aarch64-linux-gnu-gcc -O1 -static -o "$tmp/spin" "$src"
for n in 1000 3000; do
  qemu-aarch64 -plugin "$plugin,out=$tmp/p$n" "$tmp/spin" "$n" > "$tmp/out$n"
done
/usr/bin/python3.11 "$report" "$tmp/p3000" --base "$tmp/p1000" --top 10 | tee "$tmp/report"
/usr/bin/python3.11 - "$tmp/report" <<'PY'
import sys
rows = {}
lines = open(sys.argv[1]).read().splitlines()
total = float(lines[0].split()[2].rstrip(","))
for line in lines[2:]:
    parts = line.split()
    rows[parts[4]] = (float(parts[0]), float(parts[2]), float(parts[3]))
bump = rows.get("spin:bump")
spin = rows.get("spin:spin")
errors = []
if bump is None or spin is None:
    errors.append("bump or spin missing from the report: %s" % sorted(rows))
else:
    if bump[1] != 2000 or bump[2] != 2000:
        errors.append("bump: %d blocks, %d indirect branches; expected 2000 and 2000" % bump[1:])
    if not 2000 * 3 <= spin[0] <= 2000 * 12:
        errors.append("spin: %d instructions for 2000 iterations" % spin[0])
if total <= 0:
    errors.append("no guest instructions counted")
for e in errors:
    print("FAIL:", e)
print("qemu_profile: %d instructions counted, bump %s, spin %s" % (total, bump, spin))
sys.exit(1 if errors else 0)
PY
# --perf-map names code in anonymous memory (JIT code) by a perf map: the same profile with
# spin's mappings made anonymous, and a perf map that names bump's bytes, must give the
# perf map's name bump's 2000 blocks.
read -r bump_at bump_size < <(aarch64-linux-gnu-nm -S "$tmp/spin" | awk '$4 == "bump" {print $1, $2}')
awk -v exe="$tmp/spin" '$6 == exe {$6 = ""} {print}' "$tmp/p3000.maps" >"$tmp/anon3000.maps"
cp "$tmp/p3000" "$tmp/anon3000"
cp "$tmp/p1000" "$tmp/anon1000"
cp "$tmp/p1000.maps" "$tmp/anon1000.maps"
printf '%x %x jit:bump\n' "0x$bump_at" "0x$bump_size" >"$tmp/perf.map"
/usr/bin/python3.11 "$report" "$tmp/anon3000" --base "$tmp/anon1000" --top 10 \
  --perf-map "$tmp/perf.map" | tee "$tmp/report_map"
if awk '$5 == "jit:bump" && $3 == 2000 {found = 1} END {exit !found}' "$tmp/report_map"; then
  echo "PASS --perf-map names anonymous code"
else
  echo "FAIL --perf-map names anonymous code: no jit:bump row with 2000 blocks"
  exit 1
fi
# static_symbols.py names a stripped shared library's static functions from its PIC archive,
# by their bytes: for a library linked from the same code in another order and stripped, it
# must give each static function's address in the unstripped library; report.py --symbols
# must use the names (a block at a static function's address) and call an address past every
# named function's end `?after:`.
hidden=$(dirname "$src")/hidden.c
static_symbols=$(dirname "$report")/static_symbols.py
# As Debian's libpython: the library's objects are compiled a function a section and linked in
# another order (here by name), so a static function is not where the archive's object puts
# it and a call between two functions of an object has another distance.
for part in a b; do
  define=""
  [ "$part" = a ] && define=-DHIDDEN_A
  aarch64-linux-gnu-gcc -O1 -fPIC $define -c -o "$tmp/hidden_$part.o" "$hidden"
  aarch64-linux-gnu-gcc -O1 -fPIC -ffunction-sections $define -c -o "$tmp/linked_$part.o" "$hidden"
done
(cd "$tmp" && rm -f hidden.a && ar rc hidden.a hidden_a.o hidden_b.o)
aarch64-linux-gnu-gcc -shared -Wl,--sort-section=name -o "$tmp/libhidden.so" "$tmp/linked_b.o" \
  "$tmp/linked_a.o"
aarch64-linux-gnu-strip -o "$tmp/libhidden_stripped.so" "$tmp/libhidden.so"
/usr/bin/python3.11 "$static_symbols" "$tmp/libhidden_stripped.so" "$tmp/hidden.a" >"$tmp/syms"
aarch64-linux-gnu-nm "$tmp/libhidden.so" | awk '$2 == "t" && $3 ~ /_(a|b)$/ {print $1, $3}' |
  sort >"$tmp/expected"
awk 'NR > 1 {print $1, $4}' "$tmp/syms" | sort >"$tmp/found"
if [ "$(wc -l <"$tmp/expected")" -eq 4 ] && diff "$tmp/expected" "$tmp/found"; then
  echo "PASS static_symbols names the 4 static functions at their addresses"
else
  echo "FAIL static_symbols: expected (address name) of the unstripped library, then found:"
  cat "$tmp/expected" "$tmp/found"
  exit 1
fi
read -r mix_at < <(awk '$2 == "mix_b" {print $1}' "$tmp/expected")
read -r last_at last_size _ _ < <(aarch64-linux-gnu-nm -S "$tmp/libhidden.so" | awk 'NF == 4 && $3 ~ /^[tT]$/' |
  sort | tail -1)
end=$(printf '%x' $((0x$last_at + 0x$last_size + 64)))
printf '%x 1 1 %x\n%s 2 1 %s\n' "0x$mix_at" "0x$mix_at" "$end" "$end" >"$tmp/hidden_profile"
printf '00000000-00100000 r-xp 00000000 00:00 0 %s\n' "$tmp/libhidden_stripped.so" \
  >"$tmp/hidden_profile.maps"
/usr/bin/python3.11 "$report" "$tmp/hidden_profile" --symbols "$tmp/syms" | tee "$tmp/report_syms"
if grep -q "libhidden_stripped.so:mix_b$" "$tmp/report_syms" &&
  grep -q "libhidden_stripped.so:?after:" "$tmp/report_syms"; then
  echo "PASS report.py --symbols names static functions and marks unnamed code"
else
  echo "FAIL report.py --symbols: no mix_b row, or no ?after: row for code past every function"
  exit 1
fi
# --footprint counts the exits that go through QEMU's block lookup: on spin.c's window, bump's
# 2000 returns and main's 2000 calls through the pointer (4000, 2 per iteration at --per 2000);
# on a made-up profile, a direct branch to another 4 KiB page (5 runs) and a return (3 runs),
# not a direct branch within the page (7 runs).
/usr/bin/python3.11 "$report" "$tmp/p3000" --base "$tmp/p1000" --per 2000 --footprint |
  tee "$tmp/report_footprint"
if awk '$5 == "spin" && $4 == 2 && $2 >= 3 && $1 > 0 {found = 1} END {exit !found}' \
  "$tmp/report_footprint"; then
  echo "PASS --footprint counts spin's lookups"
else
  echo "FAIL --footprint: no spin row with 2 lookups an iteration in 3 or more blocks"
  exit 1
fi
printf '1000 1 5 14000400\n1010 1 7 14000002\n1020 1 3 d65f03c0\n' >"$tmp/made_up"
printf '00000000-00100000 r-xp 00000000 00:00 0 %s/made_up_code\n' "$tmp" >"$tmp/made_up.maps"
/usr/bin/python3.11 "$report" "$tmp/made_up" --footprint | tee "$tmp/report_made_up"
if head -1 "$tmp/report_made_up" | grep -q "in 3 blocks on 1 pages; exits through QEMU's lookup 8 "; then
  echo "PASS --footprint: a branch to another page and a return go through the lookup"
else
  echo "FAIL --footprint: expected 3 blocks on 1 page and 8 lookups (5 + 3) in the first line"
  exit 1
fi
