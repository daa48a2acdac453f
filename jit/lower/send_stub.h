// The send stub: guest code for compiled code's SEND (`yield from`, `await`) when the receiver
// is a generator or coroutine whose code is compiled, so that resuming it takes no host call.
//
// `a64_send_stub(ts, receiver, value, out)` returns what a64_send returns (PySendResult: 1, the
// receiver yielded; 0, it returned; -1, an error is set), with the yielded or returned value (a
// new reference) in *out, and borrows `value`. It does what jit/python/jit.cc's JitAmSend does on
// its direct path, which is gen_send_ex2's (Objects/genobject.c) for compiled code: for an exact
// generator or coroutine that is suspended, or created and sent None, whose code's compiled state
// the runtime's state cache holds and may be resumed directly (its frame small enough for the
// JIT stack's count, jit/python/jit_stack.h), with tracing off, on the thread the call stub
// runs compiled code on directly, below the recursion limit, it pushes the value onto the
// generator's frame, links the generator's exception state, marks it executing, makes its frame
// current and calls the code's entry. A yield (the generator marked itself suspended) is
// finished here; so is a return whose frame has no frame object, no f_locals dict, and whose
// exception state holds nothing (the frame is cleared, as 3.11's _PyFrame_Clear does). Anything
// else after the run (a deopt code, an error, a return that is not that simple) goes to
// `a64_send_end`, which finishes as JitAmSend does. Anything else before the run goes to
// `a64_send`, unchanged.
//
// Measured under QEMU (docs/measurements/2026-12-05-send-stub.md): a resume that yields took
// about 126 instructions through a64_send and JitAmSend and takes about 96 in the stub; one that
// returns took about 168 with FinishGenerator and takes about 140.
#ifndef A64JIT_JIT_LOWER_SEND_STUB_H_
#define A64JIT_JIT_LOWER_SEND_STUB_H_

#include <cstdint>
#include <string>

#include "jit/lir/lir.h"

namespace a64jit::lower {

// What the stub needs from the runtime besides CPython 3.11's layouts.
struct SendStubFacts {
  uint64_t gen_type = 0;   // &PyGen_Type
  uint64_t coro_type = 0;  // &PyCoro_Type
  uint64_t py_none = 0;    // Py_None
  // The runtime's state cache (as CallStubFacts has it) and the offsets, in a state, of the
  // compiled entry and of the word that is nonzero when a generator's frame may be resumed
  // directly.
  uint64_t state_cache = 0;
  int64_t state_cache_mask = 0;
  int64_t state_entry = 0, state_resumable = 0;
  uint64_t direct_thread_slot = 0;  // as CallStubFacts has it
  uint64_t resume_counter = 0;      // an int64 the stub counts its resumes in
};

// The stub's LIR text, `i64 @a64_send_stub(ptr ts, ptr receiver, ptr value, ptr out)`;
// std::invalid_argument when a fact is missing (0).
std::string SendStubText(const SendStubFacts& facts);

// The same, parsed and verified.
lir::Function SendStub(const SendStubFacts& facts);

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_SEND_STUB_H_
