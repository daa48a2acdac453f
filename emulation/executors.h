// The execution backends of the runtime's Executor interface (jit/runtime/executor.h):
// NativeExecutor on aarch64 hosts (and under qemu-aarch64), UnicornExecutor on x86-64.
#ifndef A64JIT_EMULATION_EXECUTORS_H_
#define A64JIT_EMULATION_EXECUTORS_H_

#include <memory>

#include "jit/runtime/executor.h"

namespace a64jit::emu {

using runtime::ExecMode;
using runtime::Executor;
using runtime::ExecutorOptions;

// Each is compiled only where it can run.
std::unique_ptr<Executor> CreateNativeExecutor(const ExecutorOptions& options);
std::unique_ptr<Executor> CreateUnicornExecutor(const ExecutorOptions& options);

// The mode of this host: native on aarch64, Unicorn on x86-64.
ExecMode HostExecMode();
// The executor of this host.
std::unique_ptr<Executor> CreateHostExecutor(const ExecutorOptions& options = {});
// A specific mode; throws runtime::ExecutorError when this host cannot run it.
std::unique_ptr<Executor> CreateExecutor(ExecMode mode, const ExecutorOptions& options = {});

}  // namespace a64jit::emu

#endif  // A64JIT_EMULATION_EXECUTORS_H_
