// AArch64 immediate encodability: which constants fit which instruction forms. The code
// generator asks these before choosing an encoding, so a constant that does not fit is
// legalised (split, materialised, or put in the literal pool) instead of rejected.
#ifndef A64JIT_JIT_CODEGEN_IMMEDIATES_H_
#define A64JIT_JIT_CODEGEN_IMMEDIATES_H_

#include <cstdint>

namespace a64jit::codegen {

// add/sub/cmp/cmn: a 12-bit unsigned immediate, optionally shifted left by 12. (This and
// IsScaledOffset are inline: direct_encoding.h asks them for most instructions emitted.)
inline bool IsAddSubImm(uint64_t v) { return v <= 0xfff || ((v & 0xfff) == 0 && v <= 0xfff000); }
// and/orr/eor/tst: a bitmask immediate (a rotated run of ones, replicated) of `width` bits.
bool IsLogicalImm(uint64_t v, int width);
// Instructions a movz/movn/movk sequence needs for `v` (1-4 for 64 bits, 1-2 for 32).
int MovSequenceLength(uint64_t v, int width);
// ldr/str unsigned scaled offset: 0 <= offset <= 4095 * size, a multiple of size.
inline bool IsScaledOffset(int64_t offset, int size) {
  return offset >= 0 && offset % size == 0 && offset / size <= 4095;
}
// ldur/stur: a signed 9-bit byte offset.
bool IsUnscaledOffset(int64_t offset);

}  // namespace a64jit::codegen

#endif  // A64JIT_JIT_CODEGEN_IMMEDIATES_H_
