#!/bin/sh
# census.py over a dump directory of two functions (and one file without code, and a stub's
# dump it skips), whose counts are known: 10 instructions, the prev_instr pair three times,
# three prev_instr stores (two before the call stub, one before a jump), one call passing the
# frame first.
# And its errors: a missing directory (exit 2), a directory without dumps (exit 1).
set -u
here=$(dirname "$0")
py=/usr/bin/python3.11
out=$("$py" "$here/census.py" "$here/testdata/census" --top 3) || { echo "FAIL: census exited $?"; exit 1; }
failed=0
expect() {
  if printf '%s\n' "$out" | grep -qF -- "$1"; then echo "PASS $1"; else echo "FAIL missing: $1"; failed=1; fi
}
expect "functions 2, instructions 10"
expect "       3 30.00%  add x8, x21, # ; str x8, [x20, #]"
expect "prev_instr stores 3, by what follows:"
expect "       2  a64_call_stub"
expect "       1  (jmp)"
expect "calls passing the frame first 1, by callee:"
expect "       1  a64_load_attr_cached"
"$py" "$here/census.py" "$here/testdata/no_such_dir" >/dev/null 2>&1
[ $? -eq 2 ] && echo "PASS missing directory: exit 2" || { echo "FAIL missing directory"; failed=1; }
empty=$(mktemp -d)
"$py" "$here/census.py" "$empty" >/dev/null 2>&1
[ $? -eq 1 ] && echo "PASS no dumps: exit 1" || { echo "FAIL no dumps"; failed=1; }
rmdir "$empty"
printf '%s\n' "$out"
exit $failed
