// Branches to blocks that only jump on go straight to where the jumps end, and the blocks no
// longer reached are removed. Lowering leaves such blocks at every join of a fast and a slow
// path (each path's last `jmp` into a `done` block that itself jumps on): each one cost an
// unconditional branch in the hot code, and two in a row at nested joins.
#ifndef A64JIT_JIT_LIR_JUMP_THREADING_H_
#define A64JIT_JIT_LIR_JUMP_THREADING_H_

#include "jit/decisions.h"
#include "jit/lir/lir.h"

namespace a64jit::lir {

// Retargets every branch past blocks that are one `jmp`, turns a `br` whose two targets are
// the same block into a `jmp`, replaces a `jmp` to a block that is one branch on a value the
// jumping block sets with a copy of that branch, and deletes the blocks no path from the
// entry reaches (the others keep their order). Returns how many blocks it deleted.
// The pass as a whole is one optional decision (jit/decisions.h); `d` null takes it.
int ThreadJumps(Function& f, Decisions* d = nullptr);

// Deletes the blocks no path from the entry reaches (the others keep their order, branch
// targets renumbered); returns how many. ThreadJumps ends with it; the LIR shrinker uses it.
int RemoveUnreachableBlocks(Function& f);

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_JUMP_THREADING_H_
