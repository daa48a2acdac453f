// Chooses an executor backend by mode, among those built for this host.
#include "emulation/executors.h"

namespace a64jit::emu {

ExecMode HostExecMode() {
#if defined(__aarch64__)
  return ExecMode::kNative;
#else
  return ExecMode::kUnicorn;
#endif
}

std::unique_ptr<Executor> CreateHostExecutor(const ExecutorOptions& options) {
  return CreateExecutor(HostExecMode(), options);
}

std::unique_ptr<Executor> CreateExecutor(ExecMode mode, const ExecutorOptions& options) {
  if (mode == ExecMode::kNative) {
#if defined(__aarch64__)
    return CreateNativeExecutor(options);
#else
    throw runtime::ExecutorError("native execution needs an aarch64 host; this one is not");
#endif
  }
#if defined(A64JIT_HAVE_UNICORN)
  return CreateUnicornExecutor(options);
#else
  throw runtime::ExecutorError("this build has no Unicorn (it is host-only, for x86-64)");
#endif
}

}  // namespace a64jit::emu
