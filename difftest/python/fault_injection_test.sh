#!/usr/bin/env bash
# Fault injection (A64JIT_TEST_FAIL=POINT:N, jit/python/options.h): every second compile fails
# at each point of the pipeline (an allocation failing after HIR, after lowering, before
# emitting; code memory that cannot be mapped), and a slice of the corpus must still give the
# interpreter's output exactly, with functions compiled and the injected failures counted
# (pydiff). The whole corpus at every point: the same command over difftest/python/corpus/.
set -uo pipefail
corpus=difftest/python/corpus
programs=(calls closures generators exceptions classes coroutines floats containers
          recursion threads with_statements deep_recursion)
failed=0
out=${TEST_TMPDIR:-/tmp}/fault_injection.out
for point in hir lower emit code-memory; do
  scripts=()
  for p in "${programs[@]}"; do scripts+=("$corpus/$p.py"); done
  if A64JIT_TEST_FAIL=$point:2 /usr/bin/python3.11 difftest/python/pydiff.py \
      --runner jit/python/a64jit-run "${scripts[@]}" > "$out" 2>&1; then
    echo "PASS ${#programs[@]} programs with every 2nd compile failing at $point"
  else
    echo "FAIL with every 2nd compile failing at $point:"
    grep -v "^PASS" "$out" | head -30
    failed=1
  fi
  grep -o "compiled [0-9]*/[0-9]*" "$out" | head -3 | sed 's/^/  e.g. /'
done
rm -f "$out"
exit $failed
