// Block layout, lowering's last step: the order code generation emits a lowered function's
// blocks in. Hot code runs straight through; the cold blocks (exits to the interpreter,
// deallocation, slow paths) of each HIR block come right after its hot ones, so that a value
// an exit uses is not kept live across the hot code of the HIR blocks after it.
#ifndef A64JIT_JIT_LOWER_BLOCK_LAYOUT_H_
#define A64JIT_JIT_LOWER_BLOCK_LAYOUT_H_

#include <vector>

#include "jit/lir/lir.h"

namespace a64jit::lower {

// Reorders f's blocks (renumbering every branch target). Per LIR block: `cold` says lowering
// made it a slow path (blocks reached only from cold blocks become cold too); `group` is
// 1 + the HIR block it belongs to (0: the entry). `order` lists the blocks in the order
// lowering emitted code into them; the entry block comes first.
void LayOutBlocks(lir::Function* f, std::vector<char> cold, const std::vector<int>& group,
                  const std::vector<int>& order);

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_BLOCK_LAYOUT_H_
