// The stack every Python frame runs on under the JIT: one per thread, reserved large
// (A64JIT_STACK_MIB, default 4 GiB of address space, committed only as it is touched), with a
// guard region below it, in two parts: the first kFirstPartMib, and the rest mapped only when
// a recursion reaches the first part's end.
//
// Why. In stock 3.11 a Python-to-Python call uses no C stack: the interpreter pushes the
// callee's frame and goes on in the same C frame, so only sys.getrecursionlimit() bounds the
// depth. Under the JIT every call nests C frames: compiled code calls compiled code, and the
// eval-frame hook being set makes the interpreter call through PyObject_Vectorcall too. On
// the thread's own stack (8 MiB on the main thread, what threading.stack_size() says on
// others) a recursion that stock finishes overflows, and the process dies of SIGSEGV.
//
// How. The entries from CPython into the JIT (the eval-frame hook, compiled functions'
// vectorcall, a compiled generator's next) move to this stack when they are not on it
// (CallOnJitStack), so that everything below them, interpreted or compiled, runs here. Then:
//   - any entry with less than kMinRoom left raises RecursionError instead of going on;
//   - compiled code calls compiled code through the call stub without passing the host, at
//     most sys.getrecursionlimit() deep. A host entry lets it do so (Runtime::stub_thread)
//     only while the stack holds that many levels of kMaxDirectFrame bytes each; a function
//     with a larger frame is never called that way (CodeState::stub's plain_argcount).
//   - an entry with less than kMinRoom left on the first part goes on on the rest
//     (CallOnStackRest), mapped then: 4 GiB costs nothing on hardware, but QEMU's user mode
//     tracks every page of a mapping, and there mapping it all at once took 35 ms of every
//     process that installed the hook (a script that does nothing: 0.29 s against 0.21 s).
// Under Unicorn compiled code runs on the executor's guest stack, as large; the host's
// frames, the emulator's included, run here.
#ifndef A64JIT_JIT_PYTHON_JIT_STACK_H_
#define A64JIT_JIT_PYTHON_JIT_STACK_H_

#include <cstddef>
#include <cstdint>

#include "jit/python/runtime_state.h"

namespace a64jit::python {

// What may run between two checks of the room: host frames (helpers, the interpreter, a C
// extension's own recursion such as pickle's, which passes no entry) and one compiled frame.
// As much as stock's main thread has for C code, 8 MiB: a C recursion that stock finishes
// finishes below any entry, also where a part of the stack ends.
constexpr uintptr_t kMinRoom = uintptr_t{8} << 20;
// The largest stack frame of a compiled function that the call stub may call directly.
constexpr int64_t kMaxDirectFrame = 1024;
constexpr size_t kDefaultStackMib = 4096;
// The first part of a thread's stack: at the default recursion limit a few MiB suffice, and
// 256 MiB holds between 400,000 and 600,000 levels of interpreted Python (natively, under the
// hook), over 900,000 of compiled code calling itself.
constexpr size_t kFirstPartMib = 256;

// A thread's stack: [low, high). Before the thread's first switch both are 0; if no stack
// could be made, low is 0 and high the top of memory, so that the thread runs where it is and
// every room check passes (the JIT's behaviour before this stack existed).
struct JitStack {
  uintptr_t low, high;
};
// The stack of the first thread that made one (the JIT's first thread, in practice): a plain
// global, read on every entry into the JIT. A thread-local read costs a __tls_get_addr call
// in the extension module a64jit.so, which may not use the initial-exec model (a module
// loaded by dlopen finds no static TLS left), and cost about 3% of the benchmark set's guest
// instructions where it did.
A64JIT_HIDDEN extern JitStack g_first_stack;

// The room on the first thread's stack below the caller's frame, or 0 off that stack: no
// instruction to read the stack pointer (the frame address is a register), so that the
// entries into compiled code on the JIT's first thread pay a compare.
A64JIT_ALWAYS_INLINE uintptr_t FirstThreadRoom() {
  const uintptr_t room =
      reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) - g_first_stack.low;
  return room < g_first_stack.high - g_first_stack.low ? room : 0;
}

// StackRoom off the first thread's stack: the calling thread's own, through its thread-local.
uintptr_t OtherThreadsRoom();

// Bytes left below the caller on the calling thread's JIT stack; 0 when it is not on it (and
// should move there: CallOnJitStack). Off it while a switch to it is in progress further up,
// the caller runs on another stack (the executor's, in checked mode) whose room is not the
// JIT's to count: unbounded.
A64JIT_ALWAYS_INLINE uintptr_t StackRoom() {
  const uintptr_t room = FirstThreadRoom();
  return __builtin_expect(room != 0, 1) ? room : OtherThreadsRoom();
}

// Runs fn(arg) on the calling thread's JIT stack, made on the thread's first call (where the
// caller is, if it cannot be made), and returns what fn returned. For a caller whose
// StackRoom is 0.
uintptr_t CallOnJitStack(uintptr_t (*fn)(void*), void* arg);

// For a caller with less than kMinRoom left: fn(arg) run on the rest of the calling thread's
// JIT stack (mapped on the thread's first call), and what it returned. Where there is no rest
// (the caller is on it already, A64JIT_STACK_MIB is no larger than the first part, or it
// cannot be mapped) the stack is full: fn is not called, RecursionError is set (StackExhausted)
// and the result is 0.
uintptr_t CallOnStackRest(uintptr_t (*fn)(void*), void* arg);

// The reservation for stacks made from now on (A64JIT_STACK_MIB), in MiB.
void SetJitStackMib(size_t mib);
size_t JitStackMib();
// Thread stacks mapped, and taken again from those of threads that ended (the pool,
// jit_stack.cc), since the process started.
int64_t JitStacksMade();
int64_t JitStacksReused();
// Threads whose recursion went on to the rest of their stack: the rests mapped or taken from
// the pool.
int64_t JitStackRestsUsed();

// Sets RecursionError for a stack with less than kMinRoom left and returns nullptr.
PyObject* StackExhausted();

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_JIT_STACK_H_
