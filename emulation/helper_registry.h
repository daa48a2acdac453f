// Signatures of host functions that guest code may call. Under Unicorn a guest branch to a
// host address stops emulation; the executor looks the address up here, reads the
// arguments from X0-X7 / D0-D7, makes the call on the host, and resumes at LR.
#ifndef A64JIT_EMULATION_HELPER_REGISTRY_H_
#define A64JIT_EMULATION_HELPER_REGISTRY_H_

#include <cstdint>
#include <string>

#include "jit/runtime/host_call.h"

namespace a64jit::emu {

using runtime::RetKind;

struct HelperSignature {
  std::string name;
  int int_args = 0;     // integer/pointer arguments, at most 8
  int double_args = 0;  // double arguments, at most 8
  RetKind ret = RetKind::kInt;
};

// Registers `fn` (process-wide, thread-safe). Throws std::invalid_argument for more than
// 8 arguments of a kind (stack arguments to host helpers are not bridged).
void RegisterHelper(const void* fn, HelperSignature signature);
// The signature registered for `address`, or null. Entries are never removed, so the
// pointer stays valid (a later RegisterHelper of the same function updates it in place).
const HelperSignature* LookupHelper(uint64_t address);

// "symbol+0x12 (library)" for a host code address, or "" when unknown.
std::string DescribeHostAddress(uint64_t address);

}  // namespace a64jit::emu

#endif  // A64JIT_EMULATION_HELPER_REGISTRY_H_
