// CPython 3.11 bytecode -> HIR, by abstract interpretation of the value stack from the first
// instruction and from each exception handler (co_exceptiontable). An instruction that may
// raise inside a protected range gets its handler's landing block (FrameState::catch_block).
// When a handler uses an opcode the builder lacks, the function is built again without
// handlers: its exceptions then leave for the interpreter, which runs the handler.
#ifndef A64JIT_JIT_HIR_BUILDER_H_
#define A64JIT_JIT_HIR_BUILDER_H_

#include "jit/decisions.h"
#include "jit/hir/hir.h"

namespace a64jit::hir {

// Throws Unsupported for an opcode the JIT does not handle (or generators, coroutines and
// module-level code, which always stay interpreted). A block whose code had not run when
// 3.11 quickened the function and since (CodeInfo::unrun) becomes a ColdExit to the
// interpreter, one decision (hir.cold-path) each: what only such blocks lead to is not built.
Function Build(const CodeInfo& code, Decisions* decisions = nullptr);

// The code units one instruction occupies after its opcode (3.11's inline caches).
int InlineCacheUnits(int opcode);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_BUILDER_H_
