// The call stub: guest code that enters a compiled callee for compiled code's CALL.
//
// Compiled code's CALL (no keywords) asks `a64_call_enter(ts, sp, oparg, c_call_cache)` for the callee's
// entry: for a compiled function called with exactly its positional parameters it pushes the
// callee's frame, moves the references in, makes the frame current and returns the entry
// (the frame in sp[0]); for anything else it makes the whole call (the result in sp[0]) and
// returns 0. The caller then calls the entry itself (lower.cc, LowerCall).
//
// The stub is that helper's common case written in LIR and compiled once per runtime, with
// the same contract, so that a Python call between compiled functions is no host call at
// all: natively it saves the C++ call path (about 150 aarch64 instructions per call on
// Richards, measured with qemu_profile), under Unicorn a round trip out of emulation. Every
// case it does not take (a bound-method object, a function that is not compiled or not
// called with exactly its positional parameters, tracing, another thread, the recursion
// limit, a full data-stack chunk, the JIT disabled, a code object missing from the runtime's
// cache) it hands to a64_call_enter unchanged, before writing anything. The frame's locals
// past the arguments are left for the callee, whose entry clears them (lower.cc).
#ifndef A64JIT_JIT_LOWER_CALL_STUB_H_
#define A64JIT_JIT_LOWER_CALL_STUB_H_

#include <cstdint>
#include <string>

#include "jit/lir/lir.h"

namespace a64jit::lower {

// What the stub needs from the runtime (jit/python/jit.cc) besides CPython 3.11's layouts.
struct CallStubFacts {
  uint64_t function_type = 0;   // &PyFunction_Type
  uint64_t jit_vectorcall = 0;  // func->vectorcall of every compiled function
  // The runtime's direct-mapped cache of compiled code's states: 16-byte entries {code,
  // state}, indexed by (code >> 4) & state_cache_mask. A miss is the helper's (which fills it).
  uint64_t state_cache = 0;
  int64_t state_cache_mask = 0;
  // Offsets, in such a state, of the words the stub reads: the compiled entry, the number of
  // positional parameters when that is all the code takes (-1 otherwise), and the bytes its
  // frame takes on the data stack.
  int64_t state_entry = 0, state_plain_argcount = 0, state_frame_bytes = 0;
  uint64_t enabled_flag = 0;       // a bool: the JIT is on
  uint64_t first_thread_slot = 0;  // a PyThreadState*: the thread that enabled it
  uint64_t entry_counter = 0;      // an int64 the stub counts its entries in
};

// The stub's LIR text, `i64 @a64_call_enter_stub(ptr ts, ptr sp, i64 oparg, i64 cache)`, which calls
// @a64_call_enter for the cases it does not take.
std::string CallEnterStubText(const CallStubFacts& facts);

// The same, parsed and verified.
lir::Function CallEnterStub(const CallStubFacts& facts);

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_CALL_STUB_H_
