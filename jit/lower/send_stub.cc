#include "jit/lower/send_stub.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>

#include <cstddef>
#include <map>
#include <stdexcept>

#include "jit/lir/text.h"
#include "jit/lower/lower.h"
#include "jit/lower/stub_text.h"

namespace a64jit::lower {

namespace {

// A coroutine is laid out as a generator (both are _PyGenObject_HEAD), so one set of offsets
// serves both types.
static_assert(offsetof(PyGenObject, gi_frame_state) == offsetof(PyCoroObject, cr_frame_state));
static_assert(offsetof(PyGenObject, gi_iframe) == offsetof(PyCoroObject, cr_iframe));
static_assert(offsetof(PyGenObject, gi_exc_state) == offsetof(PyCoroObject, cr_exc_state));

// The stub, with $name for each layout fact and address (StubValues). bb0-bb7 are JitAmSend's
// tests (jit/python/jit.cc), bb8 ResumeCompiled's and BeginDirectRun's work before the run,
// bb9 on what follows it: EndRun for a value and ResumeCompiled's unlinking (bb11), and
// SendCompiled's end, which for a return is FinishGenerator's with its ClearFrame (bb12-bb18). The
// frame's state byte is an int8_t, read sign-extended (FRAME_SUSPENDED and FRAME_CREATED are
// negative). Only the thread, the receiver and `out` live across the run; the frame is recomputed.
constexpr const char kStubTemplate[] = R"(
func @a64_send_stub(%0:ptr, %1:ptr, %2:ptr, %3:ptr) -> i64 {
bb0:    ; the receiver %1: exactly a generator or a coroutine
  %4:ptr = load [%1 + $ob_type]
  br.i64 eq %4, $gen_type, bb2, bb1
bb1:
  br.i64 ne %4, $coro_type, bb23, bb2
bb2:    ; suspended, or created and sent None
  %5:i8 = load [%1 + $gi_frame_state]
  %6:i64 = sext %5
  br.i64 eq %6, $frame_suspended, bb4, bb3
bb3:
  br.i64 ne %6, $frame_created or.i64 ne %2, $py_none, bb23, bb4
bb4:    ; its code's compiled state %12, from the runtime's direct-mapped cache
  %19:ptr = add %1, $gi_iframe
  %7:ptr = load [%19 + $f_code]
  %8:i64 = lshr %7, 4
  %9:i64 = and %8, $state_cache_mask
  %9:i64 = shl %9, 4
  %10:ptr = mov $state_cache
  %10:ptr = add %10, %9
  %11:ptr = load [%10]
  br.i64 ne %11, %7, bb23, bb5
bb5:    ; a frame small enough to resume directly (jit_stack.h's count)
  %12:ptr = load [%10 + 8]
  %13:i64 = load [%12 + $state_resumable]
  br.i64 eq %13, 0, bb23, bb6
bb6:    ; tracing (a uint8_t), or the JIT off (NULL) or on for another thread
  %14:ptr = mov $direct_thread_slot
  %15:ptr = load [%14]
  %16:ptr = load [%0 + $ts_cframe]
  %17:i8 = load [%16 + $cframe_use_tracing]
  br.i8 ne %17, 0 or.i64 ne %15, %0, bb23, bb7
bb7:    ; at the recursion limit
  %18:i32 = load [%0 + $ts_recursion_remaining]
  br.i32 sle %18, 0, bb23, bb8
bb8:    ; the value pushed (a new reference), the exception state linked, executing, the frame
        ; current one level deeper, then the run
  %20:i32 = load [%19 + $stacktop]
  %21:i64 = sext %20
  %21:i64 = shl %21, 3
  %22:ptr = add %19, %21
  %23:i64 = load [%2]
  %23:i64 = add %23, 1
  store.i64 %23, [%2]
  store.ptr %2, [%22 + $localsplus]
  %20:i32 = add %20, 1
  store.i32 %20, [%19 + $stacktop]
  %24:ptr = load [%0 + $ts_exc_info]
  store.ptr %24, [%1 + $gi_exc_previous]
  %25:ptr = add %1, $gi_exc_state
  store.ptr %25, [%0 + $ts_exc_info]
  store.i8 $frame_executing, [%1 + $gi_frame_state]
  %18:i32 = sub %18, 1
  store.i32 %18, [%0 + $ts_recursion_remaining]
  %26:ptr = load [%16 + $cframe_current_frame]
  store.ptr %26, [%19 + $f_previous]
  store.ptr %19, [%16 + $cframe_current_frame]
  %27:ptr = mov $resume_counter
  %28:i64 = load [%27]
  %28:i64 = add %28, 1
  store.i64 %28, [%27]
  %29:ptr = load [%12 + $state_entry]
  %30:i64 = call *%29(%0, %19)
  ; below $deopt_code_limit a deopt code (or NULL): the helper
  br.i64 ult %30, $deopt_code_limit, bb19, bb9
bb9:   ; a value: yielded when the generator marked itself suspended, else returned
  %31:ptr = add %1, $gi_iframe
  %32:i8 = load [%1 + $gi_frame_state]
  %33:i64 = sext %32
  br.i64 eq %33, $frame_suspended, bb11, bb10
bb10:   ; returned, still executing, with no frame object, f_locals dict or exception to clear:
        ; finished here, else the helper
  %39:ptr = load [%31 + $frame_obj]
  %40:ptr = load [%31 + $f_locals]
  %41:i64 = or %39, %40
  %44:ptr = load [%1 + $gi_exc_value]
  %41:i64 = or %41, %44
  br.i64 ne %33, $frame_executing or.i64 ne %41, 0, bb19, bb11
bb11:   ; the caller current again, the exception state unlinked, the value out
  %34:ptr = load [%0 + $ts_cframe]
  %35:ptr = load [%31 + $f_previous]
  store.ptr %35, [%34 + $cframe_current_frame]
  %36:i32 = load [%0 + $ts_recursion_remaining]
  %36:i32 = add %36, 1
  store.i32 %36, [%0 + $ts_recursion_remaining]
  %37:ptr = load [%1 + $gi_exc_previous]
  store.ptr %37, [%0 + $ts_exc_info]
  store.ptr 0, [%1 + $gi_exc_previous]
  store.ptr 0, [%31 + $f_previous]
  store.ptr %30, [%3]
  br.i64 eq %33, $frame_suspended, bb24, bb12
bb12:   ; returned: the generator cleared before its frame lets go of what it holds (a release
        ; may run code that looks at the generator): the values on its stack, the locals first
        ; (%55 walking to %56), then the function and the code
  store.i8 $frame_cleared, [%1 + $gi_frame_state]
  %42:i32 = load [%31 + $stacktop]
  %43:i64 = sext %42
  %43:i64 = shl %43, 3
  %55:ptr = add %31, $localsplus
  %56:ptr = add %55, %43
  br.i64 ult %55, %56, bb13, bb16
bb13:
  %57:ptr = load [%55]
  br.i64 eq %57, 0, bb15, bb14
bb14:
  %58:i64 = load [%57]
  %58:i64 = sub %58, 1
  store.i64 %58, [%57]
  br.i64 ne %58, 0, bb15, bb21
bb15:
  %55:ptr = add %55, 8
  br.i64 ult %55, %56, bb13, bb16
bb16:
  %51:ptr = add %1, $gi_iframe
  %49:ptr = load [%51 + $f_func]
  %50:i64 = load [%49]
  %50:i64 = sub %50, 1
  store.i64 %50, [%49]
  br.i64 eq %50, 0, bb17, bb18
bb17:
  call @_Py_Dealloc(%49)
  jmp bb18
bb18:
  %59:ptr = add %1, $gi_iframe
  %52:ptr = load [%59 + $f_code]
  %53:i64 = load [%52]
  %53:i64 = sub %53, 1
  store.i64 %53, [%52]
  br.i64 eq %53, 0, bb22, bb20
bb19:   ; anything else after the run
  tailcall @a64_send_end(%0, %1, %30, %3)
bb20:
  %54:i64 = mov 0
  ret %54
bb21:   ; a stack value's last reference
  call @_Py_Dealloc(%57)
  jmp bb15
bb22:
  call @_Py_Dealloc(%52)
  jmp bb20
bb23:   ; anything else before it: unchanged
  tailcall @a64_send(%1, %2, %3)
bb24:   ; yielded
  %38:i64 = mov 1
  ret %38
}
)";

std::map<std::string, int64_t> StubValues(const SendStubFacts& f) {
  const auto word = [](uint64_t v) { return static_cast<int64_t>(v); };
  const auto at = [](size_t offset) { return static_cast<int64_t>(offset); };
  std::map<std::string, int64_t> values = FrameLayoutValues();
  values.insert({
      {"gen_type", word(f.gen_type)},
      {"coro_type", word(f.coro_type)},
      {"py_none", word(f.py_none)},
      {"gi_frame_state", at(offsetof(PyGenObject, gi_frame_state))},
      {"gi_iframe", at(offsetof(PyGenObject, gi_iframe))},
      {"gi_exc_state", at(offsetof(PyGenObject, gi_exc_state))},
      {"gi_exc_value",
       at(offsetof(PyGenObject, gi_exc_state) + offsetof(_PyErr_StackItem, exc_value))},
      {"gi_exc_previous",
       at(offsetof(PyGenObject, gi_exc_state) + offsetof(_PyErr_StackItem, previous_item))},
      {"frame_suspended", int64_t{FRAME_SUSPENDED}},
      {"frame_created", int64_t{FRAME_CREATED}},
      {"frame_executing", int64_t{FRAME_EXECUTING}},
      {"frame_cleared", int64_t{FRAME_CLEARED}},
      {"state_cache", word(f.state_cache)},
      {"state_cache_mask", f.state_cache_mask},
      {"state_entry", f.state_entry},
      {"state_resumable", f.state_resumable},
      {"direct_thread_slot", word(f.direct_thread_slot)},
      {"resume_counter", word(f.resume_counter)},
      {"ts_exc_info", at(offsetof(PyThreadState, exc_info))},
  });
  return values;
}

}  // namespace

std::string SendStubText(const SendStubFacts& facts) {
  if (facts.gen_type == 0 || facts.coro_type == 0 || facts.py_none == 0 || facts.state_cache == 0 ||
      facts.state_cache_mask <= 0 || facts.state_resumable == 0 || facts.direct_thread_slot == 0 ||
      facts.resume_counter == 0) {
    throw std::invalid_argument("send stub: incomplete runtime facts");
  }
  return FillStubText(kStubTemplate, StubValues(facts), "send stub");
}

lir::Function SendStub(const SendStubFacts& facts) {
  lir::Module m = lir::Parse(SendStubText(facts));
  return std::move(m.functions.at(0));
}

}  // namespace a64jit::lower
