// CPython 3.11 bytecode -> HIR, by abstract interpretation of the value stack from the first
// instruction along normal control flow. Exception handlers are reached only through the
// exception table, i.e. in the interpreter after a deopt, so they are never translated.
#ifndef A64JIT_JIT_HIR_BUILDER_H_
#define A64JIT_JIT_HIR_BUILDER_H_

#include "jit/hir/hir.h"

namespace a64jit::hir {

// Throws Unsupported for an opcode the JIT does not handle (or generators, coroutines and
// module-level code, which always stay interpreted).
Function Build(const CodeInfo& code);

// The code units one instruction occupies after its opcode (3.11's inline caches).
int InlineCacheUnits(int opcode);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_BUILDER_H_
