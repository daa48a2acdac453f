// Constants moved into their one reader: `%c = mov imm` whose %c is read once, as a value
// operand (not an address's base or index), becomes that operand, and the move goes.
//
// Lowering puts a LOAD_CONST's object in a register where the bytecode loads it; its fast
// paths mostly read the constant as an immediate of their own (a small int, an index), and
// only the generic path, out of line, reads the register. The move then cost an instruction
// (a literal load, for an object's address) on the hot path for a value read only on the
// cold one. Moved into its reader, the constant is materialised where it is read.
//
// A zero goes into all its readers, however many, when each can take it (an immediate, or a
// store's value, stored from xzr): LOAD_GLOBAL's NULL under a called function, read by the
// call's argument vector and the exits' frame stores, then needs no register.
#ifndef A64JIT_JIT_LIR_CONSTANT_OPERANDS_H_
#define A64JIT_JIT_LIR_CONSTANT_OPERANDS_H_

#include "jit/decisions.h"
#include "jit/lir/lir.h"

namespace a64jit::lir {

// Returns how many moves it folded. Each fold is an optional decision
// (`lir.constant-operand`, jit/decisions.h); `d` null takes them all.
int FoldConstantOperands(Function& f, Decisions* d = nullptr);

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_CONSTANT_OPERANDS_H_
