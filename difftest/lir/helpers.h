// Host helpers that fuzzed and hand-written LIR may call by name. The interpreter and the
// emitted code call the very same functions (under Unicorn through the signature registry).
#ifndef A64JIT_DIFFTEST_LIR_HELPERS_H_
#define A64JIT_DIFFTEST_LIR_HELPERS_H_

#include <cstdint>
#include <optional>
#include <string>

namespace a64jit::difftest {

// Registers the helpers with the emulation registry (idempotent) and resolves their names:
//   @h_mix3(i64, i64, i64) -> i64
//   @h_fmix(f64, f64, i64) -> f64
//   @h_wide(i64 x8, f64 x8) -> i64     every argument register in use
//   @h_void(ptr)                       writes to memory, returns nothing
std::optional<uint64_t> ResolveHelper(const std::string& name);

}  // namespace a64jit::difftest

#endif  // A64JIT_DIFFTEST_LIR_HELPERS_H_
