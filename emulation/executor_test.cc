// Executor tests: one source for every configuration. Snippets are assembled with asmjit
// and run by this host's executor: Unicorn on x86-64, natively under qemu-aarch64 or on an
// aarch64 machine. Every test checks which path ran (instructions counted under Unicorn).
#include "jit/runtime/executor.h"

#include <asmjit/arm/a64assembler.h>
#include <asmjit/core.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "emulation/executors.h"
#include "emulation/helper_registry.h"

namespace a64jit::emu {
namespace {

using runtime::Arg;
using runtime::CallStats;
using runtime::ExecutorError;
using runtime::GuestFault;
using runtime::Timeout;

using namespace asmjit::a64;  // NOLINT: register names keep the snippets readable
using Kind = GuestFault::Kind;

std::vector<uint8_t> Assemble(const std::function<void(Assembler&)>& body) {
  asmjit::CodeHolder code;
  code.init(asmjit::Environment(asmjit::Arch::kAArch64));
  Assembler a(&code);
  body(a);
  EXPECT_EQ(code.flatten(), asmjit::kErrorOk);
  EXPECT_EQ(code.resolveUnresolvedLinks(), asmjit::kErrorOk);
  asmjit::Section* text = code.textSection();
  return std::vector<uint8_t>(text->data(), text->data() + text->bufferSize());
}

// The callee-saved x19-x28, stored to or loaded from [base + offset] in pairs.
void StoreX19ToX28(Assembler& a, const Gp& base, int offset) {
  for (int i = 0; i < 10; i += 2) a.stp(x(19 + i), x(20 + i), ptr(base, offset + 8 * i));
}
void LoadX19ToX28(Assembler& a, const Gp& base, int offset) {
  for (int i = 0; i < 10; i += 2) a.ldp(x(19 + i), x(20 + i), ptr(base, offset + 8 * i));
}

class ExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override { Make({}); }
  void Make(const ExecutorOptions& options) { ex_ = CreateHostExecutor(options); }
  const uint8_t* Load(const std::function<void(Assembler&)>& body) {
    return ex_->Load(Assemble(body));
  }
  // Proof that this host's execution path ran the last call.
  void ExpectRanOnThisHost() {
    const CallStats& s = ex_->last_call_stats();
    EXPECT_EQ(s.calls, 1u);
#if defined(__aarch64__)
    EXPECT_EQ(ex_->mode(), ExecMode::kNative);
#else
    EXPECT_EQ(ex_->mode(), ExecMode::kUnicorn);
    EXPECT_GT(s.guest_instructions, 0u) << "Unicorn executed no guest instruction";
#endif
  }
  // After a fault, the executor still works.
  void ExpectNextCallWorks() {
    const uint8_t* add = Load([](Assembler& a) {
      a.add(x0, x0, x1);
      a.ret(x30);
    });
    EXPECT_EQ(ex_->CallInt(add, {Arg::Int(40), Arg::Int(2)}), 42u);
    ExpectRanOnThisHost();
  }
  template <typename Fn>
  GuestFault ExpectFault(Fn&& fn, Kind kind) {
    try {
      fn();
    } catch (const GuestFault& f) {
      EXPECT_EQ(f.kind(), kind) << f.what();
      EXPECT_NE(std::string(f.what()).find(GuestFault::KindName(kind)), std::string::npos);
      return f;
    }
    ADD_FAILURE() << "expected a GuestFault: " << GuestFault::KindName(kind);
    return GuestFault(kind, 0, 0, "", "");
  }

  std::unique_ptr<Executor> ex_;
};

// ---- arguments and results -------------------------------------------------------------

TEST_F(ExecutorTest, TenIntegerArgumentsTwoOnTheStack) {
  // Returns sum((i+1) * arg_i): the weights catch arguments in the wrong place.
  const uint8_t* fn = Load([](Assembler& a) {
    a.mov(x9, 0);
    for (int i = 0; i < 8; i++) {
      a.mov(x10, i + 1);
      a.madd(x9, x(i), x10, x9);
    }
    a.ldp(x11, x12, ptr(sp));
    a.mov(x10, 9);
    a.madd(x9, x11, x10, x9);
    a.mov(x10, 10);
    a.madd(x9, x12, x10, x9);
    a.mov(x0, x9);
    a.ret(x30);
  });
  std::vector<Arg> args;
  uint64_t expected = 0;
  for (uint64_t i = 0; i < 10; i++) {
    uint64_t v = 1000 + i * 7 + (i << 40);
    args.push_back(Arg::Int(v));
    expected += (i + 1) * v;
  }
  EXPECT_EQ(ex_->CallInt(fn, args), expected);
  ExpectRanOnThisHost();
}

TEST_F(ExecutorTest, TenDoubleArgumentsTwoOnTheStack) {
  const uint8_t* fn = Load([](Assembler& a) {
    a.fmov(d16, 0.0);
    for (int i = 0; i < 8; i++) {
      a.fmov(d17, static_cast<double>(i + 1));
      a.fmadd(d16, d(i), d17, d16);
    }
    a.ldp(d18, d19, ptr(sp));
    a.fmov(d17, 9.0);
    a.fmadd(d16, d18, d17, d16);
    a.fmov(d17, 10.0);
    a.fmadd(d16, d19, d17, d16);
    a.fmov(d0, d16);
    a.ret(x30);
  });
  std::vector<Arg> args;
  double expected = 0;
  for (int i = 0; i < 10; i++) {
    double v = 0.5 + i * 1.25;
    args.push_back(Arg::Double(v));
    expected += (i + 1) * v;
  }
  EXPECT_DOUBLE_EQ(ex_->CallDouble(fn, args), expected);
  ExpectRanOnThisHost();
}

TEST_F(ExecutorTest, MixedArgumentsStackSlotsFollowArgumentOrder) {
  // 9 ints and 9 doubles, interleaved: the ninth of each kind goes on the stack in the
  // order the arguments appear (double first here). Returns d_stack - i_stack.
  const uint8_t* fn = Load([](Assembler& a) {
    a.ldr(d1, ptr(sp, 0));
    a.ldr(x1, ptr(sp, 8));
    a.scvtf(d2, x1);
    a.fsub(d0, d1, d2);
    a.ret(x30);
  });
  std::vector<Arg> args;
  for (int i = 0; i < 8; i++) {
    args.push_back(Arg::Int(i));
    args.push_back(Arg::Double(i));
  }
  args.push_back(Arg::Double(1000.5));
  args.push_back(Arg::Int(7));
  EXPECT_DOUBLE_EQ(ex_->CallDouble(fn, args), 993.5);
  ExpectRanOnThisHost();
}

// ---- host memory and host calls --------------------------------------------------------

struct HostObject {
  int64_t refcount;
  double value;
  uint8_t small;
};

TEST_F(ExecutorTest, GuestBumpsRefcountOfHostObject) {
  auto obj = std::make_unique<HostObject>(HostObject{1, 2.5, 7});
  // refcount += 1; value *= 2; return small.
  const uint8_t* fn = Load([](Assembler& a) {
    a.ldr(x1, ptr(x0, offsetof(HostObject, refcount)));
    a.add(x1, x1, 1);
    a.str(x1, ptr(x0, offsetof(HostObject, refcount)));
    a.ldr(d0, ptr(x0, offsetof(HostObject, value)));
    a.fadd(d0, d0, d0);
    a.str(d0, ptr(x0, offsetof(HostObject, value)));
    a.ldrb(w0, ptr(x0, offsetof(HostObject, small)));
    a.ret(x30);
  });
  EXPECT_EQ(ex_->CallInt(fn, {Arg::Ptr(obj.get())}), 7u);
  EXPECT_EQ(obj->refcount, 2);
  EXPECT_EQ(obj->value, 5.0);
  EXPECT_EQ(ex_->CallInt(fn, {Arg::Ptr(obj.get())}), 7u);
  EXPECT_EQ(obj->refcount, 3);
  ExpectRanOnThisHost();
}

// One call touching more separate host regions than Unicorn can hold mappings for (it
// aborts in phys_section_add): the executor must recycle its on-demand mappings.
TEST_F(ExecutorTest, ThousandsOfHostRegionsInOneCall) {
  constexpr size_t kRegions = 6000, kPage = 4096;
  // One reservation, then every other page made readable: 6000 separate host regions.
  uint8_t* mem = static_cast<uint8_t*>(
      mmap(nullptr, 2 * kRegions * kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(mem, MAP_FAILED);
  std::vector<uint64_t> pages;
  for (size_t i = 0; i < kRegions; i++) {
    uint8_t* page = mem + 2 * i * kPage;
    ASSERT_EQ(mprotect(page, kPage, PROT_READ | PROT_WRITE), 0);
    page[0] = 1;
    pages.push_back(reinterpret_cast<uint64_t>(page));
  }
  // sum = 0; do { sum += **list++; } while (--n); return sum;
  const uint8_t* fn = Load([](Assembler& a) {
    a.mov(x2, 0);
    asmjit::Label loop = a.newLabel();
    a.bind(loop);
    a.ldr(x4, ptr_post(x0, 8));
    a.ldrb(w3, ptr(x4));
    a.add(x2, x2, x3);
    a.subs(x1, x1, 1);
    a.b_ne(loop);
    a.mov(x0, x2);
    a.ret(x30);
  });
  EXPECT_EQ(ex_->CallInt(fn, {Arg::Ptr(pages.data()), Arg::Int(kRegions)}), kRegions);
  ExpectRanOnThisHost();
  munmap(mem, 2 * kRegions * kPage);
}

extern "C" int64_t HostMulAdd(int64_t a, int64_t b, double c) {
  return a * b + static_cast<int64_t>(c);
}
extern "C" double HostHypot(double a, double b) { return std::sqrt(a * a + b * b); }

// Emits a call to a host function at `fn` (address in x16), keeping LR in a frame record.
void CallHostFunction(Assembler& a, const void* fn) {
  a.mov(x16, reinterpret_cast<uint64_t>(fn));
  a.blr(x16);
}

TEST_F(ExecutorTest, GuestCallsHostHelpers) {
  RegisterHelper(reinterpret_cast<const void*>(&HostMulAdd), {"HostMulAdd", 2, 1, RetKind::kInt});
  RegisterHelper(reinterpret_cast<const void*>(&HostHypot), {"HostHypot", 0, 2, RetKind::kDouble});
  // return HostMulAdd(x0, x1, d0) + (int)HostHypot(3.0, 4.0)
  const uint8_t* fn = Load([](Assembler& a) {
    a.stp(x29, x30, ptr_pre(sp, -32));
    a.mov(x29, sp);
    a.str(x19, ptr(sp, 16));
    CallHostFunction(a, reinterpret_cast<const void*>(&HostMulAdd));
    a.mov(x19, x0);
    a.fmov(d0, 3.0);
    a.fmov(d1, 4.0);
    CallHostFunction(a, reinterpret_cast<const void*>(&HostHypot));
    a.fcvtzs(x0, d0);
    a.add(x0, x0, x19);
    a.ldr(x19, ptr(sp, 16));
    a.ldp(x29, x30, ptr_post(sp, 32));
    a.ret(x30);
  });
  EXPECT_EQ(ex_->CallInt(fn, {Arg::Int(6), Arg::Int(7), Arg::Double(0.9)}), 6 * 7 + 0 + 5u);
  ExpectRanOnThisHost();
#if !defined(__aarch64__)
  EXPECT_EQ(ex_->last_call_stats().host_calls, 2u);
#endif
}

// Guest fib -> host helper -> guest fib ...: the helper re-enters the executor.
Executor* g_executor = nullptr;
const uint8_t* g_guest_fn = nullptr;
extern "C" int64_t HostReenter(int64_t n) {
  return static_cast<int64_t>(g_executor->CallInt(g_guest_fn, {Arg::Int(n)}));
}

// fib(n) = n < 2 ? n : HostReenter(n-1) + HostReenter(n-2)
void EmitReentrantFib(Assembler& a) {
  asmjit::Label recurse = a.newLabel();
  a.cmp(x0, 2);
  a.b_ge(recurse);
  a.ret(x30);
  a.bind(recurse);
  a.stp(x29, x30, ptr_pre(sp, -32));
  a.mov(x29, sp);
  a.stp(x19, x20, ptr(sp, 16));
  a.mov(x19, x0);
  a.sub(x0, x19, 1);
  CallHostFunction(a, reinterpret_cast<const void*>(&HostReenter));
  a.mov(x20, x0);
  a.sub(x0, x19, 2);
  CallHostFunction(a, reinterpret_cast<const void*>(&HostReenter));
  a.add(x0, x0, x20);
  a.ldp(x19, x20, ptr(sp, 16));
  a.ldp(x29, x30, ptr_post(sp, 32));
  a.ret(x30);
}

TEST_F(ExecutorTest, HostHelperCallsBackIntoGuestRecursively) {
  RegisterHelper(reinterpret_cast<const void*>(&HostReenter), {"HostReenter", 1, 0, RetKind::kInt});
  g_executor = ex_.get();
  g_guest_fn = Load(EmitReentrantFib);
  EXPECT_EQ(ex_->CallInt(g_guest_fn, {Arg::Int(15)}), 610u);
  ExpectRanOnThisHost();
  EXPECT_EQ(ex_->last_call_stats().max_depth, 15);  // fib(15), fib(14), ..., fib(1)
}

// depth(n) = n == 0 ? 0 : 1 + HostReenter(n - 1): nests n+1 guest calls.
TEST_F(ExecutorTest, ReentrancyAtLeast64LevelsDeep) {
  RegisterHelper(reinterpret_cast<const void*>(&HostReenter), {"HostReenter", 1, 0, RetKind::kInt});
  g_executor = ex_.get();
  g_guest_fn = Load([](Assembler& a) {
    asmjit::Label recurse = a.newLabel();
    a.cbnz(x0, recurse);
    a.ret(x30);
    a.bind(recurse);
    a.stp(x29, x30, ptr_pre(sp, -16));
    a.mov(x29, sp);
    a.sub(x0, x0, 1);
    CallHostFunction(a, reinterpret_cast<const void*>(&HostReenter));
    a.add(x0, x0, 1);
    a.ldp(x29, x30, ptr_post(sp, 16));
    a.ret(x30);
  });
  EXPECT_EQ(ex_->CallInt(g_guest_fn, {Arg::Int(100)}), 100u);
  EXPECT_EQ(ex_->last_call_stats().max_depth, 101);
  ExpectRanOnThisHost();
#if !defined(__aarch64__)
  // Nested runs inside the hook up to Unicorn's nesting limit, stopping emulation beyond it.
  EXPECT_GT(ex_->last_call_stats().host_calls_in_hook, 40u);
  EXPECT_LT(ex_->last_call_stats().host_calls_in_hook, 100u);
#endif
}

// ---- host calls made inside Unicorn's interrupt hook -----------------------------------

extern "C" int64_t HostIncrement(int64_t x) { return x + 1; }

int g_throw_calls = 0;
extern "C" int64_t HostThrowsOnSecondCall(int64_t x) {
  if (++g_throw_calls == 2) throw std::runtime_error("thrown by the helper");
  return x;
}

// x0 = 0; repeat x0 = helper(x0) `times` times (times in x0 on entry).
void EmitCallLoop(Assembler& a, const void* helper) {
  asmjit::Label loop = a.newLabel();
  a.stp(x29, x30, ptr_pre(sp, -32));
  a.mov(x29, sp);
  a.str(x19, ptr(sp, 16));
  a.mov(x19, x0);
  a.mov(x0, 0);
  a.bind(loop);
  CallHostFunction(a, helper);
  a.subs(x19, x19, 1);
  a.b_ne(loop);
  a.ldr(x19, ptr(sp, 16));
  a.ldp(x29, x30, ptr_post(sp, 32));
  a.ret(x30);
}

// The first call of a helper stops emulation (a fetch fault maps its trap window); the later
// ones are made inside the interrupt hook of the window's `svc`, and resume at LR.
TEST_F(ExecutorTest, HostCallsAfterTheFirstDoNotStopEmulation) {
#if defined(__aarch64__)
  GTEST_SKIP() << "natively a host call is a plain branch: there is no emulation to stop";
#else
  RegisterHelper(reinterpret_cast<const void*>(&HostIncrement),
                 {"HostIncrement", 1, 0, RetKind::kInt});
  const uint8_t* fn =
      Load([](Assembler& a) { EmitCallLoop(a, reinterpret_cast<const void*>(&HostIncrement)); });
  EXPECT_EQ(ex_->CallInt(fn, {Arg::Int(100)}), 100u);
  ExpectRanOnThisHost();
  EXPECT_EQ(ex_->last_call_stats().host_calls, 100u);
  EXPECT_EQ(ex_->last_call_stats().host_calls_in_hook, 99u);
#endif
}

// A host function at an address that is not a multiple of 4 (x86-64 code need not be
// aligned; Debian's python3.11 has such functions): the first call faults on fetch as any
// host call does, and the later ones, inside the trap window, on the PC alignment check.
// Each is the host call all the same.
TEST_F(ExecutorTest, HostFunctionsAtUnalignedAddressesAreHostCalls) {
#if defined(__aarch64__)
  GTEST_SKIP() << "natively a host call is a plain branch: there are no x86-64 functions";
#else
  void* page =
      mmap(nullptr, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  // At offset 1: lea rax, [rdi + 1]; ret (HostIncrement's work, in x86-64 machine code).
  const uint8_t code[] = {0x48, 0x8d, 0x47, 0x01, 0xc3};
  uint8_t* odd = static_cast<uint8_t*>(page) + 1;
  std::memcpy(odd, code, sizeof code);
  RegisterHelper(odd, {"OddIncrement", 1, 0, RetKind::kInt});
  const uint8_t* fn = Load([odd](Assembler& a) { EmitCallLoop(a, odd); });
  EXPECT_EQ(ex_->CallInt(fn, {Arg::Int(50)}), 50u);
  EXPECT_EQ(ex_->last_call_stats().host_calls, 50u);
  munmap(page, 4096);
#endif
}

// Without the per-block hook the guest runs the same and host calls are still counted; only
// the instruction count (and the budget it enforces) is given up.
TEST_F(ExecutorTest, UncountedRunsGiveTheSameResultsWithoutAnInstructionCount) {
#if defined(__aarch64__)
  GTEST_SKIP() << "natively instructions are never counted";
#else
  ExecutorOptions options;
  options.count_instructions = false;
  Make(options);
  RegisterHelper(reinterpret_cast<const void*>(&HostIncrement),
                 {"HostIncrement", 1, 0, RetKind::kInt});
  const uint8_t* fn =
      Load([](Assembler& a) { EmitCallLoop(a, reinterpret_cast<const void*>(&HostIncrement)); });
  EXPECT_EQ(ex_->CallInt(fn, {Arg::Int(100)}), 100u);
  EXPECT_EQ(ex_->mode(), ExecMode::kUnicorn);
  EXPECT_EQ(ex_->last_call_stats().guest_instructions, 0u);
  EXPECT_EQ(ex_->last_call_stats().host_calls, 100u);
#endif
}

// An exception from a helper called inside the hook cannot unwind through Unicorn's C frames:
// it is kept, emulation stops, and the caller of the executor gets it.
TEST_F(ExecutorTest, ExceptionFromAHelperCalledInsideTheHookReachesTheCaller) {
#if defined(__aarch64__)
  GTEST_SKIP() << "natively an exception cannot unwind through generated code (no unwind "
                  "tables), so helpers there never throw";
#else
  RegisterHelper(reinterpret_cast<const void*>(&HostThrowsOnSecondCall),
                 {"HostThrowsOnSecondCall", 1, 0, RetKind::kInt});
  const uint8_t* fn = Load([](Assembler& a) {
    EmitCallLoop(a, reinterpret_cast<const void*>(&HostThrowsOnSecondCall));
  });
  g_throw_calls = 0;
  try {
    ex_->CallInt(fn, {Arg::Int(5)});
    ADD_FAILURE() << "the helper's exception was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "thrown by the helper");
  }
  EXPECT_EQ(g_throw_calls, 2);
  EXPECT_EQ(ex_->last_call_stats().host_calls_in_hook, 1u);
  ExpectNextCallWorks();
#endif
}

// ---- callee-saved registers, VIXL style ----------------------------------------------

// A well-behaved guest callee that uses every callee-saved register: it saves them, puts
// garbage in them, and restores them. Reached from the host through the executor.
const uint8_t* g_clobberer = nullptr;
extern "C" void HostCallsClobberer() { g_executor->Call(g_clobberer, {}); }

TEST_F(ExecutorTest, CalleeSavedRegistersSurviveHostCallsAndNesting) {
  RegisterHelper(reinterpret_cast<const void*>(&HostCallsClobberer),
                 {"HostCallsClobberer", 0, 0, RetKind::kVoid});
  g_executor = ex_.get();
  g_clobberer = Load([](Assembler& a) {
    a.sub(sp, sp, 160);
    StoreX19ToX28(a, sp, 0);
    for (int i = 0; i < 8; i += 2) a.stp(d(8 + i), d(9 + i), ptr(sp, 80 + 8 * i));
    a.mov(x9, 0xdeadbeefdeadbeefull);
    for (int i = 19; i <= 28; i++) a.mov(x(i), x9);
    for (int i = 8; i <= 15; i++) a.fmov(d(i), x9);
    LoadX19ToX28(a, sp, 0);
    for (int i = 0; i < 8; i += 2) a.ldp(d(8 + i), d(9 + i), ptr(sp, 80 + 8 * i));
    a.add(sp, sp, 160);
    a.ret(x30);
  });
  // The snippet: save its caller's registers, set x19-x28/d8-d15 to known patterns, call
  // the host (which runs the clobberer nested), store the registers to out[], restore.
  const uint8_t* fn = Load([](Assembler& a) {
    a.sub(sp, sp, 192);
    a.stp(x29, x30, ptr(sp, 0));
    a.str(x0, ptr(sp, 16));
    StoreX19ToX28(a, sp, 32);
    for (int i = 0; i < 8; i += 2) a.stp(d(8 + i), d(9 + i), ptr(sp, 112 + 8 * i));
    for (int i = 19; i <= 28; i++) a.mov(x(i), 0x0101010101010101ull * i);
    for (int i = 8; i <= 15; i++) {
      a.mov(x9, 0x0202020202020202ull * i);
      a.fmov(d(i), x9);
    }
    CallHostFunction(a, reinterpret_cast<const void*>(&HostCallsClobberer));
    a.ldr(x0, ptr(sp, 16));
    StoreX19ToX28(a, x0, 0);
    for (int i = 0; i < 8; i += 2) a.stp(d(8 + i), d(9 + i), ptr(x0, 80 + 8 * i));
    LoadX19ToX28(a, sp, 32);
    for (int i = 0; i < 8; i += 2) a.ldp(d(8 + i), d(9 + i), ptr(sp, 112 + 8 * i));
    a.ldp(x29, x30, ptr(sp, 0));
    a.add(sp, sp, 192);
    a.ret(x30);
  });
  uint64_t out[18] = {};
  ex_->Call(fn, {Arg::Ptr(out)});
  for (int i = 19; i <= 28; i++) EXPECT_EQ(out[i - 19], 0x0101010101010101ull * i) << "x" << i;
  for (int i = 8; i <= 15; i++) EXPECT_EQ(out[10 + i - 8], 0x0202020202020202ull * i) << "d" << i;
  ExpectRanOnThisHost();
  EXPECT_EQ(ex_->last_call_stats().max_depth, 2);
}

// A nested callee that faults after putting garbage in every callee-saved register and SP,
// and a helper that catches the fault and returns to its guest caller (as the JIT does when
// it turns a fault into a Python SystemError): the caller continues with its own registers.
const uint8_t* g_faulting_clobberer = nullptr;
extern "C" int64_t HostCatchesNestedFault() {
  try {
    g_executor->Call(g_faulting_clobberer, {});
  } catch (const GuestFault&) {
    return 1;
  }
  return 0;
}

TEST_F(ExecutorTest, CallerRegistersSurviveANestedFaultTheHelperCatches) {
#if defined(__aarch64__)
  GTEST_SKIP() << "natively a fault in a nested call unwinds to the outermost call "
                  "(siglongjmp, see FaultInNestedCallUnwindsToOutermost): no helper can catch "
                  "it and resume its caller";
#else
  RegisterHelper(reinterpret_cast<const void*>(&HostCatchesNestedFault),
                 {"HostCatchesNestedFault", 0, 0, RetKind::kInt});
  g_executor = ex_.get();
  g_faulting_clobberer = Load([](Assembler& a) {
    a.mov(x9, 0xdeadbeefdeadbeefull);
    for (int i = 19; i <= 29; i++) a.mov(x(i), x9);
    for (int i = 8; i <= 15; i++) a.fmov(d(i), x9);
    a.sub(sp, sp, 4096);
    a.mov(x10, 0);
    a.ldr(x0, ptr(x10));  // null dereference
    a.ret(x30);
  });
  // Sets x19-x28/d8-d15 to patterns, calls the helper, returns x19 + x28 + the helper's
  // result, and stores d8 to out (x0).
  const uint8_t* fn = Load([](Assembler& a) {
    a.sub(sp, sp, 160);
    a.stp(x29, x30, ptr(sp, 0));
    a.str(x0, ptr(sp, 16));
    StoreX19ToX28(a, sp, 32);
    a.stp(d8, d9, ptr(sp, 112));
    a.mov(x19, 19);
    a.mov(x28, 2800);
    a.mov(x9, 0x4045000000000000ull);  // 42.0
    a.fmov(d8, x9);
    CallHostFunction(a, reinterpret_cast<const void*>(&HostCatchesNestedFault));
    a.ldr(x1, ptr(sp, 16));
    a.str(d8, ptr(x1));
    a.add(x0, x0, x19);
    a.add(x0, x0, x28);
    LoadX19ToX28(a, sp, 32);
    a.ldp(d8, d9, ptr(sp, 112));
    a.ldp(x29, x30, ptr(sp, 0));
    a.add(sp, sp, 160);
    a.ret(x30);
  });
  double d8 = 0;
  EXPECT_EQ(ex_->CallInt(fn, {Arg::Ptr(&d8)}), 1u + 19u + 2800u);
  EXPECT_EQ(d8, 42.0);
  ExpectRanOnThisHost();
  EXPECT_EQ(ex_->last_call_stats().max_depth, 2);
  ExpectNextCallWorks();
#endif
}

// ---- rewritten code ------------------------------------------------------------------

// Thread A's guest code is suspended in a host helper while thread B runs a whole guest call
// (what a helper that releases the GIL allows): each thread has its own guest stack and, under
// Unicorn, its own engine, so A resumes with its registers and stack as it left them.
std::mutex g_hand_mutex;
std::condition_variable g_hand_cv;
int g_hand_step = 0;  // 1: A is suspended in the helper; 2: B's call is done
extern "C" int64_t HostWaitForOtherThread(int64_t v) {
  std::unique_lock<std::mutex> lock(g_hand_mutex);
  g_hand_step = 1;
  g_hand_cv.notify_all();
  g_hand_cv.wait(lock, [] { return g_hand_step == 2; });
  return v;
}

TEST_F(ExecutorTest, ThreadsRunGuestCodeWhileAnotherIsSuspended) {
  RegisterHelper(reinterpret_cast<const void*>(&HostWaitForOtherThread),
                 {"HostWaitForOtherThread", 1, 0, RetKind::kInt});
  // x19 = x0 + 1000 and a stack slot = x0 + 7, both live across the helper call.
  const uint8_t* waits = Load([](Assembler& a) {
    a.stp(x29, x30, ptr_pre(sp, -32));
    a.mov(x29, sp);
    a.str(x19, ptr(sp, 16));
    a.add(x19, x0, 1000);
    a.add(x1, x0, 7);
    a.str(x1, ptr(sp, 24));
    CallHostFunction(a, reinterpret_cast<const void*>(&HostWaitForOtherThread));
    a.ldr(x1, ptr(sp, 24));
    a.add(x0, x0, x19);
    a.add(x0, x0, x1);
    a.ldr(x19, ptr(sp, 16));
    a.ldp(x29, x30, ptr_post(sp, 32));
    a.ret(x30);
  });
  // Writes its own stack slots and registers: x19 = 5000, slot = x0 * 3.
  const uint8_t* other = Load([](Assembler& a) {
    a.stp(x29, x30, ptr_pre(sp, -32));
    a.str(x19, ptr(sp, 16));
    a.mov(x19, 5000);
    a.add(x1, x0, x0, asmjit::arm::lsl(1));
    a.str(x1, ptr(sp, 24));
    a.ldr(x0, ptr(sp, 24));
    a.ldr(x19, ptr(sp, 16));
    a.ldp(x29, x30, ptr_post(sp, 32));
    a.ret(x30);
  });
  g_hand_step = 0;
  uint64_t a_result = 0, b_result = 0;
  std::string a_error;  // a fault on a thread must fail the test, not terminate it
  std::thread a([&] {
    try {
      a_result = ex_->CallInt(waits, {Arg::Int(1)});
    } catch (const std::exception& e) {
      a_error = e.what();
    }
  });
  std::thread b([&] {
    {
      std::unique_lock<std::mutex> lock(g_hand_mutex);
      g_hand_cv.wait(lock, [] { return g_hand_step == 1; });
    }
    b_result = ex_->CallInt(other, {Arg::Int(14)});
    std::lock_guard<std::mutex> lock(g_hand_mutex);
    g_hand_step = 2;
    g_hand_cv.notify_all();
  });
  a.join();
  b.join();
  EXPECT_EQ(a_error, "");
  EXPECT_EQ(b_result, 42u);
  EXPECT_EQ(a_result, 1u + 1001u + 8u);
  ExpectRanOnThisHost();
}

TEST_F(ExecutorTest, PatchedCodeRunsNewBytes) {
  const uint8_t* fn = Load([](Assembler& a) {
    a.mov(x0, 1);
    a.ret(x30);
  });
  EXPECT_EQ(ex_->CallInt(fn, {}), 1u);
  const std::vector<uint8_t> two = Assemble([](Assembler& a) {
    a.mov(x0, 2);
    a.ret(x30);
  });
  ex_->Patch(fn, two.data(), two.size());
  EXPECT_EQ(ex_->CallInt(fn, {}), 2u) << "stale instruction or translation cache";
  ExpectRanOnThisHost();
}

// ---- faults: a clear error, the host alive, the next call correct ---------------------

TEST_F(ExecutorTest, NullDereferenceIsAFault) {
  const uint8_t* fn = Load([](Assembler& a) {
    a.ldr(x0, ptr(x0, 8));
    a.ret(x30);
  });
  GuestFault f = ExpectFault([&] { ex_->CallInt(fn, {Arg::Int(0)}); }, Kind::kNullDereference);
  EXPECT_EQ(f.address(), 8u);
  EXPECT_EQ(f.pc(), reinterpret_cast<uint64_t>(fn));
  EXPECT_NE(f.disassembly().find("=> 0x"), std::string::npos) << f.disassembly();
  EXPECT_NE(f.disassembly().find("ldr x0, [x0, #8]"), std::string::npos) << f.disassembly();
  ExpectNextCallWorks();
}

// Under Unicorn a data fault's message names the link register too: a fault in code that
// many sites call (the JIT's shared stubs) then says which call site it came from.
TEST_F(ExecutorTest, DataFaultNamesTheLinkRegister) {
  const uint8_t* fn = Load([](Assembler& a) {
    asmjit::Label callee = a.newLabel();
    a.stp(x29, x30, ptr_pre(sp, -16));
    a.mov(x29, sp);
    a.bl(callee);
    a.ldp(x29, x30, ptr_post(sp, 16));
    a.ret(x30);
    a.bind(callee);
    a.ldr(x0, ptr(x0, 8));
    a.ret(x30);
  });
  GuestFault f = ExpectFault([&] { ex_->CallInt(fn, {Arg::Int(0)}); }, Kind::kNullDereference);
  EXPECT_EQ(f.pc(), reinterpret_cast<uint64_t>(fn) + 20);
  if (ex_->mode() == ExecMode::kUnicorn) {
    char lr[40];
    std::snprintf(lr, sizeof lr, "; lr 0x%llx",
                  static_cast<unsigned long long>(reinterpret_cast<uint64_t>(fn) + 12));
    EXPECT_NE(std::string(f.what()).find(lr), std::string::npos) << f.what();
  }
  ExpectNextCallWorks();
}

// A data fault inside a block that a chained branch entered (the call ran once before without
// faulting, so the blocks are linked). Natively pc is the faulting load. Under Unicorn, whose
// memory hook gives neither the load nor, after chained blocks, its block (its PC is where the
// guest last left translated code), pc is the start of the faulting block, as the block hook
// saw it; the message says so and the disassembly runs to the block's end.
TEST_F(ExecutorTest, DataFaultNamesItsBlock) {
  const uint8_t* fn = Load([](Assembler& a) {
    asmjit::Label out = a.newLabel();
    a.mov(x1, x0);
    a.cbz(x1, out);  // not taken: the faulting block is the one that falls through
    a.add(x2, x1, 1);
    a.add(x3, x2, 1);
    a.ldr(x0, ptr(x1, 8));
    a.bind(out);
    a.ret(x30);
  });
  uint64_t words[2] = {0, 42};
  EXPECT_EQ(ex_->CallInt(fn, {Arg::Ptr(words)}), 42u);
  GuestFault f = ExpectFault([&] { ex_->CallInt(fn, {Arg::Int(0x100)}); }, Kind::kNullDereference);
  const uint64_t block = reinterpret_cast<uint64_t>(fn) + 8;
  const uint64_t load = block + 8;
  EXPECT_EQ(f.address(), 0x108u);
  if (ex_->mode() == ExecMode::kUnicorn) {
    EXPECT_EQ(f.pc(), block);
    EXPECT_NE(std::string(f.what()).find("start of the faulting block of 4 instructions"),
              std::string::npos)
        << f.what();
    char shown[32];
    std::snprintf(shown, sizeof shown, "0x%llx: ldr", static_cast<unsigned long long>(load));
    EXPECT_NE(f.disassembly().find(shown), std::string::npos) << f.disassembly();
  } else {
    EXPECT_EQ(f.pc(), load);
  }
  ExpectNextCallWorks();
}

TEST_F(ExecutorTest, UnmappedAccessIsAFault) {
  // An address the host certainly does not have: mapped, then unmapped again.
  void* page = mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  munmap(page, 4096);
  const uint8_t* fn = Load([](Assembler& a) {
    a.mov(x1, 5);
    a.str(x1, ptr(x0));
    a.ret(x30);
  });
  GuestFault f = ExpectFault([&] { ex_->CallInt(fn, {Arg::Ptr(page)}); }, Kind::kUnmappedAccess);
  EXPECT_EQ(f.address(), reinterpret_cast<uint64_t>(page));
  ExpectNextCallWorks();
}

// Memory a call used, unmapped by the host before the next call: the next access is a fault
// there too (the Unicorn executor keeps its on-demand mappings between calls only while the
// host still has the memory), and memory mapped again at the same place works again.
TEST_F(ExecutorTest, HostMemoryUnmappedBetweenCallsIsAFault) {
  const uint8_t* store = Load([](Assembler& a) {
    a.mov(x1, 7);
    a.str(x1, ptr(x0));
    a.ldr(x0, ptr(x0));
    a.ret(x30);
  });
  void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  EXPECT_EQ(ex_->CallInt(store, {Arg::Ptr(page)}), 7u);
  ExpectRanOnThisHost();
  munmap(page, 4096);
  // Unicorn checks its on-demand mappings against the host's map at most every 50 ms.
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  GuestFault f = ExpectFault([&] { ex_->CallInt(store, {Arg::Ptr(page)}); }, Kind::kUnmappedAccess);
  EXPECT_EQ(f.address(), reinterpret_cast<uint64_t>(page));
  void* again =
      mmap(page, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  ASSERT_EQ(again, page);
  EXPECT_EQ(ex_->CallInt(store, {Arg::Ptr(page)}), 7u);
  munmap(page, 4096);
  ExpectNextCallWorks();
}

TEST_F(ExecutorTest, WriteToCodeIsAProtectionFault) {
  const uint8_t* fn = Load([](Assembler& a) {
    asmjit::Label self = a.newLabel();
    a.bind(self);
    a.adr(x1, self);
    a.str(x0, ptr(x1));
    a.ret(x30);
  });
  ExpectFault([&] { ex_->CallInt(fn, {Arg::Int(0)}); }, Kind::kProtection);
  ExpectNextCallWorks();
}

TEST_F(ExecutorTest, UndefinedInstructionIsAFault) {
  const uint8_t* fn = Load([](Assembler& a) {
    a.mov(x0, 1);
    a.embedUInt32(0x00000000u);  // udf #0
    a.ret(x30);
  });
  GuestFault f = ExpectFault([&] { ex_->CallInt(fn, {}); }, Kind::kUndefinedInstruction);
  EXPECT_EQ(f.pc(), reinterpret_cast<uint64_t>(fn) + 4);
  ExpectNextCallWorks();
}

TEST_F(ExecutorTest, InfiniteLoopExceedsBudget) {
  ExecutorOptions options;
  options.instruction_budget = 2'000'000;
  options.time_limit_seconds = 0.5;
  Make(options);
  const uint8_t* fn = Load([](Assembler& a) {
    asmjit::Label loop = a.newLabel();
    a.bind(loop);
    a.add(x0, x0, 1);
    a.b(loop);
  });
  EXPECT_THROW(ex_->CallInt(fn, {}), Timeout);
#if !defined(__aarch64__)
  EXPECT_GE(ex_->last_call_stats().guest_instructions, options.instruction_budget);
#endif
  ExpectNextCallWorks();
}

TEST_F(ExecutorTest, UnboundedRecursionIsAStackOverflow) {
  ExecutorOptions options;
  options.stack_size = 256 * 1024;
  Make(options);
  const uint8_t* fn = Load([](Assembler& a) {
    asmjit::Label self = a.newLabel();
    a.bind(self);
    a.stp(x29, x30, ptr_pre(sp, -16));
    a.bl(self);
  });
  GuestFault f = ExpectFault([&] { ex_->CallInt(fn, {}); }, Kind::kStackOverflow);
  EXPECT_LT(f.address(), ex_->stack_low());
  ExpectNextCallWorks();
}

TEST_F(ExecutorTest, FaultInNestedCallUnwindsToOutermost) {
  RegisterHelper(reinterpret_cast<const void*>(&HostReenter), {"HostReenter", 1, 0, RetKind::kInt});
  g_executor = ex_.get();
  // f(n) = n == 0 ? *(int64_t*)0 : HostReenter(n - 1)
  g_guest_fn = Load([](Assembler& a) {
    asmjit::Label recurse = a.newLabel();
    a.cbnz(x0, recurse);
    a.ldr(x0, ptr(x0));
    a.ret(x30);
    a.bind(recurse);
    a.stp(x29, x30, ptr_pre(sp, -16));
    a.sub(x0, x0, 1);
    CallHostFunction(a, reinterpret_cast<const void*>(&HostReenter));
    a.ldp(x29, x30, ptr_post(sp, 16));
    a.ret(x30);
  });
  ExpectFault([&] { ex_->CallInt(g_guest_fn, {Arg::Int(10)}); }, Kind::kNullDereference);
  ExpectNextCallWorks();
  EXPECT_EQ(ex_->last_call_stats().max_depth, 1);
}

TEST_F(ExecutorTest, MisalignedStackPointerIsAFault) {
#if defined(__aarch64__)
  GTEST_SKIP() << "natively the CPU checks SP alignment (SIGBUS) but qemu-aarch64 does not "
                  "emulate that check, so this mode cannot observe it";
#else
  const uint8_t* misaligned = Load([](Assembler& a) {
    asmjit::Label next = a.newLabel();
    a.sub(sp, sp, 8);
    a.b(next);  // the next block starts with SP misaligned
    a.bind(next);
    a.ldr(x0, ptr(sp));
    a.add(sp, sp, 8);
    a.ret(x30);
  });
  ExpectFault([&] { ex_->CallInt(misaligned, {}); }, Kind::kMisalignedStack);
  ExpectNextCallWorks();
#endif
}

extern "C" int64_t NotRegisteredHelper(int64_t x) { return x + 1; }

TEST_F(ExecutorTest, CallToUnregisteredHostFunctionNamesIt) {
#if defined(__aarch64__)
  GTEST_SKIP() << "natively guest code calls host functions directly; there is no bridge "
                  "that could refuse an unregistered one";
#else
  const uint8_t* fn = Load([](Assembler& a) {
    a.stp(x29, x30, ptr_pre(sp, -16));
    CallHostFunction(a, reinterpret_cast<const void*>(&NotRegisteredHelper));
    a.ldp(x29, x30, ptr_post(sp, 16));
    a.ret(x30);
  });
  GuestFault f = ExpectFault([&] { ex_->CallInt(fn, {Arg::Int(1)}); }, Kind::kUnregisteredHostCall);
  EXPECT_NE(std::string(f.what()).find("NotRegisteredHelper"), std::string::npos) << f.what();
  EXPECT_EQ(f.address(), reinterpret_cast<uint64_t>(&NotRegisteredHelper));
  ExpectNextCallWorks();
#endif
}

// Resident memory of this process, from /proc/self/statm.
size_t ResidentBytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  unsigned long pages = 0, resident = 0;
  if (f != nullptr) {
    if (std::fscanf(f, "%lu %lu", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

uint64_t g_host_word = 41;

// An executor's first calls cost tens of megabytes, not Unicorn 2.0.1's default translation
// buffer of 1 GiB, which it zeroes in full on every translation-cache flush (see
// unicorn_tb_buffer.h). The first call reads host memory, so under Unicorn it maps some on
// demand, and the second call starts with a flush.
TEST(ExecutorMemory, FirstCallsKeepResidentMemorySmall) {
  const size_t before = ResidentBytes();
  ASSERT_GT(before, 0u);
  auto ex = CreateHostExecutor();
  const uint8_t* fn = ex->Load(Assemble([](Assembler& a) {
    a.ldr(x0, ptr(x0));
    a.add(x0, x0, 1);
    a.ret(x30);
  }));
  const uint64_t address = reinterpret_cast<uintptr_t>(&g_host_word);
  EXPECT_EQ(ex->CallInt(fn, {Arg::Int(address)}), 42u);
  EXPECT_EQ(ex->CallInt(fn, {Arg::Int(address)}), 42u);
  const size_t growth = ResidentBytes() - before;
  EXPECT_LT(growth, size_t{256} << 20) << "resident memory grew by " << (growth >> 20) << " MiB";
#if !defined(__aarch64__)
  EXPECT_GT(ex->last_call_stats().guest_instructions, 0u);
#endif
}

// More chained blocks than the translation buffer holds (about 400 bytes of translation
// each, 16 MiB by default): the buffer fills while one block is about to be chained to the
// next, and must be flushed as a whole. Unicorn 2.0.1 used to zero it under its own hash
// table on the first fill instead (see FlushTranslations), and this call then crashed the
// process with SIGSEGV in tb_set_jmp_target.
TEST(ExecutorTranslation, MoreChainedBlocksThanTheBufferHolds) {
  constexpr int kBlocks = 100000;
  auto ex = CreateHostExecutor();
  const uint8_t* fn = ex->Load(Assemble([](Assembler& a) {
    a.mov(x0, 0);
    for (int i = 0; i < kBlocks; i++) {
      asmjit::Label next = a.newLabel();
      a.add(x0, x0, 1);
      a.b(next);
      a.bind(next);
    }
    a.ret(x30);
  }));
  EXPECT_EQ(ex->CallInt(fn, {}), uint64_t{kBlocks});
  EXPECT_EQ(ex->CallInt(fn, {}), uint64_t{kBlocks});  // a second pass, after a flush
#if !defined(__aarch64__)
  EXPECT_GT(ex->last_call_stats().guest_instructions, uint64_t{2} * kBlocks);
#endif
}

TEST(HelperRegistry, RejectsMoreThanEightArgumentsOfAKind) {
  EXPECT_THROW(
      RegisterHelper(reinterpret_cast<const void*>(&HostMulAdd), {"too many", 9, 0, RetKind::kInt}),
      std::invalid_argument);
}

TEST(ExecutorFactory, OtherModeIsAClearError) {
#if defined(__aarch64__)
  EXPECT_THROW(CreateExecutor(ExecMode::kUnicorn), ExecutorError);
#else
  EXPECT_THROW(CreateExecutor(ExecMode::kNative), ExecutorError);
#endif
}

}  // namespace
}  // namespace a64jit::emu
