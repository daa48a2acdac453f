// a64jit-run's report of a crash of the process itself (not a guest fault, which becomes a
// Python error): the native stack, so a SIGSEGV in a nightly run says whether it happened
// in compiled code's runtime, in libpython or inside Unicorn.
#ifndef A64JIT_JIT_PYTHON_NATIVE_BACKTRACE_H_
#define A64JIT_JIT_PYTHON_NATIVE_BACKTRACE_H_

namespace a64jit::python {

// On SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT: writes "a64jit-run: fatal signal ..."
// and the native stack to stderr, then dies of the same signal. Install before
// Py_Initialize: faulthandler (-X faulthandler) then prints the Python stack first and
// re-raises the signal into this handler.
void InstallNativeBacktrace();

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_NATIVE_BACKTRACE_H_
