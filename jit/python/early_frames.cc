#include "jit/python/early_frames.h"

#include <opcode.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "jit/hir/exception_table.h"
#include "jit/python/interp_state.h"
#include "jit/python/loop_entry.h"
#include "jit/python/tiering.h"

namespace a64jit::python {

PyCodeObject* g_exit_trap_code = nullptr;

namespace {

constexpr int64_t kFirstBackOffNs = 20'000'000;  // the waker's tick
constexpr int64_t kLastBackOffNs = 1'000'000'000;

// A frame's memory is taken by the next frame pushed after it returned, maybe of the same code
// (its function called again, compiled or through the hook): the early frame is known by its
// place, its code, whether it was an entry frame, and the interpreter loop running it (its
// _PyCFrame). A frame the hook runs in the interpreter is an entry frame with a loop of its
// own; compiled code's looks are never taken (PendingCallsFromCompiledCode).
struct EarlyFrame {
  _PyInterpreterFrame* frame;
  PyCodeObject* code;
  bool is_entry;
  _PyCFrame* loop;

  bool Is(const _PyInterpreterFrame* f, const _PyCFrame* running) const {
    return f == frame && f->f_code == code && f->is_entry == is_entry && running == loop;
  }
};
std::vector<EarlyFrame> g_early;  // under the GIL
int64_t g_hook_in_ns = 0;
int64_t g_back_off_ns = kFirstBackOffNs;
// Looks that found an early frame after a call of a C function (which tests the breaker too)
// rather than at its loop's backward jump: the next look comes a tick later, up to this many
// times, since a loop body with several such calls is found at its jump one look in several.
constexpr int kQuickRetries = 32;
int g_quick_retries = 0;
// What the waker reads: whether early frames are left, when to ask next, and whether the
// compiled rest of one is running (then no pending call can run: nothing is asked).
std::atomic<bool> g_early_left{false};
std::atomic<int64_t> g_next_look_ns{0};
std::atomic<int> g_early_runs{0};
std::atomic<bool> g_forced_asked{false};

using Units = std::vector<std::pair<int, _Py_CODEUNIT>>;

// The exit trap: the frame that is to run it, the units it replaced, the reference in the
// slot LOAD_FAST reads, and prev_instr as the look left it (the interpreter moves it on at
// the trap's first unit).
struct ExitTrap {
  _PyInterpreterFrame* frame = nullptr;
  int slot = 0;
  Units saved;
  PyObject* held = nullptr;
  _Py_CODEUNIT* marker = nullptr;
};
ExitTrap g_exit;

bool IsPlainFunction(const PyCodeObject* code) {
  const int kFunction = CO_OPTIMIZED | CO_NEWLOCALS;
  const int kResumable = CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR | CO_ITERABLE_COROUTINE;
  return (code->co_flags & kFunction) == kFunction && (code->co_flags & kResumable) == 0;
}

bool OnChain(PyThreadState* ts, const _PyInterpreterFrame* frame) {
  for (const _PyInterpreterFrame* f = ts->cframe->current_frame; f != nullptr; f = f->previous) {
    if (f == frame) return true;
  }
  return false;
}

void NextLook(int64_t at_ns) { g_next_look_ns.store(at_ns, std::memory_order_relaxed); }

// A look that found nothing to do: the next one later, up to a second apart.
void BackOff(int64_t now_ns) {
  NextLook(now_ns + g_back_off_ns);
  g_back_off_ns = std::min(g_back_off_ns * 2, kLastBackOffNs);
}

// Drops the early frames `gone` says are gone, and tells the waker whether any are left.
template <class Gone>
void ForgetIf(Gone gone) {
  g_early.erase(std::remove_if(g_early.begin(), g_early.end(), gone), g_early.end());
  g_early_left.store(!g_early.empty(), std::memory_order_relaxed);
}

// Early frames that returned are forgotten (those whose memory a later frame took, by the code
// and entry flag it has).
void Prune(PyThreadState* ts) {
  ForgetIf([ts](const EarlyFrame& e) {
    return !OnChain(ts, e.frame) || e.frame->f_code != e.code || e.frame->is_entry != e.is_entry;
  });
}

void Forget(const _PyInterpreterFrame* frame) {
  ForgetIf([frame](const EarlyFrame& e) { return e.frame == frame; });
}

// The loop header `frame` has just jumped back to, or -1: prev_instr on a backward jump
// that tests the eval breaker after jumping (the look runs at that test).
int HeaderReached(const _PyInterpreterFrame* frame) {
  const _Py_CODEUNIT* first = _PyCode_CODE(frame->f_code);
  const _Py_CODEUNIT* at = frame->prev_instr;
  if (at < first || at >= first + Py_SIZE(frame->f_code)) return -1;
  switch (_Py_OPCODE(*at)) {
    case JUMP_BACKWARD:
    case JUMP_BACKWARD_QUICK:
    case POP_JUMP_BACKWARD_IF_TRUE:
    case POP_JUMP_BACKWARD_IF_FALSE:
    case POP_JUMP_BACKWARD_IF_NONE:
    case POP_JUMP_BACKWARD_IF_NOT_NONE:
      break;
    default:
      return -1;
  }
  int oparg = _Py_OPARG(*at);
  int shift = 8;
  for (const _Py_CODEUNIT* p = at - 1; p >= first && shift < 32; p--, shift += 8) {
    const int op = _Py_OPCODE(*p);
    if (op != EXTENDED_ARG && op != EXTENDED_ARG_QUICK) break;
    oparg |= _Py_OPARG(*p) << shift;
  }
  return static_cast<int>(at - first) + 1 - oparg;
}

// Whether an exception at `unit - 1` (a pending call's), `unit` or `unit + 1` (the trap's)
// would find a handler in the frame's own code.
bool InTry(PyCodeObject* code, int unit) {
  const auto* table = reinterpret_cast<const uint8_t*>(PyBytes_AS_STRING(code->co_exceptiontable));
  try {
    const auto handlers = hir::DecodeExceptionTable(
        std::vector<uint8_t>(table, table + PyBytes_GET_SIZE(code->co_exceptiontable)));
    for (int u = unit - 1; u <= unit + 1; u++) {
      if (hir::HandlerIndexAt(handlers, u) >= 0) return true;
    }
  } catch (const hir::BadExceptionTable&) {
    return true;
  }
  return false;
}

int ForcedLook(void*);

// Whether the exit trap can take `frame` out at `unit` with `depth` values on its stack (the
// refusals listed in early_frames.h).
bool TrapFits(const Runtime& r, PyThreadState* ts, _PyInterpreterFrame* frame, int unit,
              int depth) {
  PyCodeObject* code = frame->f_code;
  const int slot = code->co_nlocalsplus + depth;
  return PyThreadState_Next(PyInterpreterState_ThreadHead(r.interp)) == nullptr &&
         !OtherPendingCallsQueued(PendingLook, ForcedLook) && depth < code->co_stacksize &&
         slot <= 255 && unit >= 1 && unit + 1 < Py_SIZE(code) &&
         frame->owner == FRAME_OWNED_BY_THREAD && !ts->cframe->use_tracing && !InTry(code, unit) &&
         !AnyFrameOf(r, code, [frame](const _PyInterpreterFrame* f) { return f != frame; });
}

// The trap's units from the header `unit`: LOAD_FAST of `slot`, then `leave` (RETURN_VALUE or
// RERAISE). When a frame object will outlive the frame, it shows the line of the unit the frame
// left by; for a return at `ret` (else -1) the trap then jumps to a LOAD_FAST just before
// that RETURN_VALUE.
Units TrapUnits(int unit, int slot, int leave, int ret) {
  const _Py_CODEUNIT load = _Py_MAKECODEUNIT(LOAD_FAST, slot);
  const int load_at = ret - 1, next = unit + 1;
  if (ret == next) return {{unit, load}};
  if (load_at == next) return {{unit, _Py_MAKECODEUNIT(NOP, 0)}, {next, load}};
  if (ret > next && load_at - next <= 255) {
    return {{unit, _Py_MAKECODEUNIT(JUMP_FORWARD, load_at - next)}, {load_at, load}};
  }
  if (ret >= 1 && ret < unit && next - load_at <= 255) {
    return {{unit, _Py_MAKECODEUNIT(JUMP_BACKWARD_NO_INTERRUPT, next - load_at)}, {load_at, load}};
  }
  return {{unit, load}, {next, _Py_MAKECODEUNIT(leave, 0)}};
}

// The frame as a return leaves it for the trap: locals held (or NULL where a compiled return
// released them: stacktop 0), nothing on the stack, the result or the exception in `slot`.
// Then the trap's units, co_code made first so that it never shows them.
void SetExitTrap(_PyInterpreterFrame* frame, int unit, int depth, PyObject* result) {
  PyCodeObject* code = frame->f_code;
  const int locals = code->co_nlocalsplus;
  const int slot = locals + depth;
  PyObject** lp = frame->localsplus;
  if (frame->stacktop == 0) {
    std::fill(lp, lp + locals, nullptr);
  } else {
    for (int i = locals; i < frame->stacktop; i++) Py_CLEAR(lp[i]);
  }
  std::fill(lp + locals, lp + slot, nullptr);
  int leave = RETURN_VALUE;
  PyObject* held = result;
  if (held == nullptr) {
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (traceback != nullptr) PyException_SetTraceback(value, traceback);
    Py_XDECREF(type);
    Py_XDECREF(traceback);
    held = value;
    leave = RERAISE;  // oparg 0: unwinds from here, no traceback entry added
  }
  lp[slot] = held;
  CacheCoCode(code);  // (out of memory: co_code may then show the trap)
  _Py_CODEUNIT* first = _PyCode_CODE(code);
  const _Py_CODEUNIT* left_at = frame->prev_instr;
  const bool shows_line = result != nullptr && frame->frame_obj != nullptr && left_at >= first &&
                          left_at < first + Py_SIZE(code) && _Py_OPCODE(*left_at) == RETURN_VALUE;
  const Units units = TrapUnits(unit, slot, leave, shows_line ? left_at - first : -1);
  g_exit = ExitTrap{frame, slot, {}, held, first + unit - 1};
  for (const auto& [at, word] : units) {
    g_exit.saved.emplace_back(at, first[at]);
    first[at] = word;
  }
  frame->prev_instr = g_exit.marker;
  g_exit_trap_code = code;
}

// Whether the exit trap's frame is still waiting to run it.
bool ExitTrapWaiting() {
  const ExitTrap& t = g_exit;
  PyThreadState* ts = TheRuntime().first_thread;
  return ts != nullptr && OnChain(ts, t.frame) && t.frame->f_code == g_exit_trap_code &&
         t.frame->prev_instr == t.marker && t.frame->localsplus[t.slot] == t.held;
}

// A forced look that finds the current early frame elsewhere than at a header (after a call,
// which tests the breaker too) asks again, up to kForcedLooks times: the same pending call
// then runs several times at one test (3.11 runs the calls queued meanwhile), then again at
// the frame's next test.
constexpr int kForcedLooks = 4096;
int g_forced_looks_left = 0;

bool AskForcedLook();

int ForcedLook(void*) {
  g_forced_asked.store(false, std::memory_order_relaxed);
  if (!LookAtEarlyFrame(true) && !g_early.empty() && g_forced_looks_left-- > 0) AskForcedLook();
  return 0;
}

bool AskForcedLook() {
  if (g_forced_asked.exchange(true, std::memory_order_relaxed)) return true;
  if (Py_AddPendingCall(ForcedLook, nullptr) == 0) return true;
  g_forced_asked.store(false, std::memory_order_relaxed);
  return false;
}

}  // namespace

void NoteEarlyFrames(PyThreadState* ts) {
  g_early.clear();
  // Each interpreter loop's frames, innermost first, end at its entry frame; the frames below
  // it are the loop's caller's.
  _PyCFrame* loop = ts->cframe;
  for (_PyInterpreterFrame* f = ts->cframe->current_frame; f != nullptr; f = f->previous) {
    if (f->owner == FRAME_OWNED_BY_THREAD && IsPlainFunction(f->f_code)) {
      g_early.push_back({f, f->f_code, static_cast<bool>(f->is_entry), loop});
    }
    if (f->is_entry && loop->previous != nullptr) loop = loop->previous;
  }
  g_hook_in_ns = MonotonicNs();
  g_back_off_ns = kFirstBackOffNs;
  g_quick_retries = 0;
  NextLook(g_hook_in_ns + kFirstBackOffNs);
  g_early_left.store(!g_early.empty(), std::memory_order_relaxed);
}

void ForgetEarlyFrames() {
  ForgetIf([](const EarlyFrame&) { return true; });
  RestoreExitTrap();
}

bool EarlyLookDue(int64_t now_ns) {
  return g_early_left.load(std::memory_order_relaxed) &&
         now_ns >= g_next_look_ns.load(std::memory_order_relaxed);
}

bool EarlyRunInProgress() { return g_early_runs.load(std::memory_order_relaxed) > 0; }

bool AskEarlyLook() {
  g_forced_looks_left = kForcedLooks;
  return AskForcedLook();
}

bool LookAtEarlyFrame(bool force) {
  Runtime& r = TheRuntime();
  PyThreadState* ts = PyThreadState_Get();
  if (!r.enabled() || g_early.empty() || ts != r.first_thread || g_exit_trap_code != nullptr ||
      PendingCallsFromCompiledCode()) {
    return false;
  }
  const int64_t now = MonotonicNs();
  Prune(ts);
  _PyInterpreterFrame* frame = ts->cframe->current_frame;
  const _PyCFrame* running = ts->cframe;
  const auto early = std::find_if(g_early.begin(), g_early.end(),
                                  [=](const EarlyFrame& e) { return e.Is(frame, running); });
  const int unit = early != g_early.end() ? HeaderReached(frame) : -1;
  if (unit < 0) {
    if (early != g_early.end() && g_quick_retries < kQuickRetries) {
      g_quick_retries++;
      NextLook(now + kFirstBackOffNs);
    } else {
      BackOff(now);
    }
    return false;
  }
  PyCodeObject* code = frame->f_code;
  CodeState* st = frame->f_func->func_code == reinterpret_cast<PyObject*>(code)
                      ? StateOfFunction(reinterpret_cast<PyObject*>(frame->f_func), true)
                      : nullptr;
  if (st == nullptr) PyErr_Clear();
  if (st != nullptr && st->status == CodeState::Status::kCounting && !st->suppressed) {
    if (!force && !RunQualifies(st, code, now - g_hook_in_ns)) {
      NextLook(now + (now - g_hook_in_ns));  // asked again when it has run twice as long
      return false;
    }
    st->wants_loop_entries = true;
    Compile(st, code, frame->f_func, frame);
    if (st->status == CodeState::Status::kCompiled) r.stats.loop_entry_compiles++;
  }
  Forget(frame);  // entered now, or never
  if (st == nullptr || st->status != CodeState::Status::kCompiled) return false;
  const auto entry = std::find(st->loop_entries.begin(), st->loop_entries.end(), unit);
  const int depth =
      entry != st->loop_entries.end()
          ? st->loop_entry_depths[static_cast<size_t>(entry - st->loop_entries.begin())]
          : -1;
  if (depth < 0 || !TrapFits(r, ts, frame, unit, depth)) {
    r.stats.early_entries_refused++;
    return false;
  }
  r.stats.early_entries++;
  g_early_runs++;
  HoldPendingCalls();
  PyObject* result = RunEarlyFrame(ts, frame, st, unit, depth);
  ReleasePendingCalls();
  g_early_runs--;
  SetExitTrap(frame, unit, depth, result);
  return true;
}

void RestoreExitTrap() {
  if (g_exit_trap_code == nullptr || ExitTrapWaiting()) return;
  _Py_CODEUNIT* first = _PyCode_CODE(g_exit_trap_code);
  for (const auto& [at, word] : g_exit.saved) first[at] = word;
  g_exit_trap_code = nullptr;
  PyObject* held = g_exit.held;
  g_exit = ExitTrap{};
  Py_DECREF(held);  // last: its finalizer may run code
}

}  // namespace a64jit::python
