// What the a64jit module steers (jit.h): whether the JIT is on, compiling or suppressing one
// function, the threshold, the JIT list and the code-size cap.
#include <string>
#include <vector>

#include "jit/python/jit.h"
#include "jit/python/runtime_state.h"

namespace a64jit::python {

bool IsEnabled() { return TheRuntime().enabled(); }

namespace {
// `func`'s code state for the module's steering calls, the runtime made first if need be
// (null with a Python error set).
CodeState* SteeredState(PyObject* func) {
  Runtime& r = TheRuntime();
  if (r.executor == nullptr && !EnsureRuntime(r.config)) return nullptr;
  return StateOfFunction(func, true);
}
}  // namespace

bool ForceCompile(PyObject* func) {
  CodeState* st = SteeredState(func);
  if (st == nullptr) return false;
  if (st->status == CodeState::Status::kCounting && !st->suppressed) {
    auto* f = reinterpret_cast<PyFunctionObject*>(func);
    Compile(st, reinterpret_cast<PyCodeObject*>(f->func_code), f);
  }
  StartHookNow();  // so that interpreted callers reach the compiled code
  return st->status == CodeState::Status::kCompiled;
}

bool Suppress(PyObject* func) {
  CodeState* st = SteeredState(func);
  if (st == nullptr) return false;
  st->suppressed = true;
  return true;
}

int64_t Threshold() {
  const Config& c = TheRuntime().config;
  return c.threshold.value_or(c.DefaultThreshold());
}
void SetThreshold(int64_t calls) {
  Runtime& r = TheRuntime();
  r.config.threshold = calls;
  r.policy_epoch++;  // the counts the hook skips Qualifies for were set by the old threshold
  if (calls != Config::kAutoThreshold) StartHookNow();  // the start delay is auto's alone
}

std::vector<std::string> JitList() {
  const Config& c = TheRuntime().config;
  std::vector<std::string> list = c.jitlist_file_patterns;
  list.insert(list.end(), c.jitlist.begin(), c.jitlist.end());
  return list;
}

void AppendJitList(const std::string& pattern) { TheRuntime().config.jitlist.push_back(pattern); }

void SetMaxCodeSize(uint64_t bytes) { TheRuntime().config.max_code_size = bytes; }

}  // namespace a64jit::python
