#!/usr/bin/env bash
# readme_rules.py on a made-up repository (a "step N" entry, a commit hash, a README too
# long each fail, named; hex constants pass), then on this repository, whose READMEs must
# keep the rules.
set -uo pipefail
rules=$1
source ci/check.sh
repo=$(mktemp -d "${TEST_TMPDIR:-/tmp}/readme-rules.XXXXXX")
mkdir -p "$repo/jit"
printf 'a64jit.\nConstants at 0x1000000 and deadbeef0 pass.\n' > "$repo/README.md"
git -C "$repo" init -q && git -C "$repo" add -A &&
  git -C "$repo" -c user.name=t -c user.email=t@t commit -qm first
log=$repo/log
plant() {  # README text for jit/ -> status; the output in $log
  printf '%s\n' "$1" > "$repo/jit/README.md"
  git -C "$repo" add -A
  "$rules" "$repo" >"$log" 2>&1
}
plant "The JIT."
check "READMEs that keep the rules pass" test $? = 0
plant "Then, step 4: the float path."
check "a step entry fails, named with its file and line" \
  test $? = 1 -a "$(grep -c '^jit/README.md:1: a "step N" entry' "$log")" = 1
# The full hash: a short one is all digits one time in 70 (10/16 to the 9th), and a word of
# digits only is read as a figure, not a commit, so the check would fail by chance.
commit=$(git -C "$repo" rev-parse HEAD)
plant "Measured at $commit."
check "a commit hash fails" test $? = 1 -a "$(grep -c "names commit $commit" "$log")" = 1
plant "$(seq 301)"
check "a README over 300 lines fails" test $? = 1 -a "$(grep -c '301 lines' "$log")" = 1
# This repository: its root is where the runfiles' README.md really lives.
root=$(dirname "$(readlink -f README.md)")
"$rules" "$root" >"$log" 2>&1
check "this repository's READMEs keep the rules" test $? = 0
cat "$log"
check_summary
