// Finds an engine's register arrays by value (see unicorn_registers.h).
#include "emulation/unicorn_registers.h"

#include <algorithm>
#include <optional>

#include "emulation/unicorn_layout.h"

namespace a64jit::emu {
namespace {

constexpr size_t kScanBytes = 256 << 10;  // ARMCPU is about 60 KB in 2.0.1
constexpr int kX = 32;                    // X0-X30 and SP
constexpr int kD = 32;

// Distinct values no pointer or counter in the CPU is likely to hold.
uint64_t XPattern(int i) { return 0x5a17c0de00000000ull + 0x100000001ull * (i + 1); }
uint64_t DPattern(int i) { return 0x7e9b3a5100000000ull + 0x100000003ull * (i + 1); }

bool WriteAll(uc_engine* uc, bool patterns) {
  for (int i = 0; i < kX; i++) {
    const uint64_t v = patterns ? XPattern(i) : 0;
    if (uc_reg_write(uc, XRegisterId(i), &v) != UC_ERR_OK) return false;
  }
  for (int i = 0; i < kD; i++) {
    const uint64_t v = patterns ? DPattern(i) : 0;
    if (uc_reg_write(uc, UC_ARM64_REG_D0 + i, &v) != UC_ERR_OK) return false;
  }
  return true;
}

// The only word index in words[0, n) holding `value`, if exactly one does.
std::optional<size_t> OnlyIndexOf(const uint64_t* words, size_t n, uint64_t value) {
  std::optional<size_t> at;
  for (size_t i = 0; i < n; i++) {
    if (words[i] != value) continue;
    if (at) return std::nullopt;
    at = i;
  }
  return at;
}

// Where the patterns lie in words[0, n): X0's index, D0's index and the stride between
// vector registers, in words.
struct Found {
  size_t x0, d0, d_stride;
};

std::optional<Found> Locate(const uint64_t* words, size_t n) {
  const std::optional<size_t> x0 = OnlyIndexOf(words, n, XPattern(0));
  const std::optional<size_t> d0 = OnlyIndexOf(words, n, DPattern(0));
  const std::optional<size_t> d1 = OnlyIndexOf(words, n, DPattern(1));
  if (!x0 || !d0 || !d1 || *d1 <= *d0 || *x0 + kX >= n) return std::nullopt;  // X0-SP and PC
  const size_t stride = *d1 - *d0;
  if (*d0 + stride * (kD - 1) >= n) return std::nullopt;
  for (int i = 0; i < kX; i++) {
    if (words[*x0 + i] != XPattern(i)) return std::nullopt;
  }
  for (int i = 0; i < kD; i++) {
    if (words[*d0 + stride * i] != DPattern(i)) return std::nullopt;
  }
  return Found{*x0, *d0, stride};
}

}  // namespace

void GuestRegisters::Attach(uc_engine* uc) {
  uc_ = uc;
  x_ = nullptr;
  if (KnobSet("A64JIT_UNICORN_REG_CALLS")) return;
  auto* cpu = static_cast<uint64_t*>(FindUnicornCpu(uc));
  if (cpu == nullptr) return;
  const size_t bytes = std::min(kScanBytes, ReadableBytesFrom(reinterpret_cast<uint64_t>(cpu)));
  if (!WriteAll(uc, true)) return;
  const std::optional<Found> found = Locate(cpu, bytes / sizeof(uint64_t));
  if (!WriteAll(uc, false) || !found) return;
  x_ = cpu + found->x0;
  pc_ = nullptr;
  const uint64_t pc_pattern = 0x3c0ffee000000040ull;
  uint64_t back = 0;
  if (uc_reg_write(uc, UC_ARM64_REG_PC, &pc_pattern) == UC_ERR_OK && x_[kX] == pc_pattern &&
      uc_reg_read(uc, UC_ARM64_REG_PC, &back) == UC_ERR_OK && back == pc_pattern) {
    pc_ = x_ + kX;
  }
  d0_ = reinterpret_cast<uint8_t*>(cpu + found->d0);
  d_stride_ = found->d_stride * sizeof(uint64_t);
}

}  // namespace a64jit::emu
