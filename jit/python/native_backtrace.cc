#include "jit/python/native_backtrace.h"

#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

namespace a64jit::python {

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

// stderr as it was at startup: pytest (capture=fd) points fd 2 at a file during each test.
int g_fd = STDERR_FILENO;

void Write(const char* s) {
  const ssize_t ignored = write(g_fd, s, strlen(s));
  (void)ignored;
}

void OnFatalSignal(int signo) {
  // Only async-signal-safe calls: write, backtrace (loaded beforehand), sigaction, raise.
  Write("a64jit-run: fatal signal ");
  const char* name = sigabbrev_np(signo);
  Write(name != nullptr ? name : "?");
  Write(" in the host process; native stack:\n");
  void* frames[64];
  const int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, g_fd);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigaction(signo, &dfl, nullptr);
  raise(signo);
}

}  // namespace

void InstallNativeBacktrace() {
  const int fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 100);
  if (fd >= 0) g_fd = fd;
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc's unwinder now, not inside the handler
  struct sigaction sa {};
  sa.sa_handler = OnFatalSignal;
  sa.sa_flags = SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  for (int signo : kSignals) sigaction(signo, &sa, nullptr);
}

}  // namespace a64jit::python
