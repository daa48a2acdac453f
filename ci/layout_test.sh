#!/usr/bin/env bash
# layout.py on made-up trees (a long function, a long file), then on this repository's jit/.
set -uo pipefail
layout=$1
source ci/check.sh
tree() {  # fresh made-up repository with one short function in jit/a.cc (doc-paths: ignore)
  root=$(mktemp -d "${TEST_TMPDIR:-/tmp}/layout.XXXXXX")
  mkdir -p "$root/jit/hir"
  printf 'int f() {\n  return 1;\n}\n' > "$root/jit/a.cc"
  yes '// filler' | head -n 1000 > "$root/jit/hir/full.cc"
}
body() {  # N lines of a function body
  yes '  x++;' | head -n "$1"
}
log=$(mktemp "${TEST_TMPDIR:-/tmp}/layout-log.XXXXXX")
tree
"$layout" "$root" >"$log" 2>&1
check "short functions and a file of 1,000 lines pass" test $? = 0
tree
{ echo 'void Long() {'; body 100; echo '}'; } > "$root/jit/b.cc"
"$layout" "$root" >"$log" 2>&1
check "a function of 102 lines fails, named" \
  test $? = 1 -a "$(grep -c '^jit/b.cc:1: a function of 102 lines' "$log")" = 1  # doc-paths: ignore
tree
{ echo 'class A {'; echo '  void Long() const {'; body 99; echo '  }'; echo '};'; } > "$root/jit/c.h"
"$layout" "$root" >"$log" 2>&1
check "a member function of 101 lines fails" test $? = 1
tree
yes '// x' | head -n 1001 > "$root/jit/big.cc"
"$layout" "$root" >"$log" 2>&1
check "a file over 1,000 lines fails" test $? = 1
root=$(dirname "$(dirname "$(readlink -f "$layout")")")
"$layout" "$root" >"$log" 2>&1
check "this repository's jit/ is within the limits" test $? = 0
cat "$log"
check_summary
