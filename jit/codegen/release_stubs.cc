#include "jit/codegen/release_stubs.h"

#include <asmjit/arm/a64assembler.h>
#include <asmjit/core.h>

#include <stdexcept>

namespace a64jit::codegen {

namespace {

constexpr int kFrames = kReleaseFrameLast - kReleaseFrameFirst + 1;
constexpr int kObjects = kReleaseObjectLast + 1;
// Seven instructions, a pad and the helper's address: 8-byte aligned where the stubs are.
constexpr uint64_t kStubBytes = 40;

asmjit::a64::Gp X(int n) { return asmjit::a64::x(static_cast<uint32_t>(n)); }

void EmitStub(asmjit::a64::Assembler& a, int object, int frame, uint64_t helper) {
  using asmjit::a64::x30;
  const asmjit::Label literal = a.newLabel();
  if (object != 0) {
    a.mov(X(0), X(object));
  } else {
    a.nop();
  }
  a.mov(X(1), X(frame));                            // frame is never x0 (it is callee-saved)
  a.ldr(asmjit::a64::w(2), asmjit::a64::ptr(x30));  // the data word after the call
  a.mov(X(3), x30);                                 // and its address
  a.ldr(X(16), asmjit::a64::ptr(literal));
  a.blr(X(16));  // returns the continuation
  a.br(X(0));
  a.nop();
  a.bind(literal);
  a.embedUInt64(helper);
}

}  // namespace

std::vector<uint8_t> ReleaseStubs(uint64_t helper) {
  asmjit::CodeHolder code;
  code.init(asmjit::Environment(asmjit::Arch::kAArch64), 0);
  asmjit::a64::Assembler a(&code);
  for (int object = 0; object < kObjects; object++) {
    for (int frame = kReleaseFrameFirst; frame <= kReleaseFrameLast; frame++) {
      EmitStub(a, object, frame, helper);
    }
  }
  if (code.flatten() != asmjit::kErrorOk || code.resolveUnresolvedLinks() != asmjit::kErrorOk) {
    throw std::runtime_error("release stubs: asmjit could not resolve their literals");
  }
  const asmjit::Section* text = code.textSection();
  if (text->bufferSize() != kStubBytes * kObjects * kFrames) {
    throw std::logic_error("release stubs: a stub is not kStubBytes long");
  }
  return std::vector<uint8_t>(text->data(), text->data() + text->bufferSize());
}

std::optional<uint64_t> ReleaseStubAddress(uint64_t base, int object, int frame) {
  if (object < 0 || object >= kObjects || frame < kReleaseFrameFirst || frame > kReleaseFrameLast ||
      object == frame) {
    return std::nullopt;
  }
  const auto index = static_cast<uint64_t>(object * kFrames + (frame - kReleaseFrameFirst));
  return base + index * kStubBytes;
}

std::optional<uint32_t> ReleaseDataWord(int64_t unit, int64_t continuation_words) {
  if (unit < -1 || unit >= kReleaseNoUnit) return std::nullopt;
  if (continuation_words < INT16_MIN || continuation_words > INT16_MAX) return std::nullopt;
  const uint32_t low = unit < 0 ? kReleaseNoUnit : static_cast<uint32_t>(unit);
  return low | static_cast<uint32_t>(static_cast<uint16_t>(continuation_words)) << 16;
}

}  // namespace a64jit::codegen
