// Facts about Unicorn 2.0's internal layout that the executor's speed-ups rely on, found by
// value and checked before use (see unicorn_layout.cc for the facts themselves).
//
// Unicorn 2.0.1 (Debian bookworm's) has no API for what they do: fast guest stores
// (unicorn_dirty_tlb.h) and register access without a library call per register
// (unicorn_registers.h). Where a check fails, callers keep Unicorn's own, slower path.
#ifndef A64JIT_EMULATION_UNICORN_LAYOUT_H_
#define A64JIT_EMULATION_UNICORN_LAYOUT_H_

#include <unicorn/unicorn.h>

#include <cstddef>
#include <cstdint>

namespace a64jit::emu {

// Whether this Unicorn is the release whose layout was checked (2.0).
bool IsCheckedUnicornRelease();

// The engine's CPU (uc_struct::cpu, an ARMCPU that starts with CPUState), or null where the
// layout check fails. Call once the engine is initialised (after a register access).
void* FindUnicornCpu(uc_engine* uc);

// Whether environment variable `name` is set to exactly "1": the knobs that turn these
// paths off for measuring.
bool KnobSet(const char* name);

// The number environment variable `name` holds, from `least` to `most`, or `otherwise` when
// it is unset or empty. Throws std::invalid_argument, naming the variable and the range, on
// anything else.
size_t KnobNumber(const char* name, size_t least, size_t most, size_t otherwise);

// How many bytes from `address` on lie in one readable region of this process (0 if none).
size_t ReadableBytesFrom(uint64_t address);

inline bool ReadableHostRange(uint64_t address, size_t bytes) {
  return ReadableBytesFrom(address) >= bytes;
}

}  // namespace a64jit::emu

#endif  // A64JIT_EMULATION_UNICORN_LAYOUT_H_
