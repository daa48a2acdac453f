// Lets guest stores to RAM take Unicorn's fast path.
//
// Why: QEMU marks a writable RAM page's TLB entry "not dirty" while the page may hold
// translated code, so that a store there first invalidates that code (notdirty_write), and
// it clears the mark once the page's dirty bitmap says so. Unicorn 2.0.1 stubs the bitmap
// (cpu_physical_memory_is_clean is always true), so the mark never goes: every guest store
// takes the slow path, which builds and frees a page-collection tree (malloc, free, a lock).
// Measured with perf on Richards under a64jit-run (2026-11-22): about 30% of the run.
//
// The executor never lets the guest write code: code arenas are mapped read and execute,
// host-call trap windows execute only, and code the host changes is dropped from the
// translation cache by the executor (CodeChanged). So the mark buys nothing here.
// UseDirtyTlbEntries wraps the engine's TLB-fill callback (CPUClass::tlb_fill, per engine
// in 2.0.1) so that each entry it fills for a page the guest may write is marked dirty at
// once (tlb_set_dirty, an exported symbol), and stores to it go straight to host memory.
// Only those: Unicorn 2.0.1 checks a region's UC_PROT_WRITE in the same slow path, so a
// read-only page (code, a read-only host mapping) must keep the mark for a store there to
// stay a protection fault.
#ifndef A64JIT_EMULATION_UNICORN_DIRTY_TLB_H_
#define A64JIT_EMULATION_UNICORN_DIRTY_TLB_H_

#include <unicorn/unicorn.h>

#include <cstdint>

namespace a64jit::emu {

// Whether the guest may write the page holding `address` (mapped with UC_PROT_WRITE).
using GuestWritable = bool (*)(void* context, uint64_t address);

// Call once the engine is initialised (after its first register access). Returns false,
// changing nothing, where this Unicorn is not the release whose layout was checked (2.0)
// or a check of the layout fails; the engine then keeps the slow stores (still correct).
// A64JIT_UNICORN_SLOW_STORES=1 keeps them on purpose (for measuring). Throws
// std::invalid_argument on a malformed A64JIT_UNICORN_TLB_ENTRIES (unicorn_tlb_size.h).
// `writable` is asked on the engine's thread, for every TLB entry filled; it must not call
// Unicorn. Engines are per thread: the registration is this thread's.
bool UseDirtyTlbEntries(uc_engine* uc, GuestWritable writable, void* context);

// Before uc_close of an engine that UseDirtyTlbEntries accepted (on the same thread).
void ForgetDirtyTlbEntries(uc_engine* uc);

}  // namespace a64jit::emu

#endif  // A64JIT_EMULATION_UNICORN_DIRTY_TLB_H_
