// A fixed-seed batch of random LIR programs (interpreter vs emitted code), and the shrinker
// reducing a planted failure to a few lines.
#include <gtest/gtest.h>

#include "difftest/lir/generator.h"
#include "difftest/lir/lir_diff.h"
#include "difftest/lir/shrink.h"
#include "jit/lir/text.h"

namespace a64jit::difftest {
namespace {

TEST(LirFuzz, FixedSeedBatchMatches) {
  constexpr int kPrograms = 400;
  LirDiff diff;
  int big_frames = 0, stack_args = 0;
  for (int i = 0; i < kPrograms; i++) {
    GeneratedProgram p = GenerateProgram(424242 + static_cast<uint64_t>(i));
    DiffOutcome o = diff.Check(p.module, p.input);
    ASSERT_EQ(o.kind, DiffOutcome::Kind::kMatch)
        << "program seed " << 424242 + i << ": " << o.detail << "\n"
        << lir::Print(p.module);
    const lir::Function& f = *p.module.Find("f");
    for (const lir::StackSlot& s : f.slots) big_frames += s.size > 4096;
    stack_args += p.module.Find("many") != nullptr;
  }
  // The batch really exercised the emitted code and the interesting shapes.
#if !defined(__aarch64__)
  EXPECT_GT(diff.total_guest_instructions(), 100000u);
#endif
  EXPECT_GT(big_frames, 20);
  EXPECT_GT(stack_args, 40);
}

TEST(LirFuzz, ShrinkerReducesAPlantedFailureToItsCause) {
  GeneratedProgram p = GenerateProgram(99);
  // Plant: "fails" whenever the function still contains an `srem`.
  auto has_srem = [](const lir::Module& m) {
    for (const lir::Block& b : m.Find("f")->blocks) {
      for (const lir::Instr& in : b.instrs) {
        if (in.op == lir::Op::kSRem) return true;
      }
    }
    return false;
  };
  lir::Instr srem;
  srem.op = lir::Op::kSRem;
  lir::Function& f = p.module.functions.back();
  srem.dst = f.NewVReg(lir::Type::kI64);
  srem.args = {lir::Operand::VReg(f.params[1]), lir::Operand::Imm(7)};
  f.blocks[0].instrs.insert(f.blocks[0].instrs.begin(), srem);
  ASSERT_TRUE(has_srem(p.module));
  lir::Module small = Shrink(p.module, "f", has_srem);
  EXPECT_TRUE(has_srem(small));
  size_t non_jumps = 0;
  for (const lir::Block& b : small.Find("f")->blocks) {
    for (const lir::Instr& in : b.instrs) non_jumps += in.op != lir::Op::kJmp;
  }
  EXPECT_LE(non_jumps, 3u) << lir::Print(small);  // the srem, its operand, the ret
}

}  // namespace
}  // namespace a64jit::difftest
