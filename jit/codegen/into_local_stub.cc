#include "jit/codegen/into_local_stub.h"

#include <asmjit/arm/a64assembler.h>
#include <asmjit/core.h>

#include <stdexcept>

namespace a64jit::codegen {

namespace {

constexpr int kSavedRegisters = 29;  // x0-x28: an operand may be in any of them
constexpr int kSaveBytes = 240;      // those and x30, 16-byte aligned
constexpr int kLinkSlot = 232;

// `how`'s fields (a64_binary_op_into_local) and where the first word keeps them.
constexpr int kOpBits = 5, kLocalBits = 13, kRegBits = 5;
constexpr int kReleasesAt = 5, kGapAt = 7, kAAt = 9, kBAt = 14, kLocalAt = 19;

asmjit::a64::Gp X(int n) { return asmjit::a64::x(static_cast<uint32_t>(n)); }

bool FitsUnsigned(int64_t v, int bits) { return v >= 0 && v < (int64_t{1} << bits); }

}  // namespace

std::vector<uint8_t> IntoLocalStub(uint64_t helper) {
  using asmjit::a64::ptr;
  using asmjit::a64::sp;
  using asmjit::a64::x30;
  asmjit::CodeHolder code;
  code.init(asmjit::Environment(asmjit::Arch::kAArch64), 0);
  asmjit::a64::Assembler a(&code);
  const asmjit::Label literal = a.newLabel(), failed = a.newLabel();
  a.sub(sp, sp, kSaveBytes);
  for (int r = 0; r + 1 < kSavedRegisters; r += 2) a.stp(X(r), X(r + 1), ptr(sp, 8 * r));
  a.str(X(kSavedRegisters - 1), ptr(sp, 8 * (kSavedRegisters - 1)));
  a.str(x30, ptr(sp, kLinkSlot));
  a.mov(X(0), sp);   // the registers as the call found them
  a.mov(X(1), x30);  // the data words
  a.ldr(X(16), ptr(literal));
  a.blr(X(16));  // where to go on, or 0
  a.ldr(x30, ptr(sp, kLinkSlot));
  a.add(sp, sp, kSaveBytes);
  a.cbz(X(0), failed);
  a.br(X(0));
  a.bind(failed);
  a.add(x30, x30, 8);  // past the words, to the failure's block; x0 = 0 is the status
  a.ret(x30);
  a.align(asmjit::AlignMode::kCode, 8);
  a.bind(literal);
  a.embedUInt64(helper);
  if (code.flatten() != asmjit::kErrorOk || code.resolveUnresolvedLinks() != asmjit::kErrorOk) {
    throw std::runtime_error("into-local stub: asmjit could not resolve its literal");
  }
  const asmjit::Section* text = code.textSection();
  return std::vector<uint8_t>(text->data(), text->data() + text->bufferSize());
}

std::optional<std::pair<uint32_t, uint32_t>> IntoLocalDataWords(const IntoLocalSite& site) {
  const int64_t op = site.how & 0xff, releases = (site.how >> 8) & 3, gap = (site.how >> 10) & 3;
  const int64_t local = site.how >> 12;
  if (!FitsUnsigned(op, kOpBits) || !FitsUnsigned(local, kLocalBits) || site.a < 0 ||
      site.a >= kSavedRegisters || site.b < 0 || site.b >= kSavedRegisters ||
      !FitsUnsigned(site.unit, 16) || site.unit == 0xffff || site.continuation < INT16_MIN ||
      site.continuation > INT16_MAX) {
    return std::nullopt;
  }
  const auto first =
      static_cast<uint32_t>(op | releases << kReleasesAt | gap << kGapAt | int64_t{site.a} << kAAt |
                            int64_t{site.b} << kBAt | local << kLocalAt);
  const auto second = static_cast<uint32_t>(site.unit) |
                      static_cast<uint32_t>(static_cast<uint16_t>(site.continuation)) << 16;
  return std::make_pair(first, second);
}

IntoLocalSite DecodeIntoLocalWords(uint32_t first, uint32_t second) {
  const auto field = [&](int at, int bits) {
    return static_cast<int64_t>((first >> at) & ((uint32_t{1} << bits) - 1));
  };
  IntoLocalSite site;
  site.a = static_cast<int>(field(kAAt, kRegBits));
  site.b = static_cast<int>(field(kBAt, kRegBits));
  site.how = field(0, kOpBits) | field(kReleasesAt, 2) << 8 | field(kGapAt, 2) << 10 |
             field(kLocalAt, kLocalBits) << 12;
  site.unit = second & 0xffff;
  site.continuation = static_cast<int16_t>(second >> 16);
  return site;
}

}  // namespace a64jit::codegen
