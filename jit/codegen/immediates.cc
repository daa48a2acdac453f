#include "jit/codegen/immediates.h"

#include <asmjit/arm/a64utils.h>
#include <asmjit/core.h>

namespace a64jit::codegen {

bool IsLogicalImm(uint64_t v, int width) {
  if (width == 32) v &= 0xffffffffull;
  return asmjit::a64::Utils::isLogicalImm(v, static_cast<uint32_t>(width));
}

int MovSequenceLength(uint64_t v, int width) {
  const int chunks = width / 16;
  int zero = 0, ones = 0;
  for (int i = 0; i < chunks; i++) {
    const uint64_t c = (v >> (16 * i)) & 0xffff;
    zero += c == 0;
    ones += c == 0xffff;
  }
  // movz then movk for every non-zero chunk, or movn then movk for every non-0xffff chunk.
  const int with_movz = zero == chunks ? 1 : chunks - zero;
  const int with_movn = ones == chunks ? 1 : chunks - ones;
  return with_movz < with_movn ? with_movz : with_movn;
}

bool IsUnscaledOffset(int64_t offset) { return offset >= -256 && offset <= 255; }

}  // namespace a64jit::codegen
