// Each directly encoded form against asmjit's encoding of the same instruction, over
// registers (including SP and the zero register where the form takes them), widths and
// offsets at the edges of what fits.
#include "jit/codegen/direct_encoding.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>

namespace a64jit::codegen {
namespace {

using asmjit::a64::Gp;

// The word asmjit emits for one instruction.
uint32_t AsmjitWord(const std::function<void(asmjit::a64::Assembler&)>& emit) {
  asmjit::CodeHolder code;
  code.init(asmjit::Environment(asmjit::Arch::kAArch64));
  asmjit::a64::Assembler a(&code);
  emit(a);
  const asmjit::CodeBuffer& buffer = code.sectionById(0)->buffer();
  EXPECT_EQ(buffer.size(), 4u);
  uint32_t word = 0;
  std::memcpy(&word, buffer.data(), sizeof word);
  return word;
}

// General registers by asmjit id, 64- or 32-bit.
Gp Reg(uint32_t id, bool wide) {
  return wide ? Gp(asmjit::a64::GpX(id)) : Gp(asmjit::a64::GpW(id));
}

const uint32_t kIds[] = {0, 1, 7, 16, 19, 29, 30, kSpId, kZrId};

TEST(DirectEncoding, LoadsAndStoresAtAScaledOffset) {
  int checked = 0;
  for (int size : {1, 2, 4, 8}) {
    for (bool load : {true, false}) {
      for (uint32_t rt : kIds) {
        for (uint32_t rn : kIds) {
          for (int64_t off : {0, 1, 8, 16, 24, 4095, 4096, 8 * 4095, 8 * 4096, -8}) {
            const std::optional<uint32_t> word = EncodeLoadStore(load, size, rt, rn, off);
            const bool fits =
                off >= 0 && off % size == 0 && off / size <= 4095 && rt != kSpId && rn != kZrId;
            ASSERT_EQ(word.has_value(), fits) << size << " " << rt << " " << rn << " " << off;
            if (!fits) continue;
            const auto mem = asmjit::a64::ptr(asmjit::a64::GpX(rn), static_cast<int32_t>(off));
            const Gp t = Reg(rt, size == 8);
            const uint32_t expected = AsmjitWord([&](asmjit::a64::Assembler& a) {
              if (size == 1) load ? a.ldrb(t, mem) : a.strb(t, mem);
              if (size == 2) load ? a.ldrh(t, mem) : a.strh(t, mem);
              if (size >= 4) load ? a.ldr(t, mem) : a.str(t, mem);
            });
            ASSERT_EQ(*word, expected) << (load ? "ldr" : "str") << size << " id " << rt << ", [id "
                                       << rn << ", #" << off << "]";
            checked++;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(DirectEncoding, AddSubAndCompareWithAnImmediate) {
  int checked = 0;
  for (bool wide : {true, false}) {
    for (bool sub : {true, false}) {
      for (uint32_t rd : kIds) {
        for (uint32_t rn : kIds) {
          for (uint64_t imm : {0ull, 1ull, 16ull, 4095ull, 4096ull, 0x5000ull, 0xfff000ull,
                               0x1000000ull, 4097ull}) {
            const bool imm_fits = imm <= 0xfff || ((imm & 0xfff) == 0 && imm <= 0xfff000);
            const std::optional<uint32_t> word = EncodeAddSubImm(sub, false, wide, rd, rn, imm);
            ASSERT_EQ(word.has_value(), imm_fits && rd != kZrId && rn != kZrId);
            if (word) {
              const uint32_t expected = AsmjitWord([&](asmjit::a64::Assembler& a) {
                sub ? a.sub(Reg(rd, wide), Reg(rn, wide), imm)
                    : a.add(Reg(rd, wide), Reg(rn, wide), imm);
              });
              ASSERT_EQ(*word, expected)
                  << (sub ? "sub" : "add") << " " << rd << " " << rn << " #" << imm;
              checked++;
            }
            if (!sub || rd != kZrId) continue;
            const std::optional<uint32_t> cmp = EncodeAddSubImm(true, true, wide, kZrId, rn, imm);
            ASSERT_EQ(cmp.has_value(), imm_fits && rn != kZrId);
            if (!cmp) continue;
            ASSERT_EQ(*cmp, AsmjitWord([&](asmjit::a64::Assembler& a) {
              a.cmp(Reg(rn, wide), imm);
            })) << "cmp "
                << rn << " #" << imm;
            checked++;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 500);
}

TEST(DirectEncoding, AddSubAndCompareOfRegisters) {
  int checked = 0;
  for (bool wide : {true, false}) {
    for (uint32_t rd : kIds) {
      for (uint32_t rn : kIds) {
        for (uint32_t rm : kIds) {
          const bool plain = rd < 31 && rn < 31 && rm < 31;
          for (bool sub : {true, false}) {
            const std::optional<uint32_t> word = EncodeAddSubReg(sub, false, wide, rd, rn, rm);
            ASSERT_EQ(word.has_value(), plain);
            if (!word) continue;
            ASSERT_EQ(*word, AsmjitWord([&](asmjit::a64::Assembler& a) {
              sub ? a.sub(Reg(rd, wide), Reg(rn, wide), Reg(rm, wide))
                  : a.add(Reg(rd, wide), Reg(rn, wide), Reg(rm, wide));
            }));
            checked++;
          }
          if (rd != kZrId) continue;
          const std::optional<uint32_t> cmp = EncodeAddSubReg(true, true, wide, kZrId, rn, rm);
          ASSERT_EQ(cmp.has_value(), rn < 31 && rm < 31);
          if (!cmp) continue;
          ASSERT_EQ(*cmp, AsmjitWord([&](asmjit::a64::Assembler& a) {
            a.cmp(Reg(rn, wide), Reg(rm, wide));
          })) << "cmp "
              << rn << ", " << rm;
          checked++;
        }
      }
    }
  }
  EXPECT_GT(checked, 500);
}

TEST(DirectEncoding, RegisterMoves) {
  int checked = 0;
  for (bool wide : {true, false}) {
    for (uint32_t rd : kIds) {
      for (uint32_t rm : kIds) {
        const std::optional<uint32_t> word = EncodeMovReg(wide, rd, rm);
        ASSERT_EQ(word.has_value(), rd != kZrId && rm != kZrId && !(rd == kSpId && rm == kSpId) ||
                                        (rd == kSpId && rm == kSpId))
            << rd << " " << rm;
        if (!word) continue;
        ASSERT_EQ(*word, AsmjitWord([&](asmjit::a64::Assembler& a) {
          a.mov(Reg(rd, wide), Reg(rm, wide));
        })) << "mov "
            << rd << ", " << rm;
        checked++;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

// A branch over `delta` bytes as asmjit encodes it against a label (a forward one bound
// after delta / 4 - 1 nops, or a backward one bound that far before).
uint32_t AsmjitBranch(
    int64_t delta,
    const std::function<void(asmjit::a64::Assembler&, const asmjit::Label&)>& branch) {
  asmjit::CodeHolder code;
  code.init(asmjit::Environment(asmjit::Arch::kAArch64));
  asmjit::a64::Assembler a(&code);
  asmjit::Label l = a.newLabel();
  size_t at = 0;
  if (delta <= 0) {
    a.bind(l);
    for (int64_t i = 0; i < -delta / 4; i++) a.nop();
    at = a.offset();
    branch(a, l);
  } else {
    branch(a, l);
    for (int64_t i = 1; i < delta / 4; i++) a.nop();
    a.bind(l);
  }
  code.flatten();
  code.resolveUnresolvedLinks();
  uint32_t word = 0;
  std::memcpy(&word, code.sectionById(0)->buffer().data() + at, sizeof word);
  return word;
}

TEST(DirectEncoding, BranchesToBlocks) {
  int checked = 0;
  for (int64_t delta : {-4096, -8, -4, 0, 4, 8, 12, 400, 65536}) {
    ASSERT_EQ(*EncodeB(delta), AsmjitBranch(delta, [](asmjit::a64::Assembler& a,
                                                      const asmjit::Label& l) { a.b(l); }))
        << "b " << delta;
    ASSERT_EQ(*WithBranchDelta(*EncodeB(0), delta), *EncodeB(delta));
    for (auto cc :
         {asmjit::arm::CondCode::kEQ, asmjit::arm::CondCode::kNE, asmjit::arm::CondCode::kHI,
          asmjit::arm::CondCode::kLT, asmjit::arm::CondCode::kGE, asmjit::arm::CondCode::kLE}) {
      const uint32_t expected = AsmjitBranch(
          delta, [&](asmjit::a64::Assembler& a, const asmjit::Label& l) { a.b(cc, l); });
      ASSERT_EQ(*EncodeBCond(cc, delta), expected) << "b.cond " << static_cast<int>(cc);
      ASSERT_EQ(*WithBranchDelta(*EncodeBCond(cc, 0), delta), expected);
      checked++;
    }
    for (bool nonzero : {false, true}) {
      for (bool wide : {false, true}) {
        for (uint32_t rt : {0u, 5u, 30u}) {
          const uint32_t expected =
              AsmjitBranch(delta, [&](asmjit::a64::Assembler& a, const asmjit::Label& l) {
                nonzero ? a.cbnz(Reg(rt, wide), l) : a.cbz(Reg(rt, wide), l);
              });
          ASSERT_EQ(*EncodeCbz(nonzero, wide, rt, delta), expected)
              << (nonzero ? "cbnz " : "cbz ") << rt << " " << delta;
          ASSERT_EQ(*WithBranchDelta(*EncodeCbz(nonzero, wide, rt, 0), delta), expected);
          checked++;
        }
      }
    }
  }
  EXPECT_GT(checked, 100);
  for (int64_t delta : {-32768, -8, -4, 0, 4, 400, 32764}) {
    for (bool nonzero : {false, true}) {
      for (uint32_t bit : {0u, 31u, 32u, 63u}) {
        for (uint32_t rt : {0u, 5u, 30u}) {
          const uint32_t expected =
              AsmjitBranch(delta, [&](asmjit::a64::Assembler& a, const asmjit::Label& l) {
                const Gp r = Reg(rt, bit >= 32);
                nonzero ? a.tbnz(r, bit, l) : a.tbz(r, bit, l);
              });
          ASSERT_EQ(*EncodeTbz(nonzero, bit, rt, delta), expected)
              << (nonzero ? "tbnz " : "tbz ") << rt << " #" << bit << " " << delta;
          ASSERT_EQ(*WithBranchDelta(*EncodeTbz(nonzero, bit, rt, 0), delta), expected);
        }
      }
    }
  }
  EXPECT_FALSE(EncodeTbz(true, 63, 1, 32768));
  EXPECT_FALSE(WithBranchDelta(*EncodeTbz(true, 63, 1, 0), -32772));
  // Out of reach, or not a whole instruction away.
  EXPECT_FALSE(EncodeB(int64_t{1} << 27));
  EXPECT_TRUE(EncodeB(-(int64_t{1} << 27)));
  EXPECT_FALSE(EncodeBCond(asmjit::arm::CondCode::kEQ, int64_t{1} << 20));
  EXPECT_TRUE(EncodeBCond(asmjit::arm::CondCode::kEQ, -(int64_t{1} << 20)));
  EXPECT_FALSE(EncodeCbz(false, true, 1, 6));
  EXPECT_FALSE(WithBranchDelta(*EncodeCbz(false, true, 1, 0), int64_t{1} << 20));
  EXPECT_FALSE(EncodeCbz(false, true, kZrId, 8));
}

// The word lands where asmjit's next instruction would, and the code's size counts it.
TEST(DirectEncoding, EmitWordAppendsLikeTheAssembler) {
  asmjit::CodeHolder code;
  code.init(asmjit::Environment(asmjit::Arch::kAArch64));
  asmjit::a64::Assembler a(&code);
  a.add(asmjit::a64::x1, asmjit::a64::x2, 3);
  for (int i = 0; i < 2000; i++) EmitWord(a, *EncodeMovReg(true, 1, 2));  // past the buffer
  a.add(asmjit::a64::x1, asmjit::a64::x2, 3);
  const asmjit::CodeBuffer& buffer = code.sectionById(0)->buffer();
  ASSERT_EQ(buffer.size(), 4u * 2002);
  uint32_t words[2002];
  std::memcpy(words, buffer.data(), sizeof words);
  EXPECT_EQ(words[0], words[2001]);
  EXPECT_EQ(words[1], 0xaa0203e1u);  // mov x1, x2
  EXPECT_EQ(words[2000], 0xaa0203e1u);
}

}  // namespace
}  // namespace a64jit::codegen
