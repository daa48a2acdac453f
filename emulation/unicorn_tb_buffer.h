// The size of a Unicorn engine's translation buffer (TCG's code_gen_buffer).
//
// Why: Unicorn 2.0.1 gives every engine a 1 GiB buffer and zeroes all of it (a memset in
// tcg_region_assign) when the engine starts and on every translation-cache flush. That made
// each engine about 1 GiB resident and each flush cost a 1 GiB memset (measured 2026-11-22
// with perf: 41% of a one-iteration Richards run). The JIT's guest code is small, and once
// host calls stopped leaking translations (see MapTrapWindow in unicorn_executor.cc) a few
// MiB are enough for a test module: CPython's test_json under a64jit-run
// --threshold=0 (1,009 functions compiled) flushed 19 times with 64 MiB and 326 times with
// 4 MiB, and passed with both (when the buffer fills, Unicorn flushes it and translates
// again, as QEMU does). Peak resident memory of that run then: 147 MB at 4 MiB, 162 MB at
// 16 MiB, 214 MB at 64 MiB, 1 GiB and more before (each compile then also kept its text). 4 MiB
// is the least the knob allows.
#ifndef A64JIT_EMULATION_UNICORN_TB_BUFFER_H_
#define A64JIT_EMULATION_UNICORN_TB_BUFFER_H_

#include <unicorn/unicorn.h>

#include <cstddef>

namespace a64jit::emu {

// Peak memory of CPython's test_json under a64jit-run --threshold=0, 2026-11-23, two
// interleaved rounds: 86.8-86.8 MB at 4 MiB (29.6-30.0 s), 91.1-92.6 MB at 8 MiB (24.2-25.0 s),
// 100.8-100.9 MB at 16 MiB (22.0-23.0 s), against 47.5 MB stock; the suites' budget is 2x
// stock. 8 MiB became the default once the crash that had kept it out was found: Unicorn
// 2.0.1 zeroed the buffer under its own tables the first time it filled (see
// FlushTranslations in unicorn_executor.cc), which crashed in tb_set_jmp_target when that
// happened early: at 8 MiB in a program that imports subprocess (the crash that 1 and 2 MiB
// buffers showed at start-up).
constexpr size_t kDefaultTranslationBufferMiB = 8;

// kDefaultTranslationBufferMiB, or A64JIT_UNICORN_TB_MIB (4 to 1024) when set: a knob for
// measuring, not for users. Throws std::invalid_argument on a malformed value.
size_t TranslationBufferBytes();

// Call after uc_open and before anything else uses the engine. Returns false when this
// Unicorn cannot be told (the engine then keeps Unicorn's default).
bool SizeTranslationBuffer(uc_engine* uc);

}  // namespace a64jit::emu

#endif  // A64JIT_EMULATION_UNICORN_TB_BUFFER_H_
