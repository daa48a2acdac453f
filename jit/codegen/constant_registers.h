// Constant registers: a function's frequent wide constants kept in callee-saved registers
// that register allocation left unused, loaded once in the prologue.
//
// A constant that no instruction encodes (a type's or a helper's address, of three or four
// 16-bit chunks) is otherwise loaded from the literal pool into a scratch register at each
// use: `ldr x17, literal` before every `cmp` of a type guard. Type guards repeat the same few
// types (float, int, a class) through a function, 30,318 of the stdlib's 61,064 literal loads
// at d882b36 (benchmarks/code_size/README.md); held in a register, each use is the `cmp`
// alone. A register that allocation did not use costs its save and restore with the others
// (nothing more when it completes a pair) and the one load.
#ifndef A64JIT_JIT_CODEGEN_CONSTANT_REGISTERS_H_
#define A64JIT_JIT_CODEGEN_CONSTANT_REGISTERS_H_

#include <cstdint>
#include <map>
#include <vector>

#include "jit/lir/lir.h"

namespace a64jit::codegen {

// At most this many registers, each for a constant read at least kConstantRegisterMinUses
// times (as a compare's, a branch's or a store's operand, where a use is a literal load).
inline constexpr int kMaxConstantRegisters = 3;
inline constexpr int kConstantRegisterMinUses = 4;

// The constants to keep in registers, each with its register: of x19-x28, those not in
// `used_callee_saved`, from x28 down; the most used constants first. Empty for a function
// without calls (it may be frameless, with no prologue to load them in).
std::map<uint64_t, int> ChooseConstantRegisters(const lir::Function& f,
                                                const std::vector<int>& used_callee_saved);

}  // namespace a64jit::codegen

#endif  // A64JIT_JIT_CODEGEN_CONSTANT_REGISTERS_H_
