// The call stub: guest code that makes compiled code's CALL (no keywords), shared by every call
// site so that a site is one call of it.
//
// `a64_call_stub(ts, sp, c_call_cache)` returns the call's result (a new reference, or NULL with an
// exception set) and has taken the references in sp. The site's cache is never NULL (a site without
// one calls the host helper `a64_call`); the CALL's oparg is in its header
// (runtime::SiteHeader::argc), a constant of the site that no call site moves into a register. For
// the C function the site's CCallCache holds (site_cache.h) it calls its C entry (for a builtin
// type such as `range` or `list`, or a module's function of another convention such as `max`, its
// vectorcall; for a bound C method cached by its PyMethodDef, with the callable's own self),
// releases the references and handles a set eval breaker after the call, as 3.11's
// PRECALL_BUILTIN_* and PRECALL_BUILTIN_CLASS do; a method descriptor's self may be of a subclass
// of its type (`class Stack(list)`), found among the bases of its type. A user class cached with
// a64_instantiate as its entry (jit/python/instantiate.h) is made through `a64_init_enter`, which
// pushes the frame of its compiled __init__ with the new object first, and `a64_init_leave`, which
// pops it and gives the object. For a compiled function called with exactly its positional
// parameters, or with fewer when positional parameters are all it takes and its defaults give the
// rest, it pushes the callee's frame, moves the references in (and adds one to each default it
// binds), makes the frame current, calls the callee's entry and, when the callee returned a value
// and has no frame object, pops the frame itself; a deopt, a frame object or an error go to
// `a64_call_leave`. When the site's CCallCache holds that compiled function (a64_call_enter caches
// one called with exactly its positional parameters), the stub checks only that it is still a
// function with the cached code, instead of finding the code's state (a call that binds defaults is
// never cached). A bound method object (a classmethod read through its class, a method super()
// found) is unbound in place, as the interpreter's CALL does, and the call taken again as a method
// call's. Every case it does not take before the call (a function that is not compiled or that
// takes *args or keyword-only parameters, too few arguments for its defaults, tracing,
// another thread, the recursion limit, a full data-stack chunk, the JIT disabled, a code object
// missing from the runtime's cache) it hands to `a64_call_enter` before writing anything but that
// unbinding, which the helper would do the same way: the helper either pushes the frame and returns
// the entry (the stub then goes on as above) or makes the whole call.
//
// A CALL with keyword arguments goes to the keyword-call stub instead, `a64_kw_call_stub(ts, sp,
// oparg, kwnames)` (KeywordCallStub): `a64_call_kw_enter` pushes a compiled callee's frame with its
// parameters bound by plan (jit/python/arguments.cc) and returns its entry, which the stub calls
// and hands to `a64_call_leave`; anything else the helper calls whole. Such a call went through
// a64_call, CallCompiledConsuming and a host run of the callee before.
//
// It is written in LIR and compiled once per runtime. Natively that saves the C++ call path (about
// 150 aarch64 instructions per call on Richards, measured with qemu_profile); under Unicorn a round
// trip out of emulation; and in every site the enter-run-leave sequence that each CALL carried
// before (about 60 instructions). The frame's locals past the arguments are left for the callee,
// whose entry clears them (lower.cc).
#ifndef A64JIT_JIT_LOWER_CALL_STUB_H_
#define A64JIT_JIT_LOWER_CALL_STUB_H_

#include <cstdint>
#include <string>

#include "jit/lir/lir.h"

namespace a64jit::lower {

// What the stub needs from the runtime (jit/python/jit.cc) besides CPython 3.11's layouts.
struct CallStubFacts {
  uint64_t function_type = 0;   // &PyFunction_Type
  uint64_t method_type = 0;     // &PyMethod_Type: a bound method object, unbound in guest code
  uint64_t cfunction_type = 0;  // &PyCFunction_Type: builtin functions and bound C methods
  uint64_t jit_vectorcall = 0;  // func->vectorcall of every compiled function
  // The runtime's direct-mapped cache of compiled code's states: 16-byte entries {code,
  // state}, indexed by (code >> 4) & state_cache_mask. A miss is the helper's (which fills it).
  uint64_t state_cache = 0;
  int64_t state_cache_mask = 0;
  // Offsets, in such a state, of the words the stub reads: the compiled entry, the number of
  // positional parameters when that is all the code takes (-1 otherwise), and the bytes its
  // frame takes on the data stack.
  int64_t state_entry = 0, state_plain_argcount = 0, state_frame_bytes = 0;
  // A PyThreadState*: the thread that enabled the JIT while it is on, else NULL (so one test
  // covers both).
  uint64_t direct_thread_slot = 0;
  uint64_t entry_counter = 0;  // an int64 the stub counts its entries in
  uint64_t eval_breaker = 0;   // the interpreter's eval breaker, an int32
  // The C entry a site's CCallCache holds for a user class with a Python __init__
  // (a64_instantiate): the stub makes such a call through a64_init_enter and a64_init_leave.
  uint64_t instantiate_entry = 0;
};

// The stub's LIR text, `ptr @a64_call_stub(ptr ts, ptr sp, i64 oparg, i64 cache)`, which calls
// @a64_call_enter for the cases it does not take and @a64_call_leave for the returns it
// does not handle.
std::string CallStubText(const CallStubFacts& facts);

// The same, parsed and verified.
lir::Function CallStub(const CallStubFacts& facts);

// The keyword-call stub's LIR text, `ptr @a64_kw_call_stub(ptr ts, ptr sp, i64 oparg, ptr
// kwnames)`: a CALL with keyword arguments, whose compiled callee it enters through
// @a64_call_kw_enter, popping a plain return's frame itself and leaving the rest to
// @a64_call_leave (call_stub.cc). It reads only layout facts.
std::string KeywordCallStubText();

// The same, parsed and verified.
lir::Function KeywordCallStub();

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_CALL_STUB_H_
