// Signatures of host functions that guest code may call. Under Unicorn a guest branch to a
// host address stops emulation; the executor looks the address up here, reads the
// arguments from X0-X7 / D0-D7, makes the call on the host, and resumes at LR.
#ifndef A64JIT_EMULATION_HELPER_REGISTRY_H_
#define A64JIT_EMULATION_HELPER_REGISTRY_H_

#include <cstdint>
#include <optional>
#include <string>

namespace a64jit::emu {

enum class RetKind { kVoid, kInt, kDouble };

struct HelperSignature {
  std::string name;
  int int_args = 0;     // integer/pointer arguments, at most 8
  int double_args = 0;  // double arguments, at most 8
  RetKind ret = RetKind::kInt;
};

// Registers `fn` (process-wide, thread-safe). Throws std::invalid_argument for more than
// 8 arguments of a kind (stack arguments to host helpers are not bridged).
void RegisterHelper(const void* fn, HelperSignature signature);
std::optional<HelperSignature> LookupHelper(uint64_t address);

// "symbol+0x12 (library)" for a host code address, or "" when unknown.
std::string DescribeHostAddress(uint64_t address);

// Calls a registered host function with register arguments. Both ABIs (AAPCS64 and
// SysV x86-64) assign integer and double arguments to registers independently and in
// order, so calling through a prototype with 8 of each passes exactly what a callee with
// fewer expects; the 7th and 8th integers land in the stack slots SysV uses for them.
struct HostCallResult {
  uint64_t x0;
  double d0;
};
HostCallResult CallHost(uint64_t address, RetKind ret, const uint64_t x[8], const double d[8]);

}  // namespace a64jit::emu

#endif  // A64JIT_EMULATION_HELPER_REGISTRY_H_
