#include "jit/python/loop_entry.h"

#include <opcode.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>
#include <vector>

#include "jit/python/early_frames.h"
#include "jit/python/interp_state.h"
#include "jit/python/tiering.h"

namespace a64jit::python {

int g_trapped_codes = 0;

namespace {

// The innermost timed run on the main thread (under the GIL), and its start for the waker.
TimedRun* g_innermost = nullptr;
std::atomic<int64_t> g_innermost_start{0};
// When the waker may ask next about the innermost run: a run the policy found not hot yet is
// asked about again when it has lasted twice as long, so that a run waiting for the compile
// budget costs a few looks, not one a tick.
std::atomic<int64_t> g_next_look_ns{0};
std::atomic<bool> g_look_asked{false};

// A code whose loop headers hold traps: each unit as it was.
struct Traps {
  PyCodeObject* code;
  std::vector<std::pair<int, _Py_CODEUNIT>> saved;
};
std::vector<Traps> g_traps;

Traps* TrapsOf(const PyCodeObject* code) {
  for (Traps& t : g_traps) {
    if (t.code == code) return &t;
  }
  return nullptr;
}

// Tracing or profiling switched on (sys.settrace, sys.setprofile and their C forms raise
// these audit events) takes every trap away: a trap run with tracing on would report a
// return that never happened.
int AuditTracing(const char* event, PyObject*, void*) {
  if (g_trapped_codes != 0 &&
      (std::strcmp(event, "sys.settrace") == 0 || std::strcmp(event, "sys.setprofile") == 0)) {
    RemoveAllLoopTraps();
  }
  return 0;
}

bool WatchTracing() {
  static bool watching = false;
  if (watching) return true;
  if (PySys_AddAuditHook(AuditTracing, nullptr) == 0) {
    watching = true;
  } else {
    PyErr_Clear();  // an audit hook refused the new one: no traps
  }
  return watching;
}

bool SetLoopTraps(Runtime& r, PyCodeObject* code, const std::vector<int>& units) {
  if (TrapsOf(code) != nullptr) return true;
  if (!WatchTracing()) return false;
  // A frame of the code that is not an entry frame: RETURN_VALUE there would hand the trap's
  // value to the caller's frame.
  if (AnyFrameOf(r, code, [](const _PyInterpreterFrame* f) { return !f->is_entry; })) {
    r.stats.loop_traps_refused++;
    return false;
  }
  if (!CacheCoCode(code)) return false;
  Traps t{code, {}};
  _Py_CODEUNIT* first = _PyCode_CODE(code);
  for (int unit : units) {
    t.saved.emplace_back(unit, first[unit]);
    _Py_SET_OPCODE(first[unit], RETURN_VALUE);
  }
  g_traps.push_back(std::move(t));
  g_trapped_codes++;
  r.stats.loop_traps++;
  return true;
}

// What the waker reads: when the innermost run began, 0 when there is none to look at.
void PublishInnermost() {
  const TimedRun* run = g_innermost;
  g_innermost_start.store(run != nullptr && !run->done ? run->start_ns : 0,
                          std::memory_order_relaxed);
  g_next_look_ns.store(0, std::memory_order_relaxed);
}

}  // namespace

bool CacheCoCode(PyCodeObject* code) {
  PyObject* clean = PyCode_GetCode(code);
  if (clean == nullptr) {
    PyErr_Clear();
    return false;
  }
  Py_DECREF(clean);
  return true;
}

int PendingLook(void*) {
  g_look_asked.store(false, std::memory_order_relaxed);
  if (!LookAtEarlyFrame(false)) LookAtLoops(false);
  return 0;
}

void BeginTimedRun(TimedRun* run) {
  if (run->ts != TheRuntime().first_thread) return;
  run->outer = g_innermost;
  g_innermost = run;
  PublishInnermost();
}

void EndTimedRun(TimedRun* run) {
  if (g_innermost != run) return;  // not registered (another thread)
  g_innermost = run->outer;
  PublishInnermost();
  if (g_trapped_codes != 0) RemoveLoopTraps(run->frame->f_code);
}

void TickLoopEntries(int64_t now_ns, int64_t min_ns) {
  if (EarlyRunInProgress()) return;
  const int64_t start = g_innermost_start.load(std::memory_order_relaxed);
  const bool timed_run_due = start != 0 && now_ns - start >= min_ns &&
                             now_ns >= g_next_look_ns.load(std::memory_order_relaxed);
  if (!timed_run_due && !(start == 0 && EarlyLookDue(now_ns))) return;
  if (g_look_asked.exchange(true, std::memory_order_relaxed)) return;
  if (AddPendingCallFromOtherThread(PendingLook, nullptr) != 0) {
    g_look_asked.store(false, std::memory_order_relaxed);
  }
}

bool LookAtLoops(bool force) {
  Runtime& r = TheRuntime();
  TimedRun* run = g_innermost;
  PyThreadState* ts = PyThreadState_Get();
  if (!r.enabled() || run == nullptr || run->done || run->ts != ts || ts->cframe->use_tracing) {
    return false;
  }
  CodeState* st = run->st;
  PyCodeObject* code = run->frame->f_code;
  if (st->suppressed || st->status == CodeState::Status::kFailed) {
    run->done = true;
    PublishInnermost();
    return false;
  }
  if (st->status == CodeState::Status::kCounting) {
    // The policy's question, with this run's time so far (InterpretTimed adds it later).
    const int64_t now = MonotonicNs();
    if (!force && !RunQualifies(st, code, now - run->start_ns)) {
      g_next_look_ns.store(now + (now - run->start_ns), std::memory_order_relaxed);
      return false;
    }
    st->wants_loop_entries = true;
    Compile(st, code, run->frame->f_func, run->frame);
    if (st->status == CodeState::Status::kCompiled) r.stats.loop_entry_compiles++;
  }
  if (st->status != CodeState::Status::kCompiled || st->loop_entries.empty() ||
      !SetLoopTraps(r, code, st->loop_entries)) {
    // Not compiled with entries (compiled for another frame, or a generator), or traps refused.
    if (st->status != CodeState::Status::kCounting) {
      run->done = true;
      PublishInnermost();
    }
    return false;
  }
  return true;
}

bool AtLoopTrap(const _PyInterpreterFrame* frame) {
  const Traps* t = TrapsOf(frame->f_code);
  if (t == nullptr) return false;
  const int64_t unit = frame->prev_instr - _PyCode_CODE(frame->f_code);
  return std::any_of(t->saved.begin(), t->saved.end(),
                     [unit](const auto& s) { return s.first == unit; });
}

void NoteLoopEntered(const _PyInterpreterFrame* frame) {
  if (g_innermost == nullptr || g_innermost->frame != frame) return;
  g_innermost->done = true;
  PublishInnermost();
}

void RemoveLoopTraps(PyCodeObject* code) {
  for (auto it = g_traps.begin(); it != g_traps.end(); ++it) {
    if (it->code != code) continue;
    _Py_CODEUNIT* first = _PyCode_CODE(code);
    for (const auto& [unit, word] : it->saved) first[unit] = word;
    g_traps.erase(it);
    g_trapped_codes--;
    return;
  }
}

void RemoveAllLoopTraps() {
  while (!g_traps.empty()) RemoveLoopTraps(g_traps.back().code);
}

}  // namespace a64jit::python
