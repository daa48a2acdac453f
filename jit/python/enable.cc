// Enabling and disabling the JIT: the eval-frame hook and the generator stand-ins in and
// out, now or after the start delay (jit.h Enable, Disable).
#include <Python.h>
#include <internal/pycore_frame.h>

#include "jit/python/call_capture.h"
#include "jit/python/early_frames.h"
#include "jit/python/engine.h"
#include "jit/python/jit.h"
#include "jit/python/jit_stack.h"
#include "jit/python/loop_entry.h"
#include "jit/python/runtime_state.h"
#include "jit/python/start_delay.h"
#include "jit/python/tiering.h"

namespace a64jit::python {

namespace {

// Puts the eval-frame hook in, from Enable or later from the start delay's waker (holding
// the GIL), unless the JIT was disabled meanwhile.
void InstallHook() {
  Runtime& r = TheRuntime();
  if (!r.enabled()) return;
  if (r.executor == nullptr && !EnsureEngine(r.config)) {  // deferred by the start delay
    ReportLateStartFailure();
    Disable();
    return;
  }
  if (r.stats.hook_started_ms < 0)
    r.stats.hook_started_ms = (MonotonicNs() - r.enabled_ns) / 1000000;
  _PyInterpreterState_SetEvalFrameFunc(r.interp, EvalFrameHook);
  InstallGeneratorSlots();
  NoteEarlyFrames(r.first_thread);
}

// The waker's tick once the hook is in: a timed run that lasted a tick may enter compiled code
// at a loop header (loop_entry.h).
void Tick() { TickLoopEntries(MonotonicNs(), kTickMs * 1'000'000); }

}  // namespace

void StartHookNow() {
  DisarmHook();
  InstallHook();  // which does nothing with the JIT off
}

bool Enable(const Config& config) {
  SetJitStackMib(static_cast<size_t>(config.stack_mib));  // before the executor's stack is made
  Config settled = config;
  settled.SettleThreshold();
  const int64_t delay = StartDelayMs(settled);
  // With a delay the hook goes in later (start_delay.h), from a thread that takes the GIL of
  // the main interpreter (elsewhere, or with the hook in already, at once), and the engine
  // waits for it: that thread builds it first, without the GIL, while the program runs on
  // (engine.h), and InstallHook adopts it. A process that ends first never pays for either.
  PyInterpreterState* interp = PyInterpreterState_Get();
  const bool defer = delay > 0 && interp == PyInterpreterState_Main() &&
                     _PyInterpreterState_GetEvalFrameFunc(interp) != EvalFrameHook;
  if (!(defer ? OpenOutputs(config) : EnsureRuntime(config))) return false;
  ConfigureCapture(CaptureSettings{config.capture_file});
  ConfigureFaultInjection(config);
  Runtime& r = TheRuntime();
  r.config = settled;
  r.policy_epoch++;
  r.interp = interp;
  r.first_thread = PyThreadState_Get();
  r.direct_thread = r.first_thread;
  if (!r.budget.started()) {  // the budget counts from the first enable
    r.budget = CompileBudget(TieringFor(config));
    r.budget.Start(MonotonicNs());
  }
  r.stub_thread = r.stub_off_runs == 0 ? r.direct_thread : nullptr;
  r.enabled_ns = MonotonicNs();
  r.stats.start_delay_ms = delay;
  r.stats.hook_started_ms = -1;
  const bool cpu_time = settled.start_delay_ms == Config::kAutoStartDelay;
  if (defer && r.executor == nullptr) SetEngineToPrepare(EngineInputsFor(r.config));
  if (defer && ArmHook(delay, cpu_time, PrepareEngine, InstallHook, Tick)) return true;
  if (r.executor == nullptr && !EnsureEngine(r.config)) return false;  // no waker could start
  InstallHook();
  return true;
}

void Disable() {
  DisarmHook();
  RemoveAllLoopTraps();
  ForgetEarlyFrames();
  Runtime& r = TheRuntime();
  r.direct_thread = nullptr;
  r.stub_thread = nullptr;
  _PyInterpreterState_SetEvalFrameFunc(PyInterpreterState_Get(), _PyEval_EvalFrameDefault);
  RestoreGeneratorSlots();
}

}  // namespace a64jit::python
