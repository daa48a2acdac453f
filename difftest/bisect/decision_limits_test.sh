#!/usr/bin/env bash
# Every optional decision must be optional: the bisector's search assumes that code compiled
# at any A64JIT_OPT_LIMIT (decisions 1..L taken, the rest declined) is correct. Corpus
# programs that exercise most kinds of decision (inline arithmetic and compares, caches,
# known calls, unboxed ints, containers, iteration, unpacking), each at limits 0, 4 and 30,
# must match the interpreter (pydiff, with its proof that the JIT ran).
# Not here: c_calls.py and tracing_midrun.py, whose recursion-limit messages differ at low
# limits: a declined inline compare calls PyObject_RichCompare, which counts the recursion
# depth (" in comparison") where 3.11's specialised COMPARE_OP does not.
set -uo pipefail
corpus=difftest/python/corpus
programs=(arithmetic_forms caches containers int_compares known_calls unboxed_ints
          unpack_iterate floats)
failed=0
out=${TEST_TMPDIR:-/tmp}/decision_limits.out
for limit in 0 4 30; do
  for p in "${programs[@]}"; do
    if A64JIT_OPT_LIMIT=$limit /usr/bin/python3.11 difftest/python/pydiff.py \
        --runner jit/python/a64jit-run "$corpus/$p.py" > "$out" 2>&1; then
      echo "PASS $p.py at A64JIT_OPT_LIMIT=$limit"
    else
      echo "FAIL $p.py at A64JIT_OPT_LIMIT=$limit"
      tail -12 "$out"
      failed=1
    fi
  done
done
rm -f "$out"
exit $failed
