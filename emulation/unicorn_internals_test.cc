// The executor's uses of Unicorn 2.0's internals, on a bare engine, with the Unicorn
// installed here. GuestRegisters: what the guest computes is what the arrays hold, both
// ways. UseDirtyTlbEntries: it takes effect, guest stores stay right, and the TLB grows to its
// target size. The effect is observed
// through what it gives up: a guest store into a page of translated code no longer drops that
// code's translation (harmless for the executor, whose guest cannot write code; see
// unicorn_dirty_tlb.h).
#include <gtest/gtest.h>

#if !defined(__aarch64__)
#include <unicorn/unicorn.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "emulation/unicorn_dirty_tlb.h"
#include "emulation/unicorn_layout.h"
#include "emulation/unicorn_registers.h"
#include "emulation/unicorn_tlb_size.h"
#endif

namespace a64jit::emu {
namespace {

#if defined(__aarch64__)
TEST(UnicornInternals, NotUsedNatively) {
  GTEST_SKIP() << "natively there is no Unicorn engine: the code runs on the CPU";
}
#else

constexpr uint64_t kCode = 0x100000;
constexpr uint32_t kMovX0_1 = 0xd2800020;  // movz x0, #1
constexpr uint32_t kMovX0_2 = 0xd2800040;  // movz x0, #2
constexpr uint32_t kB8 = 0x14000002;       // b .+8
constexpr uint32_t kNop = 0xd503201f;
constexpr uint32_t kStrW1X2 = 0xb9000041;  // str w1, [x2]

class UnicornInternalsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsigned int major = 0, minor = 0;
    uc_version(&major, &minor);
    if (major != 2 || minor != 0) GTEST_SKIP() << "only Unicorn 2.0's layout was checked";
    ASSERT_EQ(uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc_), UC_ERR_OK);
    ASSERT_EQ(uc_mem_map(uc_, kCode, 0x1000, UC_PROT_ALL), UC_ERR_OK);
  }
  void TearDown() override {
    if (uc_ == nullptr) return;
    ForgetDirtyTlbEntries(uc_);
    uc_close(uc_);
  }
  void Write(uint64_t at, std::vector<uint32_t> words) {
    ASSERT_EQ(uc_mem_write(uc_, at, words.data(), words.size() * 4), UC_ERR_OK);
  }
  uint64_t Run(uint64_t begin, uint64_t until) {
    EXPECT_EQ(uc_emu_start(uc_, begin, until, 0, 0), UC_ERR_OK);
    uint64_t x0 = 0;
    uc_reg_read(uc_, UC_ARM64_REG_X0, &x0);
    return x0;
  }
  void SetReg(int reg, uint64_t value) { uc_reg_write(uc_, reg, &value); }
  // F at kCode returns 1 in x0; its first block ends at the branch, so uc_emu_start's `until`
  // (whose translation 2.0.1 drops after every run) lies in a second block. G at
  // kCode + 0x800 stores w1 to [x2].
  uint64_t RewriteFirstInstructionByGuest() {
    Write(kCode, {kMovX0_1, kB8, kNop, kNop});
    Write(kCode + 0x800, {kStrW1X2, kNop});
    EXPECT_EQ(Run(kCode, kCode + 12), 1u);  // F translated
    SetReg(UC_ARM64_REG_X1, kMovX0_2);
    SetReg(UC_ARM64_REG_X2, kCode);
    Run(kCode + 0x800, kCode + 0x804);  // G rewrites F's first instruction
    return Run(kCode, kCode + 12);      // F again
  }
  static bool AllWritable(void*, uint64_t) { return true; }
  uc_engine* uc_ = nullptr;
};

TEST_F(UnicornInternalsTest, StockUnicornRetranslatesCodeTheGuestStoredInto) {
  EXPECT_EQ(RewriteFirstInstructionByGuest(), 2u);
}

TEST_F(UnicornInternalsTest, DirtyEntriesSkipTheCodeCheckOfGuestStores) {
  uint64_t pc = 0;
  uc_reg_read(uc_, UC_ARM64_REG_PC, &pc);  // initialises the engine, as the executor does
  ASSERT_TRUE(UseDirtyTlbEntries(uc_, &AllWritable, nullptr));
  EXPECT_EQ(RewriteFirstInstructionByGuest(), 1u) << "the store took the not-dirty path";
}

// Pages the guest may not write keep the mark: Unicorn 2.0.1 checks UC_PROT_WRITE on the
// same slow path.
TEST_F(UnicornInternalsTest, PagesNotWritableKeepTheSlowPath) {
  uint64_t pc = 0;
  uc_reg_read(uc_, UC_ARM64_REG_PC, &pc);
  ASSERT_TRUE(UseDirtyTlbEntries(
      uc_, [](void*, uint64_t) { return false; }, nullptr));
  EXPECT_EQ(RewriteFirstInstructionByGuest(), 2u);
}

// add x0, x5, x6 ; add sp, sp, #16 ; fadd d0, d1, d2: inputs written through the arrays,
// results read through Unicorn, and the other way round.
TEST_F(UnicornInternalsTest, GuestRegistersAreTheEnginesRegisters) {
  GuestRegisters regs;
  regs.Attach(uc_);
  ASSERT_TRUE(regs.direct()) << "the register arrays were not found";
  Write(kCode, {0x8b0600a0, 0x910043ff, 0x1e622820, kNop});
  regs.set_x(5, 40);
  regs.set_x(6, 2);
  regs.set_x(kGuestSp, 0x7000);
  double one = 1.5, two = 2.25;
  uint64_t bits;
  std::memcpy(&bits, &one, 8);
  regs.set_d(1, bits);
  std::memcpy(&bits, &two, 8);
  regs.set_d(2, bits);
  EXPECT_EQ(Run(kCode, kCode + 12), 42u);
  uint64_t sp = 0, d0 = 0;
  uc_reg_read(uc_, UC_ARM64_REG_SP, &sp);
  uc_reg_read(uc_, UC_ARM64_REG_D0, &d0);
  EXPECT_EQ(sp, 0x7010u);
  double sum;
  std::memcpy(&sum, &d0, 8);
  EXPECT_EQ(sum, 3.75);
  EXPECT_EQ(regs.x(kGuestSp), 0x7010u);
  EXPECT_EQ(regs.d(0), d0);
  for (int i = 0; i <= 30; i++) {
    const uint64_t v = 1000 + i;
    uc_reg_write(uc_, XRegisterId(i), &v);
    EXPECT_EQ(regs.x(i), v) << "x" << i;
  }
}

// A loop storing across 64 host pages (through uc_mem_map_ptr, as the executor maps them).
TEST_F(UnicornInternalsTest, GuestStoresReachHostMemory) {
  uint64_t pc = 0;
  uc_reg_read(uc_, UC_ARM64_REG_PC, &pc);
  ASSERT_TRUE(UseDirtyTlbEntries(uc_, &AllWritable, nullptr));
  constexpr size_t kBytes = 64 * 4096;
  alignas(4096) static uint8_t host[kBytes];
  std::memset(host, 0, sizeof host);
  const uint64_t base = reinterpret_cast<uintptr_t>(host);
  ASSERT_EQ(uc_mem_map_ptr(uc_, base, kBytes, UC_PROT_READ | UC_PROT_WRITE, host), UC_ERR_OK);
  // x2 = base, x3 = count: loop { str x3, [x2], #64; subs x3, x3, #1; b.ne loop }
  Write(kCode, {0xf8040443, 0xf1000463, 0x54ffffc1, kNop});
  SetReg(UC_ARM64_REG_X2, base);
  SetReg(UC_ARM64_REG_X3, kBytes / 64);
  Run(kCode, kCode + 12);
  for (size_t i = 0; i < kBytes / 64; i++) {
    uint64_t v = 0;
    std::memcpy(&v, host + i * 64, 8);
    ASSERT_EQ(v, kBytes / 64 - i) << "at offset " << i * 64;
  }
}
// 160 pages 512 KiB apart: two entries of a 256-entry TLB, so every load misses. By QEMU's
// own rule the TLB stays at 256 entries (2 in use); steered, it grows to the target.
TEST_F(UnicornInternalsTest, TheTlbGrowsToItsTargetSize) {
  uint64_t pc = 0;
  uc_reg_read(uc_, UC_ARM64_REG_PC, &pc);
  const std::optional<TlbArrays> tlb = FindTlbArrays(FindUnicornCpu(uc_));
  ASSERT_TRUE(tlb.has_value()) << "the TLB arrays were not found";
  for (int i = 0; i < 12; i++) ASSERT_EQ(TlbEntries(*tlb, i), 256u) << "mmu index " << i;
  ASSERT_TRUE(UseDirtyTlbEntries(uc_, &AllWritable, nullptr));
  constexpr uint64_t kData = 0x10000000, kStride = 512 << 10, kPages = 160;
  ASSERT_EQ(uc_mem_map(uc_, kData, kStride * kPages, UC_PROT_READ), UC_ERR_OK);
  // x3 rounds of { x5 = x2; x4 = 160; do { ldr x6, [x5]; x5 += 512 KiB } while (--x4) }
  Write(kCode, {0xaa0203e5, 0xd2801404, 0xf94000a6, 0x914200a5, 0xf1000484, 0x54ffffa1, 0xf1000463,
                0x54ffff21, kNop});
  SetReg(UC_ARM64_REG_X2, kData);
  SetReg(UC_ARM64_REG_X3, 100);
  Run(kCode, kCode + 32);
  uint64_t x5 = 0;
  uc_reg_read(uc_, UC_ARM64_REG_X5, &x5);
  ASSERT_EQ(x5, kData + kStride * kPages) << "the loop did not run to its end";
  size_t largest = 0;
  for (int i = 0; i < 12; i++) largest = std::max(largest, TlbEntries(*tlb, i));
  EXPECT_GE(largest, TlbTargetEntries());
}
#endif

}  // namespace
}  // namespace a64jit::emu
