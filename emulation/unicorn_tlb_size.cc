// Finds and steers a Unicorn 2.0 CPU's TLB (see unicorn_tlb_size.h).
//
// Layout facts, from Unicorn 2.0.1's qemu/include/exec/cpu-defs.h and cputlb.c, checked by
// value before use:
// - ARMCPU holds CPUState, then CPUNegativeOffsetState, whose CPUTLB is
//   {CPUTLBCommon c; CPUTLBDesc d[12]; CPUTLBDescFast f[12];} (NB_MMU_MODES is 12 for ARM);
// - CPUTLBDesc starts {large_page_addr, large_page_mask, window_begin_ns,
//   window_max_entries, n_used_entries, vindex, vtable[8] (32-byte entries), ...};
// - a freshly initialised TLB (tlb_mmu_init) has large_page_addr and large_page_mask all
//   ones, no entries in use, vindex 0, a victim table of all-ones bytes, and a fast part
//   {mask = 255 << 5, table} for its 256 entries;
// - tlb_mmu_resize_locked reads max(window_max_entries, n_used_entries) against the size;
//   the flush then clears n_used_entries.
#include "emulation/unicorn_tlb_size.h"

#include <algorithm>
#include <vector>

#include "emulation/unicorn_layout.h"

namespace a64jit::emu {
namespace {

constexpr int kMmuModes = 12;
constexpr size_t kScanBytes = 64 << 10;  // CPUState is about 33 KB in 2.0.1
constexpr int kEntryBits = 5;            // 32-byte CPUTLBEntry
constexpr uint64_t kInitialMask = uint64_t{255} << kEntryBits;
constexpr uint64_t kOnes = ~uint64_t{0};

// Word offsets in CPUTLBDesc.
constexpr size_t kWindowMax = 3, kUsed = 4, kVindex = 5, kVtable = 6, kVtableWords = 8 * 4;

bool LooksLikeFreshDesc(const uint64_t* w) {
  if (w[0] != kOnes || w[1] != kOnes || w[kWindowMax] != 0 || w[kUsed] != 0 || w[kVindex] != 0) {
    return false;
  }
  for (size_t i = 0; i < kVtableWords; i++) {
    if (w[kVtable + i] != kOnes) return false;
  }
  return true;
}

uint64_t* DescWords(const TlbArrays& tlb, int mmu_idx) {
  return reinterpret_cast<uint64_t*>(tlb.desc + tlb.desc_stride * mmu_idx);
}

const uint64_t* FastWords(const TlbArrays& tlb, int mmu_idx) {
  return reinterpret_cast<const uint64_t*>(tlb.fast) + 2 * mmu_idx;
}

}  // namespace

size_t TlbTargetEntries() {
  static const size_t target = KnobNumber("A64JIT_UNICORN_TLB_ENTRIES", 256, 1 << 20, 4096);
  return target;
}

std::optional<TlbArrays> FindTlbArrays(void* cpu) {
  if (cpu == nullptr || !IsCheckedUnicornRelease()) return std::nullopt;
  const size_t bytes = ReadableBytesFrom(reinterpret_cast<uint64_t>(cpu));
  const size_t words = std::min(bytes, kScanBytes) / sizeof(uint64_t);
  const auto* w = static_cast<const uint64_t*>(cpu);
  std::vector<size_t> found;
  for (size_t i = 0; i + kVtable + kVtableWords < words; i++) {
    if (LooksLikeFreshDesc(w + i)) found.push_back(i);
  }
  if (found.size() != kMmuModes) return std::nullopt;
  const size_t stride = found[1] - found[0];
  for (int k = 1; k < kMmuModes; k++) {
    if (found[k] - found[k - 1] != stride) return std::nullopt;
  }
  const size_t fast = found[0] + stride * kMmuModes;
  if (fast + 2 * kMmuModes > words) return std::nullopt;
  for (int k = 0; k < kMmuModes; k++) {
    if (w[fast + 2 * k] != kInitialMask || w[fast + 2 * k + 1] == 0) return std::nullopt;
  }
  auto* base = static_cast<uint8_t*>(cpu);
  return TlbArrays{base + found[0] * sizeof(uint64_t), stride * sizeof(uint64_t),
                   base + fast * sizeof(uint64_t)};
}

size_t TlbEntries(const TlbArrays& tlb, int mmu_idx) {
  return (FastWords(tlb, mmu_idx)[0] >> kEntryBits) + 1;
}

void SteerTlbResize(const TlbArrays& tlb, int mmu_idx, size_t target) {
  if (mmu_idx < 0 || mmu_idx >= kMmuModes) return;
  const size_t size = TlbEntries(tlb, mmu_idx);
  uint64_t* desc = DescWords(tlb, mmu_idx);
  if (size < target) {
    desc[kUsed] = size;  // 100% in use: the rule doubles it
  } else if (desc[kWindowMax] < size / 2 && desc[kUsed] < size / 2) {
    desc[kUsed] = size / 2;  // 50%: within the band where the rule keeps the size
  }
}

}  // namespace a64jit::emu
