// SP-relative slot addresses: a stack slot's address that needs no register of its own.
//
// Lowering builds each call's argument vector in a stack slot (`%a = slotaddr ss0`, stores
// through %a, then `call @f(..., %a, ...)`). Materialised, the address costs an instruction
// (`mov x1, sp`) and a register that the stores go through. When every use of the address is
// the base of a load or store or an argument of an ordinary call, code generation instead
// addresses the slot from SP (`stp xzr, x0, [sp]`) and builds the argument where the call
// needs it; the call stub's second entry (runtime/stub_entries.h) even builds it itself.
#ifndef A64JIT_JIT_CODEGEN_SP_ADDRESSES_H_
#define A64JIT_JIT_CODEGEN_SP_ADDRESSES_H_

#include <vector>

#include "jit/lir/lir.h"

namespace a64jit::codegen {

// Per vreg of `f`: the stack slot whose address it always holds, when it is defined once, by
// `slotaddr`, and read only as the base of a load or store without an index, or as an
// argument of a call by name; -1 otherwise. Code generation gives such a vreg no location,
// so the rules that take their operands from registers (release_stubs.h, into_local_stub.h,
// stub_entries.h's thread state) leave its call as written.
std::vector<int> FindSpAddresses(const lir::Function& f);

}  // namespace a64jit::codegen

#endif  // A64JIT_JIT_CODEGEN_SP_ADDRESSES_H_
