// The call trampoline: aarch64 code that performs one AAPCS64 call described by a CallFrame.
// Both executors run it (natively, or under Unicorn), so argument marshalling exists once.
#ifndef A64JIT_JIT_RUNTIME_CALL_TRAMPOLINE_H_
#define A64JIT_JIT_RUNTIME_CALL_TRAMPOLINE_H_

#include <cstdint>
#include <vector>

namespace a64jit::runtime {

// void stub(CallFrame* frame): switches to frame->new_sp if non-zero, copies the stack
// arguments, loads x0-x7 and d0-d7, calls frame->target, stores x0/d0 into the frame, and
// returns on the caller's stack with x19-x28/d8-d15 as they were.
std::vector<uint8_t> AssembleCallTrampoline();

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_RUNTIME_CALL_TRAMPOLINE_H_
