// The runtime's state (runtime_state.h) and its small services: the log, announcing code to
// listings and debuggers, and naming the callees compiled code calls.
#include "jit/python/runtime_state.h"

#include <cstdio>

#include "jit/lower/lower.h"
#include "jit/python/code_info.h"
#include "jit/python/code_listing.h"
#include "jit/python/gdb_jit.h"
#include "jit/python/helpers.h"

namespace a64jit::python {

// Never destroyed: code may outlive main() (runtime_state.h).
Runtime* g_runtime = nullptr;
StateCacheEntry g_state_cache[kStateCacheSize];

__attribute__((noinline, cold)) Runtime& CreateRuntime() {
  g_runtime = new Runtime();
  return *g_runtime;
}

void Log(const std::string& line) {
  Runtime& r = TheRuntime();
  if (r.log == nullptr) return;
  std::fprintf(r.log, "a64jit: %s\n", line.c_str());
  std::fflush(r.log);
}

void AnnounceCode(const Runtime& r, const std::string& name, const void* start, size_t size,
                  bool frameless) {
  ListCode(name, start, size);
  if (r.executor->mode() == runtime::ExecMode::kNative && !frameless) {
    RegisterWithDebugger(name, start, size);
  }
}

std::optional<uint64_t> ResolveCallee(const std::string& name) {
  if (name == lower::kCallStubName && TheRuntime().call_stub != 0) return TheRuntime().call_stub;
  if (name == lower::kKeywordCallStubName && TheRuntime().kw_call_stub != 0) {
    return TheRuntime().kw_call_stub;
  }
  if (name == lower::kSendStubName && TheRuntime().send_stub != 0) return TheRuntime().send_stub;
  auto stub = TheRuntime().site_stubs.find(name);
  if (stub != TheRuntime().site_stubs.end()) return stub->second;
  return ResolveHelper(name);
}

void FreeCodeState(void* p) {
  auto* st = static_cast<CodeState*>(p);
  if (st != nullptr && st->status != CodeState::Status::kCompiled) delete st;
}

std::string ModuleOf(PyFunctionObject* func) {
  return func != nullptr ? Utf8(func->func_module) : "?";
}

}  // namespace a64jit::python
