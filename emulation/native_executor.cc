// NativeExecutor: runs aarch64 code directly on an aarch64 host (or under qemu-aarch64).
//
// Code memory (jit/runtime/code_memory.h) is W^X and flushes the i-cache after every write. Guest faults are still errors, not crashes: while a call is active, handlers
// for SIGSEGV/SIGBUS/SIGILL/SIGTRAP (on an alternate stack, so a guest stack overflow can be
// handled) check that the faulting PC is guest code and siglongjmp back to the outermost
// call, which throws GuestFault. A fault in host code is not ours and keeps its default
// action. Host helper frames between a nested fault and the outermost call are abandoned
// without running destructors, as any signal-based unwind would. The time limit is a
// SIGALRM timer: guest instructions are not counted natively.
#include <setjmp.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/ucontext.h>

#include <cstdio>
#include <cstring>

#include "emulation/executors.h"

namespace a64jit::emu {
namespace {

using runtime::CallFrame;
using runtime::GuestFault;
using runtime::Timeout;

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGALRM};

struct FaultRecord {
  int signo = 0;
  int code = 0;
  uint64_t pc = 0, sp = 0, address = 0;
};

class NativeExecutor;

// Per-thread state the signal handler reads.
struct ThreadState {
  NativeExecutor* active = nullptr;  // the executor whose outermost call is running
  sigjmp_buf jump;
  FaultRecord fault;
};
thread_local ThreadState tls;

struct sigaction g_previous[64];

void ArmTimer(double seconds) {
  itimerval t{};
  t.it_value.tv_sec = static_cast<time_t>(seconds);
  t.it_value.tv_usec = static_cast<suseconds_t>((seconds - t.it_value.tv_sec) * 1e6);
  if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0) t.it_value.tv_usec = 1;
  setitimer(ITIMER_REAL, &t, nullptr);
}

void DisarmTimer() {
  itimerval t{};
  setitimer(ITIMER_REAL, &t, nullptr);
}

class NativeExecutor : public Executor {
 public:
  explicit NativeExecutor(const ExecutorOptions& options) : Executor(options) {}
  ExecMode mode() const override { return ExecMode::kNative; }
  bool OwnsPc(uint64_t pc) const { return IsGuestCode(pc); }

 protected:
  void RunStub(CallFrame* frame, int depth) override;
  // Code memory flushes the i-cache after every write: nothing else is cached here.
  void CodeChanged(const uint8_t*, size_t) override {}
  void ArenaAdded(const uint8_t*, size_t) override {}
  bool ReadGuest(uint64_t address, void* out, size_t size) override {
    if (!IsGuestCode(address) || !IsGuestCode(address + size - 1)) return false;
    std::memcpy(out, reinterpret_cast<const void*>(address), size);
    return true;
  }

 private:
  [[noreturn]] void ThrowFault(const FaultRecord& f);
};

void Handler(int signo, siginfo_t* info, void* context) {
  auto* uc = static_cast<ucontext_t*>(context);
  const uint64_t pc = uc->uc_mcontext.pc;
  ThreadState& ts = tls;
  const bool in_guest = ts.active != nullptr && ts.active->OwnsPc(pc);
  if (signo == SIGALRM) {
    if (ts.active == nullptr) return;  // a stale timer: ignore
    if (!in_guest) {
      ArmTimer(0.001);  // in a host helper: try again shortly, in guest code
      return;
    }
  } else if (!in_guest) {
    // Not a guest fault: restore the previous disposition and let the fault recur.
    sigaction(signo, &g_previous[signo], nullptr);
    return;
  }
  ts.fault = FaultRecord{signo, info->si_code, pc, uc->uc_mcontext.sp,
                         reinterpret_cast<uint64_t>(info->si_addr)};
  siglongjmp(ts.jump, 1);
}

void InstallHandlers() {
  static bool installed = [] {
    for (int signo : kSignals) {
      struct sigaction sa {};
      sa.sa_sigaction = &Handler;
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
      sigemptyset(&sa.sa_mask);
      sigaction(signo, &sa, &g_previous[signo]);
    }
    return true;
  }();
  (void)installed;
}

void EnsureAltStack() {
  thread_local bool done = false;
  if (done) return;
  static constexpr size_t kSize = 256 * 1024;
  stack_t ss{};
  ss.ss_sp = new char[kSize];
  ss.ss_size = kSize;
  sigaltstack(&ss, nullptr);
  done = true;
}

void NativeExecutor::ThrowFault(const FaultRecord& f) {
  if (f.signo == SIGALRM) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "guest call exceeded its time limit of %.3f s (native); stopped at pc 0x%llx",
                  options().time_limit_seconds, static_cast<unsigned long long>(f.pc));
    throw Timeout(buf);
  }
  GuestFault::Kind kind;
  std::string detail;
  switch (f.signo) {
    case SIGILL:
      kind = GuestFault::Kind::kUndefinedInstruction;
      break;
    case SIGTRAP:
      kind = GuestFault::Kind::kBreakpoint;
      break;
    case SIGBUS:
      kind = f.sp & 15 ? GuestFault::Kind::kMisalignedStack : GuestFault::Kind::kProtection;
      detail = "SIGBUS";
      break;
    default:
      kind = IsGuestCode(f.address) ? GuestFault::Kind::kProtection
                                    : ClassifyDataFault(f.address, f.sp);
      detail = "SIGSEGV";
      break;
  }
  throw GuestFault(kind, f.pc, f.address, detail, DisassembleAround(f.pc));
}

void NativeExecutor::RunStub(CallFrame* frame, int depth) {
  using Stub = void (*)(CallFrame*);
  const auto stub_fn = reinterpret_cast<Stub>(const_cast<uint8_t*>(stub()));
  if (depth > 1) {
    stub_fn(frame);  // a fault here unwinds to the outermost call's sigsetjmp
    return;
  }
  InstallHandlers();
  EnsureAltStack();
  ThreadState& ts = tls;
  ts.active = this;
  if (sigsetjmp(ts.jump, 1) == 0) {
    if (options().time_limit_seconds > 0) ArmTimer(options().time_limit_seconds);
    stub_fn(frame);
    DisarmTimer();
    ts.active = nullptr;
    return;
  }
  DisarmTimer();
  ts.active = nullptr;
  Calls().depth = 1;  // nested Call frames were skipped; the outermost guard brings it to 0
  ThrowFault(ts.fault);
}

}  // namespace

std::unique_ptr<Executor> CreateNativeExecutor(const ExecutorOptions& options) {
  std::unique_ptr<NativeExecutor> executor(new NativeExecutor(options));
  InitExecutor(executor.get());
  return executor;
}

}  // namespace a64jit::emu
