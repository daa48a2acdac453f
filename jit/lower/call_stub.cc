#include "jit/lower/call_stub.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>

#include <cctype>
#include <cstddef>
#include <map>
#include <stdexcept>

#include "jit/lir/text.h"

namespace a64jit::lower {

namespace {

// The stub, with $name for each layout fact and address (StubValues). It is a64_call_enter's
// path through IsCompiledFunction, EnterCompiledCall, PushFrame and BeginRun
// (jit/python/helpers.cc, jit.cc), minus what it hands over (bb6). Under Unicorn each
// conditional branch ends a translated block, the unit the emulator pays for: so the tests
// that need no branch of their own are or-ed into one.
constexpr const char kStubTemplate[] = R"(
func @a64_call_enter_stub(%0:ptr, %1:ptr, %2:i64, %57:i64) -> i64 {
bb0:    ; sp (%1) is [NULL, callable, args...] or [method, self, args...]: %4 the function,
        ; its %6 arguments from %5
  %3:ptr = load [%1]
  %7:ptr = load [%1 + 8]
  %4:ptr = select %3, %3, %7
  %8:i8 = cmp.i64 ne %3, 0
  %9:i64 = zext %8
  %10:i64 = shl %9, 3
  %11:ptr = add %1, 16
  %5:ptr = sub %11, %10
  %6:i64 = add %2, %9
  %12:ptr = load [%4 + $ob_type]
  br.i64 ne %12, $function_type, bb6, bb1
bb1:    ; a compiled function (a bound-method object is the helper's: bb6)
  %13:ptr = load [%4 + $func_vectorcall]
  br.i64 ne %13, $jit_vectorcall, bb6, bb2
bb2:    ; its code %14's state %20, from the runtime's direct-mapped cache of compiled code
  %14:ptr = load [%4 + $func_code]
  %15:i64 = lshr %14, 4
  %16:i64 = and %15, $state_cache_mask
  %17:i64 = shl %16, 4
  %18:ptr = mov $state_cache
  %18:ptr = add %18, %17
  %19:ptr = load [%18]
  br.i64 ne %19, %14, bb6, bb3
bb3:    ; the rest of the helper's tests, in one branch
  %20:ptr = load [%18 + 8]
  %21:i64 = load [%20 + $state_plain_argcount]
  %22:i8 = cmp.i64 ne %21, %6                 ; not exactly its positional parameters
  %23:ptr = mov $enabled_flag
  %24:i8 = load [%23]
  %25:i8 = cmp.i8 eq %24, 0                   ; the JIT off
  %26:i8 = or %22, %25
  %27:ptr = mov $first_thread_slot
  %28:ptr = load [%27]
  %29:i8 = cmp.i64 ne %28, %0                 ; not the thread that enabled it
  %26:i8 = or %26, %29
  %31:ptr = load [%0 + $ts_cframe]
  %32:i8 = load [%31 + $cframe_use_tracing]
  %33:i8 = cmp.i8 ne %32, 0                   ; tracing (a uint8_t, then padding)
  %26:i8 = or %26, %33
  %35:i32 = load [%0 + $ts_recursion_remaining]
  %36:i8 = cmp.i32 sle %35, 0                 ; at the recursion limit
  %26:i8 = or %26, %36
  %38:ptr = load [%0 + $ts_datastack_top]
  %39:i64 = load [%20 + $state_frame_bytes]
  %40:ptr = add %38, %39
  %41:ptr = load [%0 + $ts_datastack_limit]
  %42:i8 = cmp.i64 uge %40, %41               ; no room (also with no chunk: top, limit NULL)
  %26:i8 = or %26, %42
  br %26, bb6, bb4
bb4:    ; push the frame %38 (3.11's _PyFrame_InitializeSpecials); the callable's reference
        ; moves in. Locals past the arguments are the callee's to clear (lower.cc).
  store.ptr %40, [%0 + $ts_datastack_top]
  store.ptr %4, [%38 + $f_func]
  store.ptr %14, [%38 + $f_code]
  %43:i64 = load [%14]
  %43:i64 = add %43, 1
  store.i64 %43, [%14]
  %44:ptr = load [%4 + $func_builtins]
  store.ptr %44, [%38 + $f_builtins]
  %45:ptr = load [%4 + $func_globals]
  store.ptr %45, [%38 + $f_globals]
  store.ptr 0, [%38 + $f_locals]
  store.ptr 0, [%38 + $frame_obj]
  %46:i32 = load [%14 + $co_nlocalsplus]
  store.i32 %46, [%38 + $stacktop]
  %47:ptr = add %14, $first_instr_minus_one
  store.ptr %47, [%38 + $prev_instr]
  store.i8 0, [%38 + $is_entry]
  store.i8 $owned_by_thread, [%38 + $owner]
  %48:ptr = add %38, $localsplus
  %49:i64 = shl %6, 3
  %50:ptr = add %5, %49
  br.i64 eq %6, 0, bb7, bb5
bb5:    ; the arguments' references move in
  %51:ptr = load [%5]
  store.ptr %51, [%48]
  %48:ptr = add %48, 8
  %5:ptr = add %5, 8
  br.i64 ult %5, %50, bb5, bb7
bb6:    ; anything else: the helper, with the arguments as they came
  %52:i64 = call @a64_call_enter(%0, %1, %2, %57)
  ret %52
bb7:    ; the frame becomes current (BeginRun); its entry returned, the frame in sp[0]
  %35:i32 = sub %35, 1
  store.i32 %35, [%0 + $ts_recursion_remaining]
  %53:ptr = load [%31 + $cframe_current_frame]
  store.ptr %53, [%38 + $f_previous]
  store.ptr %38, [%31 + $cframe_current_frame]
  %54:ptr = mov $entry_counter
  %55:i64 = load [%54]
  %55:i64 = add %55, 1
  store.i64 %55, [%54]
  store.ptr %38, [%1]
  %56:i64 = load [%20 + $state_entry]
  ret %56
}
)";

std::map<std::string, int64_t> StubValues(const CallStubFacts& f) {
  const auto word = [](uint64_t v) { return static_cast<int64_t>(v); };
  const auto at = [](size_t offset) { return static_cast<int64_t>(offset); };
  return {
      {"ob_type", at(offsetof(PyObject, ob_type))},
      {"function_type", word(f.function_type)},
      {"func_vectorcall", at(offsetof(PyFunctionObject, vectorcall))},
      {"jit_vectorcall", word(f.jit_vectorcall)},
      {"func_code", at(offsetof(PyFunctionObject, func_code))},
      {"func_builtins", at(offsetof(PyFunctionObject, func_builtins))},
      {"func_globals", at(offsetof(PyFunctionObject, func_globals))},
      {"co_nlocalsplus", at(offsetof(PyCodeObject, co_nlocalsplus))},
      // prev_instr = _PyCode_CODE(code) - 1, one code unit before the first
      {"first_instr_minus_one",
       at(offsetof(PyCodeObject, co_code_adaptive) - sizeof(_Py_CODEUNIT))},
      {"state_cache", word(f.state_cache)},
      {"state_cache_mask", f.state_cache_mask},
      {"state_entry", f.state_entry},
      {"state_plain_argcount", f.state_plain_argcount},
      {"state_frame_bytes", f.state_frame_bytes},
      {"enabled_flag", word(f.enabled_flag)},
      {"first_thread_slot", word(f.first_thread_slot)},
      {"entry_counter", word(f.entry_counter)},
      {"ts_cframe", at(offsetof(PyThreadState, cframe))},
      {"cframe_use_tracing", at(offsetof(_PyCFrame, use_tracing))},
      {"cframe_current_frame", at(offsetof(_PyCFrame, current_frame))},
      {"ts_recursion_remaining", at(offsetof(PyThreadState, recursion_remaining))},
      {"ts_datastack_top", at(offsetof(PyThreadState, datastack_top))},
      {"ts_datastack_limit", at(offsetof(PyThreadState, datastack_limit))},
      {"f_func", at(offsetof(_PyInterpreterFrame, f_func))},
      {"f_code", at(offsetof(_PyInterpreterFrame, f_code))},
      {"f_builtins", at(offsetof(_PyInterpreterFrame, f_builtins))},
      {"f_globals", at(offsetof(_PyInterpreterFrame, f_globals))},
      {"f_locals", at(offsetof(_PyInterpreterFrame, f_locals))},
      {"frame_obj", at(offsetof(_PyInterpreterFrame, frame_obj))},
      {"f_previous", at(offsetof(_PyInterpreterFrame, previous))},
      {"prev_instr", at(offsetof(_PyInterpreterFrame, prev_instr))},
      {"stacktop", at(offsetof(_PyInterpreterFrame, stacktop))},
      {"is_entry", at(offsetof(_PyInterpreterFrame, is_entry))},
      {"owner", at(offsetof(_PyInterpreterFrame, owner))},
      {"owned_by_thread", int64_t{FRAME_OWNED_BY_THREAD}},
      {"localsplus", at(offsetof(_PyInterpreterFrame, localsplus))},
  };
}

}  // namespace

std::string CallEnterStubText(const CallStubFacts& facts) {
  if (facts.function_type == 0 || facts.state_cache == 0 || facts.state_cache_mask <= 0 ||
      facts.jit_vectorcall == 0 || facts.enabled_flag == 0 || facts.first_thread_slot == 0 ||
      facts.entry_counter == 0) {
    throw std::invalid_argument("call stub: incomplete runtime facts");
  }
  const std::map<std::string, int64_t> values = StubValues(facts);
  std::string out;
  const std::string text = kStubTemplate;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '$') {
      out += text[i++];
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && (std::islower(text[end]) || text[end] == '_')) end++;
    const std::string name = text.substr(i + 1, end - i - 1);
    auto v = values.find(name);
    if (v == values.end()) throw std::logic_error("call stub: no value for $" + name);
    out += std::to_string(v->second);
    i = end;
  }
  return out;
}

lir::Function CallEnterStub(const CallStubFacts& facts) {
  lir::Module m = lir::Parse(CallEnterStubText(facts));
  return std::move(m.functions.at(0));
}

}  // namespace a64jit::lower
