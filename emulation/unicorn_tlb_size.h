// Keeps the softmmu TLB of a Unicorn 2.0 engine large enough for the JIT's working set.
//
// Why: QEMU's TLB is direct-mapped by page number, starts at 256 entries, and is resized
// only when it is flushed, by a rule that looks at how many entries are in use
// (tlb_mmu_resize_locked: double above 70% use, shrink below 30%). Richards under
// a64jit-run touches a few hundred pages in steady state: about 60% of 256 entries, so the
// rule keeps 256, and the pages that share an entry evict each other. Measured 2026-11-23
// (a fill counter in the TLB-fill callback): about 680,000 TLB fills per Richards iteration,
// almost all loads, over a set of pages that fits in a few hundred entries; the fills and
// what they call were about 14% of the run (perf).
//
// SteerTlbResize makes the rule grow the TLB of the MMU index the guest uses to a target
// size and keeps it from shrinking below it; above the target the rule decides as before.
// It writes the in-use count that the rule reads, right before a flush that applies it.
#ifndef A64JIT_EMULATION_UNICORN_TLB_SIZE_H_
#define A64JIT_EMULATION_UNICORN_TLB_SIZE_H_

#include <cstddef>
#include <cstdint>
#include <optional>

namespace a64jit::emu {

// Where one CPU's TLB descriptors are (CPUTLB's d[] and f[] arrays in 2.0.1).
struct TlbArrays {
  uint8_t* desc = nullptr;  // CPUTLBDesc d[kMmuModes]
  size_t desc_stride = 0;   // sizeof(CPUTLBDesc), as found
  uint8_t* fast = nullptr;  // CPUTLBDescFast f[kMmuModes]: {mask, table}
};

// The engine's CPU (FindUnicornCpu) -> its TLB arrays, found by the values a freshly
// initialised TLB holds and checked; nullopt if this is not that layout. Call before the
// engine's first run.
std::optional<TlbArrays> FindTlbArrays(void* cpu);

// The size SteerTlbResize is given: 4,096 entries, or A64JIT_UNICORN_TLB_ENTRIES (256 to
// 2^20) for measuring; throws std::invalid_argument on a malformed setting. Richards under
// a64jit-run, TLB fills per iteration ((7 - 1 iterations) / 6, 2026-11-23): about 550,000 with
// QEMU's rule alone, 121,000 at 1,024 entries, 11,000 at 4,096, none at 16,384; CPU time per
// iteration the same at 4,096 and 16,384. 4,096 entries take 192 KB per engine (32-byte entries,
// 16-byte I/O entries).
size_t TlbTargetEntries();

// Entries in the TLB of `mmu_idx`.
size_t TlbEntries(const TlbArrays& tlb, int mmu_idx);

// Call right before flushing the TLB: the flush will double the TLB of `mmu_idx` if it is
// smaller than `target` entries, and will not shrink it below `target`.
void SteerTlbResize(const TlbArrays& tlb, int mmu_idx, size_t target);

}  // namespace a64jit::emu

#endif  // A64JIT_EMULATION_UNICORN_TLB_SIZE_H_
