// Chooses an executor implementation by mode, among those built for this host.
#include "emulation/executor.h"

namespace a64jit::emu {

void InitExecutor(Executor* executor) { executor->Init(); }

std::unique_ptr<Executor> CreateExecutor(ExecMode mode, const ExecutorOptions& options) {
  if (mode == ExecMode::kNative) {
#if defined(__aarch64__)
    return CreateNativeExecutor(options);
#else
    throw ExecutorError("native execution needs an aarch64 host; this one is not");
#endif
  }
#if defined(A64JIT_HAVE_UNICORN)
  return CreateUnicornExecutor(options);
#else
  throw ExecutorError("this build has no Unicorn (it is host-only, for x86-64)");
#endif
}

}  // namespace a64jit::emu
