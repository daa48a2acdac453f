// Capstone disassembly of aarch64 code, for fault reports and golden tests.
#ifndef A64JIT_JIT_CODEGEN_DISASSEMBLY_H_
#define A64JIT_JIT_CODEGEN_DISASSEMBLY_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace a64jit::codegen {

// One line per instruction: "0x<address>: <mnemonic> <operands>", with "=> " marking the
// instruction at `mark` (if it is in range) and "   " before the others.
std::string DisassembleAt(const uint8_t* bytes, size_t size, uint64_t address, uint64_t mark);

}  // namespace a64jit::codegen

#endif  // A64JIT_JIT_CODEGEN_DISASSEMBLY_H_
