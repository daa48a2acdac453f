// The size of a Unicorn engine's translation buffer (TCG's code_gen_buffer).
//
// Why: Unicorn 2.0.1 gives every engine a 1 GiB buffer and zeroes all of it (a memset in
// tcg_region_assign) when the engine starts and on every translation-cache flush. That made
// each engine about 1 GiB resident and each flush cost a 1 GiB memset (measured 2026-11-22
// with perf: 41% of a one-iteration Richards run). The JIT's guest code is small (Richards:
// 110 KB for 34 functions), so a 64 MiB buffer holds its translations many times over; when
// it fills, Unicorn flushes it and translates again, as QEMU does.
#ifndef A64JIT_EMULATION_UNICORN_TB_BUFFER_H_
#define A64JIT_EMULATION_UNICORN_TB_BUFFER_H_

#include <unicorn/unicorn.h>

#include <cstddef>
#include <string>

namespace a64jit::emu {

constexpr size_t kTranslationBufferBytes = size_t{64} << 20;

// Call after uc_open and before anything else uses the engine. Returns false, with the
// reason, when this Unicorn cannot be told (the engine then keeps Unicorn's default).
bool SizeTranslationBuffer(uc_engine* uc, std::string* why_not);

}  // namespace a64jit::emu

#endif  // A64JIT_EMULATION_UNICORN_TB_BUFFER_H_
