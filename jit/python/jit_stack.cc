#include "jit/python/jit_stack.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include "jit/runtime/code_memory.h"

namespace a64jit::python {

JitStack g_first_stack = {0, 0};

namespace {

__thread JitStack t_jit_stack = {0, 0};  // the calling thread's
__thread int t_switches = 0;             // calls of a64jit_call_on_stack in progress

size_t g_stack_mib = kDefaultStackMib;
// Below the stack: a frame larger than this could jump over it (compiled frames that large
// are not called directly, and every entry keeps kMinRoom).
constexpr size_t kGuard = size_t{256} << 10;
constexpr size_t kSmallestStack = size_t{64} << 20;

std::atomic<int64_t> g_stacks_made{0}, g_stacks_reused{0}, g_rests_used{0};

// The rest of the calling thread's stack (CallOnStackRest), once mapped; whether it could not
// be (then the thread's recursion ends at its first part).
__thread JitStack t_rest = {0, 0};
__thread bool t_rest_unmappable = false;

size_t FirstPartBytes() { return std::min(g_stack_mib, kFirstPartMib) << 20; }
size_t RestBytes() { return (g_stack_mib << 20) - FirstPartBytes(); }

// Stacks of threads that ended, kept for the next threads (at most kPooledStacks, with their
// pages given back to the kernel): a program that starts many short threads maps a stack
// once, not once a thread. Mapping and unmapping gigabytes of address space is cheap on
// hardware; QEMU's user mode tracks every page of it, and there a thread's stack cost about
// 25 MB and 30 ms (test_functools' threaded lru_cache tests ran 10 to 30 times slower than
// stock).
constexpr size_t kPooledStacks = 8;
std::mutex g_pool_mu;
std::vector<JitStack>* g_pool = new std::vector<JitStack>();  // never freed: threads may end
                                                              // during exit

// A pooled stack of `size` bytes (first parts and rests are pooled alike).
bool TakePooledStack(size_t size, JitStack* s) {
  std::lock_guard<std::mutex> lock(g_pool_mu);
  for (size_t i = 0; i < g_pool->size(); i++) {
    if ((*g_pool)[i].high - (*g_pool)[i].low != size) continue;  // made at another size
    *s = (*g_pool)[i];
    (*g_pool)[i] = g_pool->back();
    g_pool->pop_back();
    return true;
  }
  return false;
}

// The ended thread's stack `s` goes to the pool, its pages returned; or is unmapped when the
// pool is full.
void GiveBackStack(const JitStack& s) {
  madvise(reinterpret_cast<void*>(s.low), s.high - s.low, MADV_DONTNEED);
  {
    std::lock_guard<std::mutex> lock(g_pool_mu);
    if (g_pool->size() < kPooledStacks) {
      g_pool->push_back(s);
      return;
    }
  }
  munmap(reinterpret_cast<void*>(s.low - kGuard), s.high - s.low + kGuard);
}

// A stack of `size` bytes with its guard below: one from the pool, else mapped, halved until
// the kernel grants it (a strict overcommit policy counts what MAP_NORESERVE asks), down to
// kSmallestStack. False when none could be had.
bool MakeStack(size_t size, JitStack* s) {
  if (TakePooledStack(size, s)) {
    g_stacks_reused++;
    return true;
  }
  for (; size >= kSmallestStack; size /= 2) {
    void* p = runtime::MapAwayFromCode(size + kGuard);
    if (p == nullptr) continue;
    if (mprotect(p, kGuard, PROT_NONE) != 0) {
      munmap(p, size + kGuard);
      continue;
    }
    s->low = reinterpret_cast<uintptr_t>(p) + kGuard;
    s->high = s->low + size;
    g_stacks_made++;
    return true;
  }
  return false;
}

}  // namespace

// Switches to `top`, calls fn(arg), and switches back: the frame pointer chain goes on into
// the caller's stack, so debuggers and perf still walk through it.
extern "C" uintptr_t a64jit_call_on_stack(void* arg, uintptr_t (*fn)(void*), uintptr_t top)
    __attribute__((visibility("hidden")));
#if defined(__aarch64__)
asm(R"(
  .text
  .p2align 2
  .globl a64jit_call_on_stack
  .hidden a64jit_call_on_stack
  .type a64jit_call_on_stack, %function
a64jit_call_on_stack:
  stp x29, x30, [sp, #-16]!
  mov x29, sp
  mov sp, x2
  blr x1
  mov sp, x29
  ldp x29, x30, [sp], #16
  ret
  .size a64jit_call_on_stack, .-a64jit_call_on_stack
)");
#elif defined(__x86_64__)
asm(R"(
  .text
  .p2align 4
  .globl a64jit_call_on_stack
  .hidden a64jit_call_on_stack
  .type a64jit_call_on_stack, @function
a64jit_call_on_stack:
  push %rbp
  mov %rsp, %rbp
  mov %rdx, %rsp
  call *%rsi
  mov %rbp, %rsp
  pop %rbp
  ret
  .size a64jit_call_on_stack, .-a64jit_call_on_stack
)");
#endif

uintptr_t OtherThreadsRoom() {
  const JitStack& s = t_jit_stack;
  const uintptr_t room = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) - s.low;
  if (room < s.high - s.low) return room;
  return t_switches > 0 ? UINTPTR_MAX : 0;  // on another stack below a switch: not ours
}

// Gives the thread's stack back (GiveBackStack), its rest too, when the thread ends (off it;
// the main thread's process exit may run this on it, and then leaves it). The first thread's
// stack is never given back: its bounds stay in g_first_stack.
struct StackReleaser {
  ~StackReleaser() {
    JitStack& s = t_jit_stack;
    const uintptr_t room = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) - s.low;
    if (s.low != 0 && s.low != g_first_stack.low && room >= s.high - s.low) {
      GiveBackStack(s);
      s = {0, 0};
      if (t_rest.low != 0) GiveBackStack(t_rest);
      t_rest = {0, 0};
    }
  }
};

uintptr_t CallOnJitStack(uintptr_t (*fn)(void*), void* arg) {
  JitStack& s = t_jit_stack;
  if (s.high == 0) {
    static thread_local StackReleaser releaser;  // made, and its destructor registered, here
    (void)releaser;
    if (!MakeStack(FirstPartBytes(), &s)) s = {0, UINTPTR_MAX};
    if (g_first_stack.high == 0) g_first_stack = s;  // under the GIL: one thread at a time
  }
  if (s.low == 0) return fn(arg);  // no stack of its own: run here
  t_switches++;
  const uintptr_t result = a64jit_call_on_stack(arg, fn, s.high);
  t_switches--;
  return result;
}

// On the rest, the thread's stack is the rest (t_jit_stack) for StackRoom, until fn returns.
// g_first_stack stays the first part: it is read without the GIL by every thread, and a
// pair of bounds rewritten there could be read half old. Off the first part, StackRoom takes
// OtherThreadsRoom's path.
uintptr_t CallOnStackRest(uintptr_t (*fn)(void*), void* arg) {
  JitStack& s = t_jit_stack;
  if (RestBytes() == 0 || t_rest_unmappable || (t_rest.low != 0 && s.low == t_rest.low)) {
    StackExhausted();
    return 0;
  }
  if (t_rest.low == 0) {
    if (!MakeStack(RestBytes(), &t_rest)) {
      t_rest_unmappable = true;
      StackExhausted();
      return 0;
    }
    g_rests_used++;
  }
  const JitStack first = s;
  s = t_rest;
  t_switches++;
  const uintptr_t result = a64jit_call_on_stack(arg, fn, t_rest.high);
  t_switches--;
  s = first;
  return result;
}

void SetJitStackMib(size_t mib) { g_stack_mib = mib; }
size_t JitStackMib() { return g_stack_mib; }
int64_t JitStacksMade() { return g_stacks_made.load(); }
int64_t JitStacksReused() { return g_stacks_reused.load(); }
int64_t JitStackRestsUsed() { return g_rests_used.load(); }

PyObject* StackExhausted() {
  PyErr_Format(PyExc_RecursionError,
               "maximum recursion depth exceeded: the JIT's stack of %zu MiB is full "
               "(A64JIT_STACK_MIB)",
               JitStackMib());
  return nullptr;
}

}  // namespace a64jit::python
