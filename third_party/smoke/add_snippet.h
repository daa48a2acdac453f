// The Foundation smoke snippet: `add x0, x0, x1; ret`, assembled with asmjit, disassembled
// with capstone, and run by whatever executes aarch64 code on this host (Unicorn on x86-64,
// a direct call on aarch64). It proves the third_party glue works in every configuration;
// emulation/ holds the real executors.
#ifndef A64JIT_THIRD_PARTY_SMOKE_ADD_SNIPPET_H_
#define A64JIT_THIRD_PARTY_SMOKE_ADD_SNIPPET_H_

#include <cstdint>
#include <string>
#include <vector>

namespace a64jit::smoke {

// Machine code of `add x0, x0, x1; ret` encoded by asmjit's AArch64 assembler.
std::vector<uint8_t> AssembleAddRet();

// Capstone's disassembly, one "mnemonic operands" line per instruction.
std::string Disassemble(const std::vector<uint8_t>& code);

struct RunResult {
  uint64_t value = 0;
  const char* mode = "";            // "unicorn" or "native"
  uint64_t guest_instructions = 0;  // counted under Unicorn; 0 when run natively
};

// Runs `code` as a function of two 64-bit integers on this host's executor.
RunResult RunOnThisHost(const std::vector<uint8_t>& code, uint64_t a, uint64_t b);

}  // namespace a64jit::smoke

#endif  // A64JIT_THIRD_PARTY_SMOKE_ADD_SNIPPET_H_
