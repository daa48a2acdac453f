// Marks the TLB entries a Unicorn 2.0 engine fills for writable pages as dirty (see
// unicorn_dirty_tlb.h).
//
// The layout facts used besides unicorn_layout.cc's, from Unicorn 2.0.1's sources
// (qemu/include/hw/core/cpu.h, qemu/target/arm/cpu64.c), each checked against values before
// anything is written:
// - in the CPU, the first word equal to the engine's address is CPUState::uc, directly
//   followed by CPUState::cc, a pointer to the CPUClass embedded in the same ARMCPU;
// - that CPUClass holds tlb_fill (the exported arm_cpu_tlb_fill_aarch64) among its first
//   words.
#include "emulation/unicorn_dirty_tlb.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <optional>

#include "emulation/unicorn_layout.h"
#include "emulation/unicorn_tlb_size.h"

namespace a64jit::emu {
namespace {

using TlbFill = bool (*)(void* cpu, uint64_t address, int size, int access_type, int mmu_idx,
                         bool probe, uintptr_t retaddr);
using TlbSetDirty = void (*)(void* cpu, uint64_t vaddr);
using TlbFlush = void (*)(void* cpu);

constexpr size_t kCpuStateScanBytes = 64 << 10;  // CPUState is about 33 KB in 2.0.1
constexpr size_t kClassScanWords = 32;           // CPUClass::tlb_fill is its tenth word

struct Symbols {
  TlbFill tlb_fill = reinterpret_cast<TlbFill>(dlsym(RTLD_DEFAULT, "arm_cpu_tlb_fill_aarch64"));
  TlbSetDirty set_dirty =
      reinterpret_cast<TlbSetDirty>(dlsym(RTLD_DEFAULT, "tlb_set_dirty_aarch64"));
  TlbFlush flush = reinterpret_cast<TlbFlush>(dlsym(RTLD_DEFAULT, "tlb_flush_aarch64"));
  bool complete() const { return tlb_fill && set_dirty; }
};

// Fills between two flushes that let QEMU resize the TLB (see TlbFillDirty); fewer while
// the TLB is still growing to its target size.
constexpr uint64_t kFillsPerResize = uint64_t{1} << 16;
constexpr uint64_t kFillsPerGrowth = uint64_t{1} << 10;

const Symbols& Unicorn() {
  static const Symbols symbols;
  return symbols;
}

// This thread's engines that use dirty entries: their CPU, and whom to ask.
struct Registration {
  void* cpu;
  uc_engine* uc;
  GuestWritable writable;
  void* context;
  bool resize;                   // flush now and then so that the TLB can grow (TlbFillDirty)
  std::optional<TlbArrays> tlb;  // where its size can be steered (unicorn_tlb_size.h)
  size_t target = 0;             // the size to steer it to (TlbTargetEntries)
  uint64_t fills = 0;            // since the last flush
  uint64_t fills_per_flush = 0;  // FillsPerFlush
};

// Fills until the next flush: fewer while the TLB of `mmu_idx` is below its target.
uint64_t FillsPerFlush(const Registration& r, int mmu_idx) {
  const bool growing = r.tlb && TlbEntries(*r.tlb, mmu_idx) < r.target;
  return growing ? kFillsPerGrowth : kFillsPerResize;
}

// Plain arrays, which a thread's exit does not destroy: engines are closed by another
// thread_local's destructor, which may run after this one's would have.
constexpr size_t kMaxEnginesPerThread = 16;
thread_local Registration t_registrations[kMaxEnginesPerThread];
thread_local size_t t_registered = 0;

// Fills the entry as Unicorn would, then clears its not-dirty mark if the guest may write
// the page. tlb_set_dirty only touches entries whose write address is this page's with
// exactly that mark.
//
// Every kFillsPerResize fills (kFillsPerGrowth while the TLB is below its target size) it
// first flushes the TLB, after SteerTlbResize. QEMU sizes a TLB only when it is flushed, and
// nothing else flushes ours once a program has settled; by QEMU's rule alone it stays at
// 256 entries, direct-mapped by page number, against Python's heap scattered over tens of
// megabytes. Where the heap lands (ASLR) then decided how many accesses missed, and
// Richards' CPU time under Unicorn varied by a third from one process to the next (see
// unicorn_tlb_size.h for the target). A flush is safe here: callers of tlb_fill look the
// entry up again afterwards, and the flush drops no translated code (only the TB jump
// cache, a lookup cache).
bool TlbFillDirty(void* cpu, uint64_t address, int size, int access_type, int mmu_idx, bool probe,
                  uintptr_t retaddr) {
  Registration* r = nullptr;
  for (size_t i = 0; i < t_registered; i++) {
    if (t_registrations[i].cpu != cpu) continue;
    r = &t_registrations[i];
    break;
  }
  if (r != nullptr && r->resize && ++r->fills >= r->fills_per_flush) {
    r->fills = 0;
    if (r->tlb) SteerTlbResize(*r->tlb, mmu_idx, r->target);
    Unicorn().flush(cpu);
    r->fills_per_flush = FillsPerFlush(*r, mmu_idx);
  }
  const bool ok = Unicorn().tlb_fill(cpu, address, size, access_type, mmu_idx, probe, retaddr);
  if (!ok) return false;
  if (r != nullptr && r->writable(r->context, address)) Unicorn().set_dirty(cpu, address);
  return true;
}

// The CPUClass::tlb_fill slot of the engine's CPU `cpu`, or null.
TlbFill* FindTlbFillSlot(uc_engine* uc, void* cpu_pointer) {
  auto* cpu = static_cast<uintptr_t*>(cpu_pointer);
  if (cpu == nullptr || !ReadableHostRange(reinterpret_cast<uint64_t>(cpu), kCpuStateScanBytes)) {
    return nullptr;
  }
  const uintptr_t uc_value = reinterpret_cast<uintptr_t>(uc);
  uintptr_t cc = 0;
  for (size_t i = 0; i + 1 < kCpuStateScanBytes / sizeof(uintptr_t); i++) {
    if (cpu[i] == uc_value) {
      cc = cpu[i + 1];
      break;
    }
  }
  // Embedded in the same ARMCPU allocation, after CPUState.
  const uintptr_t cpu_value = reinterpret_cast<uintptr_t>(cpu);
  if (cc <= cpu_value || cc - cpu_value > (1u << 20) ||
      !ReadableHostRange(cc, kClassScanWords * sizeof(uintptr_t))) {
    return nullptr;
  }
  auto* slots = reinterpret_cast<TlbFill*>(cc);
  TlbFill* found = nullptr;
  for (size_t i = 0; i < kClassScanWords; i++) {
    if (slots[i] != Unicorn().tlb_fill) continue;
    if (found != nullptr) return nullptr;
    found = &slots[i];
  }
  return found;
}

}  // namespace

bool UseDirtyTlbEntries(uc_engine* uc, GuestWritable writable, void* context) {
  if (KnobSet("A64JIT_UNICORN_SLOW_STORES") || !Unicorn().complete()) return false;
  void* cpu = FindUnicornCpu(uc);
  TlbFill* slot = FindTlbFillSlot(uc, cpu);
  if (slot == nullptr) return false;
  ForgetDirtyTlbEntries(uc);
  if (t_registered == kMaxEnginesPerThread) return false;
  const bool resize = Unicorn().flush != nullptr && !KnobSet("A64JIT_UNICORN_FIXED_TLB");
  Registration r{cpu, uc, writable, context, resize};
  if (resize && !KnobSet("A64JIT_UNICORN_QEMU_TLB_SIZE")) r.tlb = FindTlbArrays(cpu);
  r.target = TlbTargetEntries();            // a malformed setting throws here, not inside Unicorn
  r.fills_per_flush = FillsPerFlush(r, 0);  // every index starts at QEMU's 256 entries
  t_registrations[t_registered++] = r;
  *slot = &TlbFillDirty;
  return true;
}

void ForgetDirtyTlbEntries(uc_engine* uc) {
  for (size_t i = 0; i < t_registered; i++) {
    if (t_registrations[i].uc != uc) continue;
    t_registrations[i] = t_registrations[--t_registered];
    return;
  }
}

}  // namespace a64jit::emu
