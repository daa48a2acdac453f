#include "jit/python/start_delay.h"

#include <Python.h>
#include <time.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace a64jit::python {
namespace {

using Clock = std::chrono::steady_clock;

// Three times the start-up: a process that lives less than about four times its start-up
// spends it importing and setting up, where compiling cannot pay for itself.
constexpr int64_t kStartUpFactor = 3;

// The wakers' shared state.
struct Wakers {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t epoch = 0;                // the arming in force: a waker armed with another one leaves
  bool stopping = false;             // the interpreter is finalizing: every waker leaves
  std::vector<std::thread> threads;  // changed under the GIL only
};
// Never destroyed: a joinable std::thread left at a C++ exit (no atexit run) would abort.
Wakers& g_wakers = *new Wakers();

// Under the GIL: the install still due, and when (to start a waker again after a fork): at
// g_due, and for an automatic delay once the process's CPU time reaches g_cpu_due_ns too.
bool g_pending = false;
Clock::time_point g_due;
int64_t g_cpu_due_ns = 0;  // 0: the wall time alone
int64_t g_cpu_at_fork_ns = 0;
void (*g_prepare)(bool (*)(void*), void*) = nullptr;
void (*g_install)() = nullptr;
void (*g_tick)() = nullptr;
bool g_ticking = false;     // installed, and ticking: a fork starts a waker again for the ticks
bool g_registered = false;  // the atexit and at-fork callbacks; a forked child inherits them

bool Current(const Wakers* w, uint64_t epoch) { return !w->stopping && w->epoch == epoch; }

int64_t ProcessCpuNs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

// Waits, `lock` held, until `due` and then until the process has used its CPU time up to
// `cpu_due_ns` (if not 0), unless cancelled first: false if cancelled.
bool WaitUntilDue(Wakers* w, std::unique_lock<std::mutex>& lock, uint64_t epoch,
                  Clock::time_point due, int64_t cpu_due_ns) {
  w->cv.wait_until(lock, due, [&] { return !Current(w, epoch); });
  while (cpu_due_ns > 0 && Current(w, epoch)) {
    const int64_t left = cpu_due_ns - ProcessCpuNs();
    if (left <= 0) break;
    w->cv.wait_for(lock, std::chrono::nanoseconds(left), [&] { return !Current(w, epoch); });
  }
  return Current(w, epoch);
}

// A waker's thread: sleeps until `due` unless cancelled, then prepares without the GIL and
// installs holding it, asking again once it has it (a cancel may have come while it waited for the
// GIL). Then it ticks until cancelled.
void Wake(Wakers* w, uint64_t epoch, Clock::time_point due, int64_t cpu_due_ns, bool install_due) {
  {
    std::unique_lock<std::mutex> lock(w->mu);
    if (!WaitUntilDue(w, lock, epoch, due, install_due ? cpu_due_ns : 0)) return;
  }
  if (install_due) {
    struct Ask {
      Wakers* w;
      uint64_t epoch;
    } ask{w, epoch};
    g_prepare(
        [](void* p) {
          auto* a = static_cast<Ask*>(p);
          std::lock_guard<std::mutex> lock(a->w->mu);
          return Current(a->w, a->epoch);
        },
        &ask);
    const PyGILState_STATE gil = PyGILState_Ensure();
    bool install = false;
    {
      std::lock_guard<std::mutex> lock(w->mu);
      install = Current(w, epoch);
    }
    if (install) {
      g_pending = false;
      g_ticking = g_tick != nullptr;
      g_install();
    }
    PyGILState_Release(gil);
    if (!install) return;
  }
  if (g_tick == nullptr) return;
  std::unique_lock<std::mutex> lock(w->mu);
  while (!w->cv.wait_for(lock, std::chrono::milliseconds(kTickMs),
                         [&] { return !Current(w, epoch); })) {
    lock.unlock();
    g_tick();
    lock.lock();
  }
}

// Cancels every waker's wait with a new epoch (and for good when `finalizing`): the new
// epoch, or 0 once the wakers are stopping.
uint64_t NewEpoch(bool finalizing) {
  uint64_t epoch = 0;
  {
    std::lock_guard<std::mutex> lock(g_wakers.mu);
    g_wakers.stopping |= finalizing;
    epoch = g_wakers.stopping ? 0 : ++g_wakers.epoch;
  }
  g_wakers.cv.notify_all();
  return epoch;
}

// Starts a waker for g_due (to install, or only to tick), cancelling any earlier one; false if
// no thread could be made.
bool StartWaker(bool install) {
  const uint64_t epoch = NewEpoch(false);
  if (epoch == 0) return false;
  try {
    g_wakers.threads.emplace_back(Wake, &g_wakers, epoch, g_due, g_cpu_due_ns, install);
  } catch (const std::system_error&) {
    return false;
  }
  g_pending = install;
  return true;
}

// Every waker told to leave (for good when finalizing) and joined, the GIL released meanwhile:
// one may be waiting for it.
void JoinWakers(bool finalizing) {
  NewEpoch(finalizing);
  std::vector<std::thread> threads = std::move(g_wakers.threads);
  g_wakers.threads.clear();
  Py_BEGIN_ALLOW_THREADS;
  for (std::thread& t : threads) t.join();
  Py_END_ALLOW_THREADS;
}

// atexit: no waker outlives the interpreter.
PyObject* StopWakers(PyObject*, PyObject*) {
  JoinWakers(true);
  Py_RETURN_NONE;
}

// os.register_at_fork: no waker thread at the fork itself (a thread in the parent makes
// QEMU 7.2's user mode abort when the child starts one, "cpu == current_cpu"), then one
// again on each side for what is left of the delay.
PyObject* BeforeFork(PyObject*, PyObject*) {
  JoinWakers(false);
  g_cpu_at_fork_ns = ProcessCpuNs();
  Py_RETURN_NONE;
}
PyObject* AfterForkInParent(PyObject*, PyObject*) {
  if (g_pending || g_ticking) StartWaker(g_pending);
  Py_RETURN_NONE;
}
// The child's CPU clock starts again from 0: its CPU due is what the parent had left.
PyObject* AfterForkInChild(PyObject*, PyObject*) {
  if (g_cpu_due_ns > 0) {
    const int64_t left = g_cpu_due_ns - g_cpu_at_fork_ns;
    g_cpu_due_ns = ProcessCpuNs() + (left > 0 ? left : 0);
  }
  return AfterForkInParent(nullptr, nullptr);
}

PyMethodDef kStopWakers = {"_a64jit_stop_wakers", StopWakers, METH_NOARGS, nullptr};
PyMethodDef kBeforeFork = {"_a64jit_before_fork", BeforeFork, METH_NOARGS, nullptr};
PyMethodDef kAfterForkInParent = {"_a64jit_after_fork_in_parent", AfterForkInParent, METH_NOARGS,
                                  nullptr};
PyMethodDef kAfterForkInChild = {"_a64jit_after_fork_in_child", AfterForkInChild, METH_NOARGS,
                                 nullptr};

// Calls module.name(*args, **kwargs); false (the error cleared) if anything fails.
bool CallIn(const char* module, const char* name, PyObject* args, PyObject* kwargs) {
  PyObject* m = PyImport_ImportModule(module);
  PyObject* f = m != nullptr ? PyObject_GetAttrString(m, name) : nullptr;
  PyObject* result = f != nullptr && args != nullptr ? PyObject_Call(f, args, kwargs) : nullptr;
  const bool ok = result != nullptr;
  Py_XDECREF(result);
  Py_XDECREF(f);
  Py_XDECREF(m);
  if (!ok) PyErr_Clear();
  return ok;
}

bool RegisterCallbacks() {
  if (g_registered) return true;
  PyObject* stop = PyCFunction_New(&kStopWakers, nullptr);
  PyObject* before = PyCFunction_New(&kBeforeFork, nullptr);
  PyObject* after = PyCFunction_New(&kAfterForkInParent, nullptr);
  PyObject* after_child = PyCFunction_New(&kAfterForkInChild, nullptr);
  PyObject* stop_args = stop != nullptr ? PyTuple_Pack(1, stop) : nullptr;
  PyObject* no_args = PyTuple_New(0);
  PyObject* fork_kwargs = before != nullptr && after != nullptr && after_child != nullptr
                              ? Py_BuildValue("{s:O,s:O,s:O}", "before", before, "after_in_parent",
                                              after, "after_in_child", after_child)
                              : nullptr;
  g_registered = stop_args != nullptr && fork_kwargs != nullptr && no_args != nullptr &&
                 CallIn("atexit", "register", stop_args, nullptr) &&
                 CallIn("os", "register_at_fork", no_args, fork_kwargs);
  for (PyObject* o : {fork_kwargs, no_args, stop_args, after_child, after, before, stop}) {
    Py_XDECREF(o);
  }
  if (!g_registered) PyErr_Clear();
  return g_registered;
}

}  // namespace

int64_t StartDelayMs(const Config& config) {
  if (config.start_delay_ms != Config::kAutoStartDelay) return config.start_delay_ms;
  if (!config.auto_tiering() || config.compile_budget_pct == 0) return 0;
  return kStartUpFactor * (ProcessCpuNs() / 1'000'000);
}

bool ArmHook(int64_t delay_ms, bool cpu_time, void (*prepare)(bool (*go_on)(void*), void*),
             void (*install)(), void (*tick)()) {
  if (!RegisterCallbacks()) return false;
  g_prepare = prepare;
  g_install = install;
  g_tick = tick;
  g_ticking = false;
  g_due = Clock::now() + std::chrono::milliseconds(delay_ms);
  g_cpu_due_ns = cpu_time ? ProcessCpuNs() + delay_ms * 1'000'000 : 0;
  return StartWaker(true);
}

void ReportLateStartFailure() {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyObject* text = value != nullptr ? PyObject_Str(value) : nullptr;
  const char* what = text != nullptr ? PyUnicode_AsUTF8(text) : nullptr;
  std::fprintf(stderr, "a64jit: the JIT could not start, the process goes on stock: %s\n",
               what != nullptr ? what : "unknown error");
  Py_XDECREF(text);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  PyErr_Clear();
}

void DisarmHook() {
  g_pending = false;
  g_ticking = false;
  NewEpoch(false);
}

}  // namespace a64jit::python
