// One regression test per bug class of docs/bug_classes.md ("Bugs this harness exists to
// catch"), each seen in the aarch64 bring-up of a production Python JIT. Every test runs
// emitted code on this host's executor and fails if the corresponding fix is removed.
#include <gtest/gtest.h>

#include <cstring>

#include "difftest/lir/expect_match.h"
#include "difftest/lir/helpers.h"
#include "difftest/lir/lir_diff.h"
#include "emulation/executors.h"
#include "emulation/helper_registry.h"
#include "jit/codegen/codegen.h"
#include "jit/lir/text.h"

namespace a64jit::difftest {
namespace {

using lir::Value;

// 1. add/sub immediates beyond 12 bits (`sub sp, sp, #5376` for a large frame), and the
//    same for load/store offsets and logical immediates.
TEST(BugClass1, LargeImmediatesFramesAndOffsets) {
  LirDiff diff;
  ExpectMatch(diff, R"(func @f(%0:ptr, %1:i64) -> i64 {
  slot ss0 = 5376
  slot ss1 = 40000
bb0:
  %2:ptr = slotaddr ss0
  store.i64 %1, [%2 + 5368]
  %3:ptr = slotaddr ss1
  store.i64 %1, [%3 + 39992]
  %4:i64 = load [%2 + 5368]
  %5:i64 = load [%3 + 39992]
  %6:i64 = add %4, 5376
  %7:i64 = sub %6, 0xfff001
  %8:i64 = add %7, 0x1000000
  %9:i64 = and %8, 0x5555555555555554
  %10:i64 = xor %9, 0xff00ff00ff00ff00
  %11:i64 = add %10, %5
  store.i64 %11, [%0 + 32768]
  %14:i32 = trunc %11
  store.i32 %14, [%0 + 4097]
  %12:i64 = load [%0 + 60001]
  %13:i64 = add %11, %12
  ret %13
}
)",
              {Value{0x123456789}}, 65536);
}

// Frames of any size: 20 MB needs the frame adjustment through scratch registers.
TEST(BugClass1, TwentyMegabyteFrameRuns) {
  lir::Module m = lir::Parse(R"(func @f(%0:i64) -> i64 {
  slot ss0 = 20000000
bb0:
  %1:ptr = slotaddr ss0
  store.i64 %0, [%1 + 19999992]
  store.i64 %0, [%1]
  %2:i64 = load [%1 + 19999992]
  %3:i64 = load [%1]
  %4:i64 = add %2, %3
  ret %4
}
)");
  runtime::ExecutorOptions options;
  options.stack_size = 64u << 20;
  auto ex = emu::CreateHostExecutor(options);
  auto loaded = codegen::CompileAndLoad(m, *ex, nullptr);
  EXPECT_EQ(ex->CallInt(loaded.at("f").entry, {runtime::Arg::Int(21)}), 42u);
  EXPECT_GE(loaded.at("f").code.stats.frame_size, 20000000);
}

// 2. 8- and 16-bit operations: no such registers; W registers and explicit extension.
TEST(BugClass2, NarrowOperationsExtendExplicitly) {
  LirDiff diff;
  const std::string text = R"(func @f(%0:i8, %1:i16, %2:i8) -> i64 {
bb0:
  %3:i8 = sdiv %0, %2
  %4:i8 = ashr %0, 3
  %5:i16 = lshr %1, 4
  %6:i8 = cmp.i8 slt %0, %2
  %7:i8 = cmp.i16 ugt %1, 0x8000
  %8:i64 = sext %3
  %9:i64 = sext %4
  %10:i64 = zext %5
  %11:i64 = zext %6
  %12:i64 = zext %7
  %13:i64 = add %8, %9
  %14:i64 = add %13, %10
  %15:i64 = shl %11, 8
  %16:i64 = shl %12, 9
  %17:i64 = add %14, %15
  %18:i64 = add %17, %16
  br.i8 sge %0, -100, bb1, bb2
bb1:
  ret %18
bb2:
  %19:i64 = add %18, 1000000
  ret %19
}
)";
  // Values arrive with garbage above their width: only the low bits may count.
  for (uint64_t a : {0xabcdef0000000080ull, 0x00000000000000f9ull, 0x1234567800000007ull}) {
    for (uint64_t b : {0xffffffffffff8001ull, 0x000000000000fff0ull}) {
      for (uint64_t c : {0x55555555555555ffull, 0x0000000000000002ull}) {
        ExpectMatch(diff, text, {Value{a}, Value{b}, Value{c}});
      }
    }
  }
}

// An i8 or i16 against zero is one tst of its own bits (codegen's rule): bits above its
// width, which arguments and truncations leave, must not make it non-zero.
TEST(BugClass2, NarrowBranchesAgainstZeroSeeOnlyTheirBits) {
  LirDiff diff;
  const std::string text = R"(func @f(%0:i8, %1:i16) -> i64 {
bb0:
  br.i8 eq %0, 0, bb1, bb2
bb1:
  br.i16 ne %1, 0, bb3, bb4
bb2:
  br.i16 eq %1, 0, bb4, bb5
bb3:
  ret 1
bb4:
  ret 2
bb5:
  ret 3
}
)";
  for (uint64_t a : {0xabcdef0000000100ull, 0x0000000000000001ull, 0x0000000000000000ull}) {
    for (uint64_t b : {0xffffffffffff0000ull, 0x0000000000008000ull, 0x10000ull}) {
      ExpectMatch(diff, text, {Value{a}, Value{b}});
    }
  }
}

// 3. A scratch register clobbered inside a frame or call sequence while it held a live
//    value: spilled values stored through computed addresses, spilled stack arguments,
//    and a register-argument cycle, all in one frame over 4 KiB.
TEST(BugClass3, ScratchRegistersSurviveSpillsAddressesAndCalls) {
  std::string text = "func @f(%0:ptr, %1:i64, %2:i64, %3:i64) -> i64 {\n  slot ss0 = 6000\nbb0:\n";
  // 40 simultaneously live values: most of them spill.
  for (int i = 10; i < 50; i++) {
    text += "  %" + std::to_string(i) + ":i64 = mul %1, " + std::to_string(i * 7919) + "\n";
  }
  text += "  %5:i64 = and %2, 63\n";
  for (int i = 10; i < 50; i++) {
    text += "  store.i64 %" + std::to_string(i) + ", [%0 + %5*8 + " +
            std::to_string(40000 + 8 * i) + "]\n";
  }
  text += "  %6:i64 = call @h_mix3(%2, %3, %1)\n";
  text += "  %7:i64 = call @h_mix3(%3, %1, %2)\n";
  text += "  %8:f64 = sitof %6\n";
  text +=
      "  %9:i64 = call @h_wide(%10, %11, %12, %13, %14, %15, %16, %17, %8, %8, %8, %8, %8, %8, %8, "
      "%8)\n";
  text += "  %51:i64 = add %9, %7\n";
  for (int i = 10; i < 50; i++) {
    text += "  %51:i64 = xor %51, %" + std::to_string(i) + "\n";
  }
  text += "  ret %51\n}\n";
  LirDiff diff;
  ExpectMatch(diff, text, {Value{0x1111}, Value{0x22}, Value{0x333}}, 65536);
}

// 4. Argument registers read in the prologue must not be handed to other values before
//    they are read (closures broke): eight integer and eight f64 parameters, all used only
//    after a call and under register pressure.
TEST(BugClass4, ParametersSurviveUntilTheirLastUse) {
  std::string text = "func @f(";
  for (int i = 0; i < 8; i++) text += "%" + std::to_string(i) + ":i64, ";
  for (int i = 8; i < 16; i++) text += "%" + std::to_string(i) + ":f64" + (i < 15 ? ", " : "");
  text += ") -> i64 {\nbb0:\n";
  // Arguments of the call are permuted parameters: moving them into x0-x2 is a cycle.
  text += "  %20:i64 = call @h_mix3(%1, %2, %0)\n";
  for (int i = 21; i < 45; i++)
    text += "  %" + std::to_string(i) + ":i64 = add %20, " + std::to_string(i) + "\n";
  text += "  %50:i64 = mov 0\n";
  for (int i = 21; i < 45; i++) text += "  %50:i64 = xor %50, %" + std::to_string(i) + "\n";
  for (int i = 0; i < 8; i++) {
    text += "  %50:i64 = mul %50, 31\n  %50:i64 = add %50, %" + std::to_string(i) + "\n";
  }
  for (int i = 8; i < 16; i++) {
    text += "  %" + std::to_string(60 + i) + ":i64 = ftosi %" + std::to_string(i) +
            "\n  %50:i64 = add %50, %" + std::to_string(60 + i) + "\n";
  }
  text += "  ret %50\n}\n";
  std::vector<Value> args;
  for (int i = 0; i < 8; i++) args.push_back(Value{static_cast<uint64_t>(1000 + 17 * i)});
  for (int i = 8; i < 16; i++) args.push_back(Value::Double(0.5 + 3 * i));
  LirDiff diff;
  ExpectMatch(diff, text, args);
}

// 5. Return-address bookkeeping for frame walking: aarch64 keeps the return address in LR,
//    so every frame must store a frame record (caller's x29, LR) that a walker can follow.
struct FrameWalk {
  uint64_t return_addresses[4];
  int depth;
};
FrameWalk g_walk;
extern "C" int64_t WalkFrames(uint64_t fp) {
  g_walk.depth = 0;
  for (int i = 0; i < 4 && fp != 0; i++) {
    const uint64_t* record = reinterpret_cast<const uint64_t*>(fp);
    g_walk.return_addresses[g_walk.depth++] = record[1];
    fp = record[0];
  }
  return g_walk.depth;
}

TEST(BugClass5, FrameRecordsChainToTheCaller) {
  emu::RegisterHelper(reinterpret_cast<const void*>(&WalkFrames),
                      {"WalkFrames", 1, 0, runtime::RetKind::kInt});
  lir::Module m = lir::Parse(R"(
func @inner(%0:i64) -> i64 {
  slot ss0 = 5376
bb0:
  %1:ptr = frameptr
  %2:i64 = call @walk(%1)
  %3:i64 = add %0, 1
  ret %3
}
func @outer(%0:i64) -> i64 {
  slot ss0 = 40000
bb0:
  %1:i64 = call @inner(%0)
  %2:i64 = add %1, 1
  ret %2
}
)");
  auto ex = emu::CreateHostExecutor();
  auto loaded =
      codegen::CompileAndLoad(m, *ex, [](const std::string& n) -> std::optional<uint64_t> {
        if (n == "walk") return reinterpret_cast<uintptr_t>(&WalkFrames);
        return std::nullopt;
      });
  const uint8_t* outer = loaded.at("outer").entry;
  const size_t outer_size = loaded.at("outer").code.stats.code_bytes;
  EXPECT_EQ(ex->CallInt(outer, {runtime::Arg::Int(10)}), 12u);
  ASSERT_GE(g_walk.depth, 2);
  // inner's record returns into outer, right after its call to inner...
  const uint64_t ra0 = g_walk.return_addresses[0];
  EXPECT_GT(ra0, reinterpret_cast<uint64_t>(outer));
  EXPECT_LT(ra0, reinterpret_cast<uint64_t>(outer) + outer_size);
  uint32_t call_insn;
  std::memcpy(&call_insn, reinterpret_cast<const void*>(ra0 - 4), 4);
  EXPECT_TRUE((call_insn & 0xfc000000u) == 0x94000000u ||  // bl
              (call_insn & 0xfffffc1fu) == 0xd63f0000u)    // blr
      << std::hex << call_insn;
  // ...and outer's record returns to whoever called it: not into outer or inner.
  EXPECT_FALSE(g_walk.return_addresses[1] >= reinterpret_cast<uint64_t>(outer) &&
               g_walk.return_addresses[1] < reinterpret_cast<uint64_t>(outer) + outer_size);
#if !defined(__aarch64__)
  EXPECT_GT(ex->last_call_stats().guest_instructions, 0u);
#endif
}

// 6. Call-site bloat: every helper call materialised a 64-bit address. Now a far target is
//    one literal-pool entry shared by its call sites (ldr + blr: 8 bytes a call) and a near
//    one is a single `bl`. Code size is a tested number.
TEST(BugClass6, CallSitesAreSmall) {
  std::string text =
      "extern @far = 0x7f0012345678\nextern @near = 0x30000\nfunc @f(%0:i64) -> i64 {\nbb0:\n";
  for (int i = 1; i <= 20; i++) {
    text += "  %" + std::to_string(i) + ":i64 = call @" + (i % 2 ? "far" : "near") + "(%" +
            std::to_string(i - 1) + ")\n";
  }
  text += "  ret %20\n}\n";
  lir::Module m = lir::Parse(text);
  codegen::CompileOptions o;
  o.base_address = 0x10000;
  o.resolve = [&](const std::string& n) -> std::optional<uint64_t> { return m.externs.at(n); };
  codegen::CompiledFunction c = codegen::Compile(m.functions[0], o);
  EXPECT_EQ(c.stats.pool_entries, 1);
  EXPECT_EQ(c.stats.pool_calls, 10);
  EXPECT_EQ(c.stats.direct_calls, 10);
  // Prologue and epilogue (9 instructions) and 15 bytes a call on average at most.
  EXPECT_LE(c.bytes.size(), 9 * 4 + 20 * 15u + 16) << codegen::Disassemble(c, 0x10000);
  // And it runs: the same call pattern against real helpers.
  LirDiff diff;
  std::string runnable = "func @f(%0:i64) -> i64 {\nbb0:\n";
  for (int i = 1; i <= 20; i++) {
    runnable +=
        "  %" + std::to_string(i) + ":i64 = call @h_mix3(%" + std::to_string(i - 1) + ", %0, %0)\n";
  }
  runnable += "  ret %20\n}\n";
  ExpectMatch(diff, runnable, {Value{3}});
}

}  // namespace
}  // namespace a64jit::difftest
