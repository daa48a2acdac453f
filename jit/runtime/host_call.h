// Calling a host function with register arguments, as guest code would: used by the LIR
// reference interpreter (its `call`s) and by the Unicorn backend (guest -> host calls).
#ifndef A64JIT_JIT_RUNTIME_HOST_CALL_H_
#define A64JIT_JIT_RUNTIME_HOST_CALL_H_

#include <cstdint>

namespace a64jit::runtime {

enum class RetKind { kVoid, kInt, kDouble };

struct HostCallResult {
  uint64_t x0;
  double d0;
};

// Both ABIs (AAPCS64 and SysV x86-64) assign integer and double arguments to registers
// independently and in order, so calling through a prototype with 8 of each passes exactly
// what a callee with fewer expects; the 7th and 8th integers land in the stack slots SysV
// uses for them.
HostCallResult CallHost(uint64_t address, RetKind ret, const uint64_t x[8], const double d[8]);

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_RUNTIME_HOST_CALL_H_
