#!/usr/bin/env bash
# doc_paths.py on a made-up repository (what counts as ours, what is missing, and where it
# says so), then on this repository, whose docs and comments must name only paths that exist.
set -uo pipefail
doc_paths=$1
source ci/check.sh
repo=$(mktemp -d "${TEST_TMPDIR:-/tmp}/doc-paths.XXXXXX")
mkdir -p "$repo/jit/hir" "$repo/suites/cpython"
echo "x" > "$repo/jit/hir/ops.h"
echo "x" > "$repo/jit/hir/BUILD.bazel"
cat > "$repo/README.md" <<'MD'
The ops are in `jit/hir/ops.h` (or hir/ops.h from jit/), built by //jit/hir:ops.
Facts come from CPython's Objects/genobject.c and cpython/pystate.h, /usr/include/x.h,
//visibility:public, //suites/SUITE:MODULE_jit and OUT/<side>/manifest.json.
MD
git -C "$repo" init -q && git -C "$repo" add -A
log=$repo/log
"$doc_paths" "$repo" >"$log" 2>&1
check "present paths, foreign paths and placeholders pass" test $? = 0
plant() {  # line -> status; the output in $log
  echo "$1" > "$repo/jit/NOTES.md"
  git -C "$repo" add -A
  "$doc_paths" "$repo" >"$log" 2>&1
}
plant "Layouts: jit/hir/site_cache.h."  # doc-paths: ignore
check "a missing path fails, named with its file and line" \
  test $? = 1 -a "$(grep -c '^jit/NOTES.md:1: names jit/hir/site_cache.h' "$log")" = 1  # doc-paths: ignore
plant "See hir/lower.h."  # doc-paths: ignore
check "a missing path relative to a folder fails" test $? = 1
plant "Run //jit/nope:all."  # doc-paths: ignore
check "a label of a missing package fails" test $? = 1
plant "A fixture names jit/hir/gone.h. doc-paths: ignore"
check "an ignored line passes" test $? = 0
log=$(mktemp "${TEST_TMPDIR:-/tmp}/doc-paths-repo.XXXXXX")
# This repository: its root is where the runfiles' README.md really lives.
root=$(dirname "$(readlink -f README.md)")
"$doc_paths" "$root" >"$log" 2>&1
check "this repository's docs and comments name only paths that exist" test $? = 0
cat "$log"
check_summary
