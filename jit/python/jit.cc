#include "jit/python/jit.h"

#include <internal/pycore_frame.h>
#include <opcode.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "jit/codegen/codegen.h"
#include "jit/lower/call_stub.h"
#include "jit/lower/lower.h"
#include "jit/python/arguments.h"
#include "jit/python/call_capture.h"
#include "jit/python/code_info.h"
#include "jit/python/code_listing.h"
#include "jit/python/deopt_frames.h"
#include "jit/python/deopt_stats.h"
#include "jit/python/gdb_jit.h"
#include "jit/python/helpers.h"
#include "jit/python/interp_state.h"
#include "jit/python/interpreted_calls.h"
#include "jit/python/jit_stack.h"
#include "jit/python/loop_entry.h"
#include "jit/python/plain_frames.h"
#include "jit/python/runtime_state.h"
#include "jit/python/start_delay.h"
#include "jit/python/thread_frames.h"
#include "jit/runtime/helpers.h"
#include "jit/runtime/stub_entries.h"

namespace a64jit::python {

namespace {

CodeState* StateOf(PyCodeObject* code, PyFunctionObject* func) {
  Runtime& r = TheRuntime();
  if (r.extra_index < 0) return nullptr;
  if (void* extra = CodeExtraSlot(code, r.extra_index)) return static_cast<CodeState*>(extra);
  auto* st = new CodeState();
  st->module = ModuleOf(func);
  st->name = st->module + ":" + Utf8(code->co_qualname);
  if (_PyCode_SetExtra(reinterpret_cast<PyObject*>(code), r.extra_index, st) < 0) {
    PyErr_Clear();
    delete st;
    return nullptr;
  }
  return st;
}

// The interpreter running `frame`, its time added to the function's (the frame keeps the
// code object, and with it `st`, alive until the caller clears it).
// The run is registered for loop entries (loop_entry.h) while it lasts.
__attribute__((noinline)) PyObject* InterpretTimed(CodeState* st, PyThreadState* ts,
                                                   _PyInterpreterFrame* frame, int throwflag) {
  const int64_t start = MonotonicNs();
  TimedRun run{st, frame, ts, start, nullptr, false};
  BeginTimedRun(&run);
  PyObject* result = Interpret(ts, frame, throwflag);
  EndTimedRun(&run);
  st->interpreted_ns += MonotonicNs() - start;
  return result;
}

// The first half of a run of compiled code: the recursion counted, the frame made current.
A64JIT_ALWAYS_INLINE bool BeginRun(Runtime& r, PyThreadState* ts, _PyInterpreterFrame* frame) {
  if (!EnterRecursiveCall(ts, "")) return false;
  frame->previous = ts->cframe->current_frame;
  ts->cframe->current_frame = frame;
  r.stats.entries++;
  if (ts != r.first_thread) r.stats.other_thread_entries++;
  return true;
}

__attribute__((noinline)) PyObject* FinishDeopt(Runtime& r, CodeState* st, PyThreadState* ts,
                                                _PyInterpreterFrame* frame, uint64_t result) {
  const uint64_t code = DeoptCodeOf(*st, frame, result);
  CompleteFrame(*st, frame, code);
  const bool error = (code & lower::kDeoptKindMask) == lower::kDeoptError;
  const lower::DeoptSite& site = st->deopt_sites.at(code >> 2);
  const bool unwind = error && site.unwinds && !ts->cframe->use_tracing;
  PyObject* raised = error ? PyErr_Occurred() : nullptr;
  RecordDeopt(
      &st->name, frame->f_code, site.bc, site.reason,
      raised != nullptr && PyType_Check(raised) ? reinterpret_cast<PyTypeObject*>(raised) : nullptr,
      unwind ? DeoptExit::kUnwound : DeoptExit::kInterpreter);
  if (unwind) UnwindFrame(frame, site.reraised);
  ts->cframe->current_frame = frame->previous;
  ts->recursion_remaining++;  // Py_LeaveRecursiveCall()
  if (unwind) {
    r.stats.unwinds++;
    return nullptr;
  }
  r.stats.deopts++;
  if (site.reason == lower::DeoptReason::kColdPath) r.stats.cold_path_exits++;
  if (!error) return Interpret(ts, frame, 0);
  return RaiseInInterpreter(ts, frame);
}

// The second half, given what the entry returned: the frame no longer current, and a deopt
// finished.
A64JIT_ALWAYS_INLINE PyObject* EndRun(Runtime& r, CodeState* st, PyThreadState* ts,
                                      _PyInterpreterFrame* frame, uint64_t result) {
  const uint64_t kind = result & lower::kDeoptKindMask;
  if (result < lower::kDeoptCodeLimit &&
      (kind == lower::kDeoptError || kind == lower::kDeoptResume ||
       kind == codegen::kExitByOffset)) {
    return FinishDeopt(r, st, ts, frame, result);
  }
  ts->cframe->current_frame = frame->previous;
  ts->recursion_remaining++;  // Py_LeaveRecursiveCall()
  return reinterpret_cast<PyObject*>(result);
}

// A run of compiled code that failed in the executor. A guest stack overflow (under Unicorn,
// or natively in checked mode, on the executor's stack, at a recursion limit past what that
// stack holds) is the RecursionError of a stack too short; anything else is a bug in
// generated code: a Python error, never the host taken down.
__attribute__((noinline)) void ReportRunFailure(const CodeState* st, const std::exception& e) {
  const auto* fault = dynamic_cast<const runtime::GuestFault*>(&e);
  if (fault != nullptr && fault->kind() == runtime::GuestFault::Kind::kStackOverflow) {
    PyErr_Format(PyExc_RecursionError,
                 "maximum recursion depth exceeded: compiled code of %s overflowed the "
                 "executor's stack of %zu MiB (A64JIT_STACK_MIB)",
                 st->name.c_str(), JitStackMib());
    return;
  }
  PyErr_Format(PyExc_SystemError, "a64jit: compiled code of %s failed: %s", st->name.c_str(),
               e.what());
}

A64JIT_ALWAYS_INLINE PyObject* RunCompiledHere(Runtime& r, CodeState* st, PyThreadState* ts,
                                               _PyInterpreterFrame* frame) {
  if (!BeginRun(r, ts, frame)) return nullptr;
  const int remaining = ts->recursion_remaining;
  uint64_t result = 0;
  bool faulted = false;
  try {
    if (r.direct_calls) {
      // Native and unchecked: a plain call (a fault in generated code is then the process's).
      using Entry = uint64_t (*)(PyThreadState*, _PyInterpreterFrame*);
      result = reinterpret_cast<Entry>(reinterpret_cast<uintptr_t>(st->stub.entry))(ts, frame);
    } else {
      result =
          r.executor->CallInt(st->stub.entry, {runtime::Arg::Ptr(ts), runtime::Arg::Ptr(frame)});
    }
  } catch (const std::exception& e) {
    faulted = true;
    ReportRunFailure(st, e);
  }
  if (faulted) {
    // Frames the compiled code had entered below this one (EnterCompiledCall) are
    // abandoned with it: the thread's current frame and recursion count are this run's.
    ts->cframe->current_frame = frame->previous;
    ts->recursion_remaining = remaining + 1;
    return nullptr;
  }
  return EndRun(r, st, ts, frame, result);
}

// The stack a run of compiled code needs below it (jit_stack.h): kMinRoom, and natively room
// for a chain of direct calls through the call stub as deep as the recursion limit allows
// from here. Under Unicorn and in checked mode compiled code runs on the executor's stack,
// where an overflow is a GuestFault.
A64JIT_ALWAYS_INLINE uintptr_t RoomNeeded(const Runtime& r, PyThreadState* ts) {
  const uint64_t levels = static_cast<uint64_t>(std::max(ts->recursion_remaining, 0));
  return kMinRoom + (r.direct_calls ? levels * r.level_bytes : 0);
}

// A run where the stub's direct calls are off until it ends, so that each call of compiled
// code passes the host, which checks the room.
__attribute__((noinline)) PyObject* RunWithoutStubCalls(Runtime& r, CodeState* st,
                                                        PyThreadState* ts,
                                                        _PyInterpreterFrame* frame) {
  r.stub_off_runs++;
  r.stub_thread = nullptr;
  PyObject* result = RunCompiledHere(r, st, ts, frame);
  if (--r.stub_off_runs == 0) r.stub_thread = r.direct_thread;
  return result;
}

PyObject* RunCompiledSlow(Runtime& r, CodeState* st, PyThreadState* ts, _PyInterpreterFrame* frame,
                          uintptr_t room);

A64JIT_ALWAYS_INLINE PyObject* RunCompiled(Runtime& r, CodeState* st, PyThreadState* ts,
                                           _PyInterpreterFrame* frame) {
  const uintptr_t room = StackRoom();
  if (__builtin_expect(room < RoomNeeded(r, ts), 0)) return RunCompiledSlow(r, st, ts, frame, room);
  return RunCompiledHere(r, st, ts, frame);
}

// RunCompiled's arguments, for its call on the JIT's stack.
struct RunCall {
  Runtime* r;
  CodeState* st;
  PyThreadState* ts;
  _PyInterpreterFrame* frame;
};

uintptr_t RunOnJitStack(void* arg) {
  const auto* c = static_cast<RunCall*>(arg);
  return reinterpret_cast<uintptr_t>(RunCompiled(*c->r, c->st, c->ts, c->frame));
}

// RunCompiled with less room than RoomNeeded: off the JIT's stack (a call from C code on the
// thread's own), it moves there; on it, with less than kMinRoom, it goes on on the stack's
// rest, or the stack is full; else the run goes on without the stub's direct calls.
__attribute__((noinline)) PyObject* RunCompiledSlow(Runtime& r, CodeState* st, PyThreadState* ts,
                                                    _PyInterpreterFrame* frame, uintptr_t room) {
  RunCall call{&r, st, ts, frame};
  if (room == 0) return reinterpret_cast<PyObject*>(CallOnJitStack(RunOnJitStack, &call));
  if (room < kMinRoom) return reinterpret_cast<PyObject*>(CallOnStackRest(RunOnJitStack, &call));
  return RunWithoutStubCalls(r, st, ts, frame);
}

// BeginRun on the JIT's first thread below the recursion limit (the caller tested both): no
// other-thread count, no recursion error to raise.
A64JIT_ALWAYS_INLINE void BeginDirectRun(Runtime& r, PyThreadState* ts,
                                         _PyInterpreterFrame* frame) {
  MakeFrameCurrent(ts, frame);
  r.stats.entries++;
}

// The compiled code's entry called directly (Runtime::direct_calls).
A64JIT_ALWAYS_INLINE uint64_t CallEntry(const CodeState* st, PyThreadState* ts,
                                        _PyInterpreterFrame* frame) {
  using Entry = uint64_t (*)(PyThreadState*, _PyInterpreterFrame*);
  return reinterpret_cast<Entry>(reinterpret_cast<uintptr_t>(st->stub.entry))(ts, frame);
}

// Whether RunDirect may take a run on `ts`: the JIT's first thread, natively and unchecked,
// below the recursion limit, on its JIT stack with the room a run needs (else the general
// path moves to that stack, or finds it full, or runs without the stub's direct calls).
A64JIT_ALWAYS_INLINE bool DirectRunFits(const Runtime& r, PyThreadState* ts) {
  return ts == r.direct_thread && r.direct_calls && ts->recursion_remaining > 0 &&
         FirstThreadRoom() >= RoomNeeded(r, ts);
}

// RunCompiled where DirectRunFits: about 20 guest instructions fewer a run.
A64JIT_ALWAYS_INLINE PyObject* RunDirect(Runtime& r, CodeState* st, PyThreadState* ts,
                                         _PyInterpreterFrame* frame) {
  BeginDirectRun(r, ts, frame);
  return EndRun(r, st, ts, frame, CallEntry(st, ts, frame));
}

// The state of `code` when the cache does not have it (fills the cache for compiled code).
__attribute__((noinline)) CodeState* ExistingStateSlow(PyCodeObject* code, StateCacheEntry& e) {
  auto* st = static_cast<CodeState*>(CodeExtraSlot(code, TheRuntime().extra_index));
  if (st != nullptr && st->status == CodeState::Status::kCompiled) e = {code, st};
  return st;
}

A64JIT_ALWAYS_INLINE CodeState* ExistingState(PyCodeObject* code) {
  StateCacheEntry& e = g_state_cache[StateCacheIndex(code)];
  return e.code == code ? e.state : ExistingStateSlow(code, e);
}

}  // namespace

// func->vectorcall of a compiled function: pushes the frame on the thread's data stack and
// runs the compiled code directly, without the eval-frame hook. Anything unusual (keyword
// arguments, defaults to fill in, *args, tracing, another thread, a full data-stack chunk,
// a replaced __code__) takes CPython's own path, which reaches the hook.
PyObject* JitVectorcall(PyObject* callable, PyObject* const* args, size_t nargsf,
                        PyObject* kwnames) {
  return CallCompiled(CurrentThreadState(), callable, args, nargsf, kwnames);
}

namespace {

// Undoes PushFrame when the arguments do not bind (the frame holds its code only).
__attribute__((noinline)) void PopUnboundFrame(PyThreadState* ts, _PyInterpreterFrame* frame) {
  Py_DECREF(frame->f_code);
  ts->datastack_top = reinterpret_cast<PyObject**>(frame);
}

// Pushes a frame for a direct call of `func` on the thread's data stack, the frame's
// reference to `func` still to be given and its locals from `first_unset` on NULL (the
// caller sets the ones before). nullptr when CPython's own path must take the call.
A64JIT_ALWAYS_INLINE _PyInterpreterFrame* PushFrame(Runtime& r, PyThreadState* ts,
                                                    PyFunctionObject* func, Py_ssize_t first_unset,
                                                    CodeState** st) {
  auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
  *st = r.enabled() && ts->interp == r.interp ? ExistingState(code) : nullptr;
  if (*st == nullptr || (*st)->status != CodeState::Status::kCompiled || ts->cframe->use_tracing ||
      !FrameFits(ts, code)) {
    return nullptr;
  }
  return PushThreadFrame(ts, func, code, first_unset);
}

// Runs a frame PushFrame made, with its arguments in place, then pops it.
A64JIT_ALWAYS_INLINE PyObject* RunPushedFrame(CodeState* st, PyThreadState* ts,
                                              _PyInterpreterFrame* frame) {
  Runtime& r = TheRuntime();
  r.stats.vectorcall_entries++;
  PyObject* result = RunCompiled(r, st, ts, frame);
  PopFrame(ts, frame);
  return result;
}

// RunPushedFrame after BindArguments, which allocates: a finalizer run then may have switched
// tracing on, and compiled code expects it off on entry (its RESUME tests only the eval
// breaker), so the interpreter takes such a frame.
PyObject* RunBoundFrame(CodeState* st, PyThreadState* ts, _PyInterpreterFrame* frame) {
  if (__builtin_expect(ts->cframe->use_tracing != 0, 0)) {
    PyObject* result = Interpret(ts, frame, 0);
    PopFrame(ts, frame);
    return result;
  }
  return RunPushedFrame(st, ts, frame);
}

// RunPlainCall's end when the run did not return a value (a deopt code, or NULL), or left
// something in its frame for the full clear (a frame object, an f_locals dict): what
// RunPushedFrame does after the entry.
__attribute__((noinline)) PyObject* FinishPlainCall(Runtime& r, CodeState* st, PyThreadState* ts,
                                                    _PyInterpreterFrame* frame, uint64_t result) {
  PyObject* value = EndRun(r, st, ts, frame, result);
  PopFrame(ts, frame);
  return value;
}

// The common case: the frame pushed and run as PushFrame and RunPushedFrame would, and popped
// here as the call stub pops it. The general path took about 160 guest instructions a call,
// this one about 110 (qemu_profile of map() over a one-line lambda). With `first`
// (CallFunctionWithFirst), the frame's first local is `first` and the `nargs` arguments follow
// it; else `first` is null and the arguments start the locals.
A64JIT_ALWAYS_INLINE PyObject* RunPlainCall(Runtime& r, CodeState* st, PyThreadState* ts,
                                            PyFunctionObject* func, PyObject* first,
                                            PyObject* const* args, Py_ssize_t nargs) {
  // The function is the frame's: a C caller may hold it only borrowed (3.11's module_getattro
  // calls a module's __getattr__ straight out of its dict, and one that deletes itself drops
  // the last other reference; test_module's test_module_getattr_tricky).
  Py_INCREF(func);
  _PyInterpreterFrame* frame = PushPlainFrame(ts, st, func, nargs + (first != nullptr ? 1 : 0));
  PyObject** locals = frame->localsplus;
  if (first != nullptr) *locals++ = Py_NewRef(first);
  for (Py_ssize_t i = 0; i < nargs; i++) locals[i] = Py_NewRef(args[i]);
  BeginDirectRun(r, ts, frame);
  r.stats.vectorcall_entries++;
  const uint64_t result = CallEntry(st, ts, frame);
  if (PlainReturn(frame, result)) return PopPlainFrame(ts, frame, result);
  Py_INCREF(frame->f_code);
  return FinishPlainCall(r, st, ts, frame, result);
}

// CallCompiled for everything RunPlainCall does not take. Out of line, so that the common
// case saves and restores only the registers it uses.
__attribute__((noinline)) PyObject* CallCompiledGeneral(PyThreadState* ts, PyObject* callable,
                                                        PyObject* const* args, size_t nargsf,
                                                        PyObject* kwnames) {
  auto* func = reinterpret_cast<PyFunctionObject*>(callable);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  const bool plain = PlainShape(reinterpret_cast<PyCodeObject*>(func->func_code), nargs, kwnames);
  CodeState* st = nullptr;
  _PyInterpreterFrame* frame = PushFrame(TheRuntime(), ts, func, plain ? nargs : 0, &st);
  if (frame == nullptr) return _PyFunction_Vectorcall(callable, args, nargsf, kwnames);
  if (plain) {
    for (Py_ssize_t i = 0; i < nargs; i++) frame->localsplus[i] = Py_NewRef(args[i]);
  } else if (!BindArguments(func, args, nargs, kwnames, frame->localsplus)) {
    PopUnboundFrame(ts, frame);
    return _PyFunction_Vectorcall(callable, args, nargsf, kwnames);
  }
  Py_INCREF(func);  // the frame's reference
  return plain ? RunPushedFrame(st, ts, frame) : RunBoundFrame(st, ts, frame);
}

}  // namespace

PyObject* CallCompiled(PyThreadState* ts, PyObject* callable, PyObject* const* args, size_t nargsf,
                       PyObject* kwnames) {
  Runtime& r = TheRuntime();
  if (kwnames == nullptr && DirectRunFits(r, ts)) {
    auto* func = reinterpret_cast<PyFunctionObject*>(callable);
    CodeState* st = CachedState(reinterpret_cast<PyCodeObject*>(func->func_code));
    const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (PlainCallFits(ts, nargs, st)) return RunPlainCall(r, st, ts, func, nullptr, args, nargs);
  }
  return CallCompiledGeneral(ts, callable, args, nargsf, kwnames);
}

namespace {

// CallFunctionWithFirst's other cases: the vector [first, args...] built on the stack (or,
// past kStackArgs, on the heap) and the function called through CallCompiled or its own
// vectorcall.
__attribute__((noinline)) PyObject* CallWithFirstGeneral(PyThreadState* ts, PyObject* function,
                                                         PyObject* first, PyObject* const* args,
                                                         Py_ssize_t nargs) {
  constexpr Py_ssize_t kStackArgs = 8;
  PyObject* on_stack[1 + kStackArgs];
  PyObject** vector = on_stack;
  if (nargs > kStackArgs) {
    vector = static_cast<PyObject**>(PyMem_Malloc(sizeof(PyObject*) * (1 + nargs)));
    if (vector == nullptr) return PyErr_NoMemory();
  }
  vector[0] = first;
  for (Py_ssize_t i = 0; i < nargs; i++) vector[1 + i] = args[i];
  PyObject* result = CallFunction(ts, function, vector, static_cast<size_t>(nargs) + 1);
  if (vector != on_stack) PyMem_Free(vector);
  return result;
}

}  // namespace

PyObject* CallFunctionWithFirst(PyThreadState* ts, PyObject* function, PyObject* first,
                                PyObject* const* args, Py_ssize_t nargs) {
  auto* func = reinterpret_cast<PyFunctionObject*>(function);
  Runtime& r = TheRuntime();
  if (IsJitVectorcall(func->vectorcall) && DirectRunFits(r, ts)) {
    CodeState* st = CachedState(reinterpret_cast<PyCodeObject*>(func->func_code));
    if (PlainCallFits(ts, nargs + 1, st)) return RunPlainCall(r, st, ts, func, first, args, nargs);
  }
  return CallWithFirstGeneral(ts, function, first, args, nargs);
}

namespace {

// EnterCompiledCall's other shapes (defaults, *args, keywords): the parameters bound with
// references of their own, the callable's moves in and the arguments' (keyword values too) are
// released, as CallCompiledConsuming does. False, with the frame popped and nothing else done,
// when they do not bind (CPython's path raises the error) or binding, which allocates, ran a
// finalizer that switched tracing on (compiled code expects it off on entry: RunBoundFrame).
bool BindBeforeRun(PyFunctionObject* func, PyObject* const* args, Py_ssize_t nargs,
                   PyObject* kwnames, PyThreadState* ts, _PyInterpreterFrame* frame) {
  if (!BindArguments(func, args, nargs, kwnames, frame->localsplus)) {
    PopUnboundFrame(ts, frame);
    return false;
  }
  if (__builtin_expect(ts->cframe->use_tracing != 0, 0)) {
    const auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
    for (int i = 0; i < code->co_nlocalsplus; i++) Py_CLEAR(frame->localsplus[i]);
    PopUnboundFrame(ts, frame);
    return false;
  }
  const Py_ssize_t total = nargs + (kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0);
  for (Py_ssize_t i = 0; i < total; i++) Py_DECREF(args[i]);
  return true;
}

}  // namespace

const void* EnterCompiledCall(PyThreadState* ts, PyObject* callable, PyObject* const* args,
                              Py_ssize_t nargs, PyObject* kwnames, _PyInterpreterFrame** out) {
  auto* func = reinterpret_cast<PyFunctionObject*>(callable);
  // A call at the recursion limit (whose RecursionError CallCompiledConsuming raises) takes
  // the whole call in the host.
  if (ts->recursion_remaining <= 0) return nullptr;
  // So does a call with too little stack left for one more level (jit_stack.h).
  if (StackRoom() < kMinRoom) return nullptr;
  const bool plain = PlainShape(reinterpret_cast<PyCodeObject*>(func->func_code), nargs, kwnames);
  Runtime& r = TheRuntime();
  CodeState* st = nullptr;
  _PyInterpreterFrame* frame = PushFrame(r, ts, func, plain ? nargs : 0, &st);
  if (frame == nullptr) return nullptr;
  if (plain) {
    // The callable's reference and the arguments' move into the frame.
    for (Py_ssize_t i = 0; i < nargs; i++) frame->localsplus[i] = args[i];
  } else if (!BindBeforeRun(func, args, nargs, kwnames, ts, frame)) {
    return nullptr;
  }
  BeginRun(r, ts, frame);  // cannot fail: recursion_remaining > 0
  r.stats.direct_entries++;
  // The call stub pops the frame of a plain return without releasing its code: the frame's
  // reference becomes a borrowed one (the runtime pins compiled code), as the stub's own push
  // makes it. LeaveCompiledCall takes it back for every other end.
  Py_DECREF(frame->f_code);
  *out = frame;
  return st->stub.entry;
}

const void* DirectCallState(PyObject* callable, Py_ssize_t nargs) {
  auto* code =
      reinterpret_cast<PyCodeObject*>(reinterpret_cast<PyFunctionObject*>(callable)->func_code);
  const CodeState* st = ExistingState(code);
  return st != nullptr && st->status == CodeState::Status::kCompiled &&
                 st->stub.plain_argcount == nargs
             ? st
             : nullptr;
}

PyObject* LeaveCompiledCall(PyThreadState* ts, _PyInterpreterFrame* frame, uint64_t result) {
  // The stub pushed the frame with its code borrowed (jit/lower/call_stub.cc, bb27): its own
  // reference now, before the frame may be cleared, taken over by its frame object or resumed
  // by the interpreter.
  Py_INCREF(frame->f_code);
  CodeState* st = ExistingState(frame->f_code);  // in the cache: entered a moment ago
  PyObject* value = EndRun(TheRuntime(), st, ts, frame, result);
  PopFrame(ts, frame);
  return value;
}

PyObject* CallCompiledConsuming(PyThreadState* ts, PyObject* callable, PyObject* const* args,
                                Py_ssize_t total, PyObject* kwnames) {
  auto* func = reinterpret_cast<PyFunctionObject*>(callable);
  const Py_ssize_t nargs = total - (kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0);
  const bool plain = PlainShape(reinterpret_cast<PyCodeObject*>(func->func_code), nargs, kwnames);
  CodeState* st = nullptr;
  _PyInterpreterFrame* frame = PushFrame(TheRuntime(), ts, func, plain ? nargs : 0, &st);
  // The callable's reference becomes the frame's.
  if (frame != nullptr && plain) {
    // The references move into the frame, as CPython's CALL moves them off the value stack.
    for (Py_ssize_t i = 0; i < nargs; i++) frame->localsplus[i] = args[i];
    return RunPushedFrame(st, ts, frame);
  }
  if (frame != nullptr && BindArguments(func, args, nargs, kwnames, frame->localsplus)) {
    for (Py_ssize_t i = 0; i < total; i++) Py_DECREF(args[i]);  // the frame took its own
    return RunBoundFrame(st, ts, frame);
  }
  if (frame != nullptr) PopUnboundFrame(ts, frame);
  PyObject* res = _PyFunction_Vectorcall(
      callable, args, static_cast<size_t>(nargs) | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
  Py_DECREF(callable);
  for (Py_ssize_t i = 0; i < total; i++) Py_DECREF(args[i]);
  return res;
}

namespace {

void InstallVectorcall(PyFunctionObject* func, CodeState* st) {
  if (func != nullptr && st->status == CodeState::Status::kCompiled &&
      func->vectorcall != JitVectorcall) {
    func->vectorcall = JitVectorcall;
  }
}

}  // namespace

void AdoptJitVectorcall(PyFunctionObject* func) {
  CodeState* st = ExistingState(reinterpret_cast<PyCodeObject*>(func->func_code));
  if (st != nullptr) InstallVectorcall(func, st);
}

namespace {

// Whether calls of `st`'s function are recorded (Config::capture_pattern).
bool Captured(CodeState* st) {
  if (st->captured < 0) {
    const std::string& p = TheRuntime().config.capture_pattern;
    st->captured = !p.empty() && GlobMatch(p.c_str(), st->name.c_str()) ? 1 : 0;
  }
  return st->captured == 1;
}

// The interpreter running `frame`, the call recorded when its function is captured
// (call_capture.h). Only interpreted calls are: the bisector captures in a run that
// compiles nothing, and the test stays off the path into compiled code.
__attribute__((noinline)) PyObject* InterpretCapturing(PyThreadState* ts,
                                                       _PyInterpreterFrame* frame) {
  CodeState* st = StateOf(frame->f_code, frame->f_func);
  nlohmann::ordered_json record;
  if (st != nullptr && Captured(st)) record = BeginCapture(st->name, frame);
  PyObject* result = Interpret(ts, frame, 0);
  if (!record.is_null()) EndCapture(std::move(record), result);
  return result;
}

// EvalFrameHook's frame on the JIT's stack.
struct HookCall {
  PyThreadState* ts;
  _PyInterpreterFrame* frame;
  int throwflag;
};

uintptr_t HookOnJitStack(void* arg) {
  const auto* c = static_cast<HookCall*>(arg);
  return reinterpret_cast<uintptr_t>(EvalFrameHook(c->ts, c->frame, c->throwflag));
}

// EvalFrameHook off the JIT's stack (the thread's first Python frame, or a call from C code
// on the thread's own stack): it moves there.
__attribute__((noinline)) PyObject* EvalFrameOffStack(PyThreadState* ts, _PyInterpreterFrame* frame,
                                                      int throwflag) {
  HookCall call{ts, frame, throwflag};
  return reinterpret_cast<PyObject*>(CallOnJitStack(HookOnJitStack, &call));
}

// EvalFrameHook with less than kMinRoom left on the JIT's stack: on the stack's rest, or
// RecursionError where there is none.
__attribute__((noinline)) PyObject* EvalFrameOnStackRest(PyThreadState* ts,
                                                         _PyInterpreterFrame* frame,
                                                         int throwflag) {
  HookCall call{ts, frame, throwflag};
  return reinterpret_cast<PyObject*>(CallOnStackRest(HookOnJitStack, &call));
}

// EvalFrameHook's path for everything but compiled code in the state cache: compiling,
// counting, timing loops, and the interpreter. Out of line, so that the hook's own path
// saves and restores only the registers it uses.
__attribute__((noinline)) PyObject* EvalFrameHookSlow(Runtime& r, PyThreadState* ts,
                                                      _PyInterpreterFrame* frame, int throwflag) {
  // The interpreter, too, runs on the JIT's stack (jit_stack.h); compiled code's runs check
  // for themselves (RunCompiled).
  if (const uintptr_t room = StackRoom(); __builtin_expect(room < kMinRoom, 0)) {
    return room == 0 ? EvalFrameOffStack(ts, frame, throwflag)
                     : EvalFrameOnStackRest(ts, frame, throwflag);
  }
  CodeState* timed = nullptr;  // a function with a loop, run interpreted: its time counts
  if (throwflag == 0 && ts->interp == r.interp && !ts->cframe->use_tracing) {
    CodeState* st = ExistingState(frame->f_code);
    if (st == nullptr) st = StateOf(frame->f_code, frame->f_func);
    if (st != nullptr && st->status == CodeState::Status::kCounting &&
        (frame->f_code->co_flags & (CO_OPTIMIZED | CO_NEWLOCALS)) !=
            (CO_OPTIMIZED | CO_NEWLOCALS)) {
      st->status = CodeState::Status::kFailed;  // module and class bodies: never candidates
      st->failure = "module or class body";
      r.stats.bodies++;
    }
    if (st != nullptr) {
      if (st->status == CodeState::Status::kCounting && Qualifies(st, frame->f_code)) {
        Compile(st, frame->f_code, frame->f_func, frame);
      }
      // Compiling allocates, and a finalizer it runs may switch tracing on: compiled code
      // expects it off on entry (its RESUME tests only the eval breaker).
      if (st->status == CodeState::Status::kCompiled && !ts->cframe->use_tracing) {
        // Later calls of this function object skip the hook.
        if (frame->f_func->func_code == reinterpret_cast<PyObject*>(frame->f_code)) {
          InstallVectorcall(frame->f_func, st);
        }
        return RunCompiled(r, st, ts, frame);
      }
      if (TimesLoop(r, st, frame->f_code)) timed = st;
      AdoptInterpretedVectorcall(frame);
    }
  }
  if ((frame->f_code->co_flags & CO_OPTIMIZED) != 0) r.stats.interpreted_entries++;
  if (__builtin_expect(CaptureActive(), 0) && throwflag == 0) return InterpretCapturing(ts, frame);
  if (timed != nullptr) return InterpretTimed(timed, ts, frame, throwflag);
  return Interpret(ts, frame, throwflag);
}

// The compiled state of `frame`'s code when the state cache holds it (compiled states only)
// and compiled code may run it on `ts` now (RunsHere). Else nullptr, and the caller takes its
// slow path.
A64JIT_ALWAYS_INLINE CodeState* RunnableState(const Runtime& r, PyThreadState* ts,
                                              const _PyInterpreterFrame* frame) {
  CodeState* st = CachedState(frame->f_code);
  return st != nullptr && RunsHere(r, ts) ? st : nullptr;
}

}  // namespace

PyObject* EvalFrameHook(PyThreadState* ts, _PyInterpreterFrame* frame, int throwflag) {
  Runtime& r = TheRuntime();
  if (throwflag == 0 && RunsHere(r, ts)) {
    // Compiled code whose state is in the cache (it holds compiled states only): the shortest
    // path, which a compiled generator's send() and throw() methods take (next(), `yield from`
    // and `await` skip the hook: JitGenIterNext, JitAmSend).
    // A generator's frame needs no vectorcall check: its function was called, and checked,
    // when it was made.
    if (CodeState* st = CachedState(frame->f_code)) {
      if (frame->owner != FRAME_OWNED_BY_GENERATOR &&
          frame->f_func->func_code == reinterpret_cast<PyObject*>(frame->f_code)) {
        InstallVectorcall(frame->f_func, st);
      }
      return RunCompiled(r, st, ts, frame);
    }
    // Next most calls: a function still counting, which goes to the interpreter at once.
    if (QuietCall(r, frame)) {
      r.stats.interpreted_entries++;
      AdoptInterpretedVectorcall(frame);
      return Interpret(ts, frame, 0);
    }
  }
  return EvalFrameHookSlow(r, ts, frame, throwflag);
}

// The interpreter returned from `frame`: when by a trap (loop_entry.h), RETURN_VALUE popped one
// value (still in its slot, or the word below an empty stack) and left the frame otherwise as
// the header found it.
PyObject* AfterLoopTrap(PyThreadState* ts, _PyInterpreterFrame* frame, PyObject* result) {
  if (!AtLoopTrap(frame) || (result == nullptr && PyErr_Occurred() != nullptr)) return result;
  RemoveLoopTraps(frame->f_code);
  frame->stacktop++;
  Runtime& r = TheRuntime();
  CodeState* st = ExistingState(frame->f_code);
  if (st != nullptr && st->status == CodeState::Status::kCompiled && !st->loop_entries.empty() &&
      RunsHere(r, ts)) {
    r.stats.loop_entries++;
    NoteLoopEntered(frame);
    return RunCompiled(r, st, ts, frame);
  }
  frame->prev_instr--;  // the header again, in the interpreter
  return Interpret(ts, frame, 0);
}

// The frame is current in its own interpreter loop, which waits in a pending call: the run
// makes it current again itself (BeginRun), and an interpreter that finishes it after a deopt
// marks it an entry frame, which its own loop must not see (RETURN_VALUE there would leave that
// loop).
PyObject* RunEarlyFrame(PyThreadState* ts, _PyInterpreterFrame* frame, CodeState* st, int unit,
                        int depth) {
  const bool entry = frame->is_entry;
  frame->prev_instr = _PyCode_CODE(frame->f_code) + unit;
  frame->stacktop = frame->f_code->co_nlocalsplus + depth;
  ts->cframe->current_frame = frame->previous;
  PyObject* result = RunCompiled(TheRuntime(), st, ts, frame);
  ts->cframe->current_frame = frame;
  frame->is_entry = entry;
  return result;
}

namespace {

// 3.11's own functions, saved when the JIT's stand-ins first go in (InstallGeneratorSlots):
// PyGen_Type's tp_iternext (gen_iternext) and the am_send of generators and coroutines (both
// gen_send_ex2 with no exception and not closing). Kept for good: a C loop that read the
// stand-in's pointer before a disable (list(), sum(), a `for` in C) goes on calling it, and it
// hands what it does not run to these.
iternextfunc g_gen_iternext = nullptr;
sendfunc g_gen_am_send = nullptr;
sendfunc g_coro_am_send = nullptr;
bool g_slots_in = false;  // the stand-ins are in the types

// gen_iternext's end after FinishGenerator: a return value other than None becomes
// StopIteration's value. NULL in every case.
__attribute__((noinline)) PyObject* FinishIteration(PyGenObject* gen, _PyInterpreterFrame* frame,
                                                    PyObject* result) {
  if (result == Py_None) Py_CLEAR(result);
  FinishGenerator(gen, frame, result);
  if (result != nullptr) {
    _PyGen_SetStopIterationValue(result);
    Py_DECREF(result);
  }
  return nullptr;
}

// A resume's start, as gen_send_ex2 makes it before _PyEval_EvalFrame: the value sent pushed
// (a new reference), the exception state linked, FRAME_EXECUTING (the run links previous).
A64JIT_ALWAYS_INLINE void BeforeResume(PyThreadState* ts, PyGenObject* gen,
                                       _PyInterpreterFrame* frame, PyObject* value) {
  frame->localsplus[frame->stacktop++] = Py_NewRef(value);
  gen->gi_exc_state.previous_item = ts->exc_info;
  ts->exc_info = &gen->gi_exc_state;
  gen->gi_frame_state = FRAME_EXECUTING;
}

// A resume's end, after the run: not executing any more, the exception state unlinked.
A64JIT_ALWAYS_INLINE void AfterResume(PyThreadState* ts, PyGenObject* gen,
                                      _PyInterpreterFrame* frame) {
  if (gen->gi_frame_state == FRAME_EXECUTING) gen->gi_frame_state = FRAME_COMPLETED;
  ts->exc_info = gen->gi_exc_state.previous_item;
  gen->gi_exc_state.previous_item = nullptr;
  frame->previous = nullptr;
}

// A created or suspended generator's or coroutine's compiled code `st` resumed with `value`
// sent (RunDirect when `direct`: DirectRunFits, else RunCompiled), as gen_send_ex2 resumes
// it around _PyEval_EvalFrame: the value pushed (a new reference), the exception state linked
// and unlinked, FRAME_EXECUTING during the run and FRAME_COMPLETED after one that did not
// yield. The run's result: yielded while gi_frame_state is FRAME_SUSPENDED, else returned
// (or NULL), with the frame still to finish.
template <bool direct>
A64JIT_ALWAYS_INLINE PyObject* ResumeCompiled(Runtime& r, CodeState* st, PyThreadState* ts,
                                              PyGenObject* gen, _PyInterpreterFrame* frame,
                                              PyObject* value) {
  r.stats.resumed_entries++;
  BeforeResume(ts, gen, frame, value);
  PyObject* result = direct ? RunDirect(r, st, ts, frame) : RunCompiled(r, st, ts, frame);
  AfterResume(ts, gen, frame);
  return result;
}

// A created or suspended generator's or coroutine's frame whose code is not compiled, resumed
// with `value` sent as ResumeCompiled resumes compiled code, the interpreter running it without
// _PyEval_EvalFrame and the eval-frame hook between. Only where the hook would do no more than
// count the resume and interpret it (QuietResume).
A64JIT_ALWAYS_INLINE PyObject* ResumeInterpreted(Runtime& r, PyThreadState* ts, PyGenObject* gen,
                                                 _PyInterpreterFrame* frame, PyObject* value) {
  r.stats.interpreted_entries++;
  r.stats.interpreted_resumes++;
  BeforeResume(ts, gen, frame, value);
  PyObject* result = Interpret(ts, frame, 0);
  AfterResume(ts, gen, frame);
  return result;
}

// Whether the hook, given `frame`'s resume on `ts`, would only count it and interpret it:
// RunsHere, and QuietCall (which counts it).
A64JIT_ALWAYS_INLINE bool QuietResume(const Runtime& r, PyThreadState* ts,
                                      const _PyInterpreterFrame* frame) {
  return RunsHere(r, ts) && QuietCall(r, frame);
}

// The compiled state to resume `gen` in on `ts` where DirectRunFits holds (then the JIT's
// first thread, this runtime's interpreter): the state cache's entry for its code, tracing
// off; else nullptr. The entry itself, not CachedState: its NULL test is one more compare.
A64JIT_ALWAYS_INLINE CodeState* DirectResumeState(PyThreadState* ts,
                                                  const _PyInterpreterFrame* frame) {
  const StateCacheEntry& cached = g_state_cache[StateCacheIndex(frame->f_code)];
  return cached.code == frame->f_code && !ts->cframe->use_tracing ? cached.state : nullptr;
}

// A resume where DirectRunFits does not hold (another thread, the executor, at the recursion
// limit), as ResumeWithoutHook's contract says: false, with nothing changed, where 3.11's path
// must take it.
A64JIT_ALWAYS_INLINE bool ResumeNotDirect(Runtime& r, PyThreadState* ts, PyGenObject* gen,
                                          PyObject* value, PyObject** result) {
  auto* frame = reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe);
  if (CodeState* st = RunnableState(r, ts, frame)) {
    *result = ResumeCompiled<false>(r, st, ts, gen, frame, value);
    return true;
  }
  if (!QuietResume(r, ts, frame)) return false;
  *result = ResumeInterpreted(r, ts, gen, frame, value);
  return true;
}

// JitGenIterNext where DirectRunFits does not hold.
__attribute__((noinline)) PyObject* JitGenIterNextGeneral(Runtime& r, PyThreadState* ts,
                                                          PyGenObject* gen) {
  PyObject* result;
  if (!ResumeNotDirect(r, ts, gen, Py_None, &result)) {
    return g_gen_iternext(reinterpret_cast<PyObject*>(gen));
  }
  if (result != nullptr && gen->gi_frame_state == FRAME_SUSPENDED) return result;
  return FinishIteration(gen, reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe), result);
}

// PyGen_Type's tp_iternext while the JIT is enabled (next(), `for`, and the C functions that
// iterate: sum, join, list): a generator whose code is compiled, created or suspended, with
// tracing off, resumes in it with None sent, as gen_iternext would resume it. Everything
// else is 3.11's gen_iternext.
PyObject* JitGenIterNext(PyObject* self) {
  auto* gen = reinterpret_cast<PyGenObject*>(self);
  if (gen->gi_frame_state >= FRAME_EXECUTING) return g_gen_iternext(self);
  PyThreadState* ts = CurrentThreadState();
  Runtime& r = TheRuntime();
  if (!DirectRunFits(r, ts)) return JitGenIterNextGeneral(r, ts, gen);
  auto* frame = reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe);
  PyObject* result;
  if (CodeState* st = DirectResumeState(ts, frame)) {
    result = ResumeCompiled<true>(r, st, ts, gen, frame, Py_None);
  } else if (QuietResume(r, ts, frame)) {
    result = ResumeInterpreted(r, ts, gen, frame, Py_None);
  } else {
    return g_gen_iternext(self);
  }
  if (result != nullptr && gen->gi_frame_state == FRAME_SUSPENDED) return result;
  return FinishIteration(gen, frame, result);
}

// SendCompiled's end, given what the run gave.
A64JIT_ALWAYS_INLINE PySendResult SendResult(PyGenObject* gen, _PyInterpreterFrame* frame,
                                             PyObject* result, PyObject** presult) {
  *presult = result;
  if (result != nullptr && gen->gi_frame_state == FRAME_SUSPENDED) return PYGEN_NEXT;
  FinishGenerator(gen, frame, result);
  return result != nullptr ? PYGEN_RETURN : PYGEN_ERROR;
}

// JitAmSend's direct run (RunDirect) and end: PYGEN_NEXT with a yielded value, PYGEN_RETURN with
// the returned one, PYGEN_ERROR with NULL and an exception set.
A64JIT_ALWAYS_INLINE PySendResult SendCompiled(Runtime& r, CodeState* st, PyThreadState* ts,
                                               PyGenObject* gen, PyObject* value,
                                               PyObject** presult) {
  auto* frame = reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe);
  return SendResult(gen, frame, ResumeCompiled<true>(r, st, ts, gen, frame, value), presult);
}

// JitAmSend where DirectRunFits does not hold.
template <bool kCoroutine>
__attribute__((noinline)) PySendResult JitAmSendGeneral(Runtime& r, PyThreadState* ts,
                                                        PyObject* self, PyObject* value,
                                                        PyObject** presult) {
  auto* gen = reinterpret_cast<PyGenObject*>(self);
  PyObject* result;
  if (!ResumeNotDirect(r, ts, gen, value, &result)) {
    return (kCoroutine ? g_coro_am_send : g_gen_am_send)(self, value, presult);
  }
  return SendResult(gen, reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe), result, presult);
}

// The am_send of generators (kCoroutine false) and coroutines while the JIT is enabled
// (PyIter_Send: `yield from`, `await`, asyncio's C Task): one whose code is compiled, suspended
// (or created, sent None), with tracing off, resumes in it with the value sent, as
// gen_send_ex2 would resume it. Everything else, and every error gen_send_ex2 raises before
// a run, is 3.11's own am_send.
template <bool kCoroutine>
PySendResult JitAmSend(PyObject* self, PyObject* arg, PyObject** presult) {
  auto* gen = reinterpret_cast<PyGenObject*>(self);
  PyObject* value = arg != nullptr ? arg : Py_None;
  const sendfunc own = kCoroutine ? g_coro_am_send : g_gen_am_send;
  if (gen->gi_frame_state != FRAME_SUSPENDED &&
      (gen->gi_frame_state != FRAME_CREATED || value != Py_None)) {
    return own(self, arg, presult);
  }
  PyThreadState* ts = CurrentThreadState();
  Runtime& r = TheRuntime();
  if (!DirectRunFits(r, ts)) return JitAmSendGeneral<kCoroutine>(r, ts, self, value, presult);
  auto* frame = reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe);
  if (CodeState* st = DirectResumeState(ts, frame)) {
    return SendCompiled(r, st, ts, gen, value, presult);
  }
  if (!QuietResume(r, ts, frame)) return own(self, arg, presult);
  return SendResult(gen, frame, ResumeInterpreted(r, ts, gen, frame, value), presult);
}

// What the send stub (jit/lower/send_stub.h) leaves after a run it began as SendCompiled
// begins one: EndRun, then the rest of SendCompiled.
int SendStubEnd(PyThreadState* ts, PyGenObject* gen, uint64_t result, PyObject** out) {
  auto* frame = reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe);
  Runtime& r = TheRuntime();
  PyObject* value = EndRun(r, ExistingState(frame->f_code), ts, frame, result);
  AfterResume(ts, gen, frame);
  return SendResult(gen, frame, value, out);
}

}  // namespace

// The end of gen_send_ex2 (Objects/genobject.c) for a generator, coroutine or async generator
// that returned (`result`) or raised (NULL) in a run: a StopIteration raised inside becomes
// RuntimeError with it as the cause (PEP 479), and so does a StopAsyncIteration raised inside an
// async generator; the exception state is cleared and the frame with it.
__attribute__((noinline)) void FinishGenerator(PyGenObject* gen, _PyInterpreterFrame* frame,
                                               PyObject* result) {
  if (result == nullptr) {
    const bool async_gen = PyAsyncGen_CheckExact(gen);
    if (PyErr_ExceptionMatches(PyExc_StopIteration)) {
      _PyErr_FormatFromCause(PyExc_RuntimeError, "%s",
                             PyCoro_CheckExact(gen) ? "coroutine raised StopIteration"
                             : async_gen            ? "async generator raised StopIteration"
                                                    : "generator raised StopIteration");
    } else if (async_gen && PyErr_ExceptionMatches(PyExc_StopAsyncIteration)) {
      _PyErr_FormatFromCause(PyExc_RuntimeError, "%s", "async generator raised StopAsyncIteration");
    }
  }
  Py_CLEAR(gen->gi_exc_state.exc_value);  // _PyErr_ClearExcState
  gen->gi_frame_state = FRAME_CLEARED;
  ClearFrame(frame);  // what the hidden _PyFrame_Clear does
}

// JitAmSend's ways to resume, in one function for the stand-ins of other types
// (async_gen_send.cc). JitAmSend keeps its own direct path, laid out so that its common case
// makes no call before the run; the other path is the one all of them share.
bool ResumeWithoutHook(PyGenObject* gen, PyObject* value, PyObject** result) {
  PyThreadState* ts = CurrentThreadState();
  Runtime& r = TheRuntime();
  if (!DirectRunFits(r, ts)) return ResumeNotDirect(r, ts, gen, value, result);
  auto* frame = reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe);
  if (CodeState* st = DirectResumeState(ts, frame)) {
    *result = ResumeCompiled<true>(r, st, ts, gen, frame, value);
    return true;
  }
  if (!QuietResume(r, ts, frame)) return false;
  *result = ResumeInterpreted(r, ts, gen, frame, value);
  return true;
}

void InstallGeneratorSlots() {
  if (g_slots_in) return;
  if (g_gen_iternext == nullptr) {
    g_gen_iternext = PyGen_Type.tp_iternext;
    // Each type's PyAsyncMethods is its own writable static in genobject.c.
    g_gen_am_send = PyGen_Type.tp_as_async->am_send;
    g_coro_am_send = PyCoro_Type.tp_as_async->am_send;
  }
  PyGen_Type.tp_iternext = JitGenIterNext;
  PyGen_Type.tp_as_async->am_send = JitAmSend<false>;
  PyCoro_Type.tp_as_async->am_send = JitAmSend<true>;
  InstallAsyncGenSlots();
  g_slots_in = true;
}

void RestoreGeneratorSlots() {
  if (!g_slots_in) return;
  PyGen_Type.tp_iternext = g_gen_iternext;
  PyGen_Type.tp_as_async->am_send = g_gen_am_send;
  PyCoro_Type.tp_as_async->am_send = g_coro_am_send;
  RestoreAsyncGenSlots();
  g_slots_in = false;
}

CodeState* StateOfFunction(PyObject* func, bool create) {
  if (!PyFunction_Check(func)) {
    PyErr_SetString(PyExc_TypeError, "a64jit: expected a Python function");
    return nullptr;
  }
  auto* f = reinterpret_cast<PyFunctionObject*>(func);
  auto* code = reinterpret_cast<PyCodeObject*>(f->func_code);
  if (!create) return ExistingState(code);
  CodeState* st = StateOf(code, f);
  if (st == nullptr) PyErr_SetString(PyExc_RuntimeError, "a64jit: no room for code state");
  return st;
}

void CountBreakerCall() { TheRuntime().stats.breaker_calls++; }
void CountCaughtException() { TheRuntime().stats.caught++; }

}  // namespace a64jit::python

namespace a64jit::runtime {

int a64_send_end(PyThreadState* ts, PyObject* receiver, uint64_t result, PyObject** out) {
  return python::SendStubEnd(ts, reinterpret_cast<PyGenObject*>(receiver), result, out);
}

}  // namespace a64jit::runtime
