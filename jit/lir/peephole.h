// Small LIR rewrites that keep the semantics in lir.h (the interpreter runs the result the
// same way) and shorten the machine code.
#ifndef A64JIT_JIT_LIR_PEEPHOLE_H_
#define A64JIT_JIT_LIR_PEEPHOLE_H_

#include "jit/decisions.h"
#include "jit/lir/lir.h"

namespace a64jit::lir {

// `%c = cmp.T cond %a, %b` and then the block's `br %c`, `br.i64 ne %c, 0` or `eq %c, 0`, with
// %c read nowhere else (or nowhere after the branch: a bounded search) and %a, %b not
// redefined between, becomes one `br.T cond %a, %b` (or the negated cond) where the branch
// was: on aarch64, a cmp and a b.cond instead of cmp, cset, cmp, b.cond. Returns how many it
// fused. Each fusion is an optional decision (jit/decisions.h); `d` null takes them all.
int FuseCompareBranches(Function& f, Decisions* d = nullptr);

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_PEEPHOLE_H_
