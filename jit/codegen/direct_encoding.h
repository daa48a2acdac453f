// The most frequent instruction forms, encoded here instead of through asmjit's generic
// emitter: loads and stores at a scaled offset, register moves, add and sub of an
// immediate or a register, compares, and branches to blocks. They are about half of all
// instructions the JIT emits, and asmjit's validating encoder cost about 300 host instructions
// each, a tenth of compile time (benchmarks/compile_time). Each Encode* returns the instruction
// word, or nothing when the operands do not fit that form; the caller then asks asmjit, which also
// reports operands that fit no form. direct_encoding_test.cc checks every form against
// asmjit's own encoding over registers, widths and offsets.
//
// Registers are asmjit's ids: 0-30, 31 for SP and 63 for the zero register.
#ifndef A64JIT_JIT_CODEGEN_DIRECT_ENCODING_H_
#define A64JIT_JIT_CODEGEN_DIRECT_ENCODING_H_

#include <asmjit/arm/a64assembler.h>

#include <cstdint>
#include <cstring>
#include <optional>

#include "jit/codegen/immediates.h"

namespace a64jit::codegen {

constexpr uint32_t kSpId = 31;
constexpr uint32_t kZrId = 63;

namespace direct_encoding_internal {

// A register number as a general-purpose operand field: 0-30, and 31 for whichever of SP
// and the zero register the field means (`sp_ok`/`zr_ok` say which it may be here).
inline std::optional<uint32_t> Field(uint32_t id, bool sp_ok, bool zr_ok) {
  if (id < 31) return id;
  if ((id == kSpId && sp_ok) || (id == kZrId && zr_ok)) return 31;
  return std::nullopt;
}

}  // namespace direct_encoding_internal

// ldr/str Rt, [Xn, #offset]: `size` 1, 2, 4 or 8 bytes (ldrb/strb, ldrh/strh, w, x);
// 0 <= offset <= 4095 * size and a multiple of size. Rt may be the zero register, Xn SP.
inline std::optional<uint32_t> EncodeLoadStore(bool load, int size, uint32_t rt, uint32_t rn,
                                               int64_t offset) {
  if (size != 1 && size != 2 && size != 4 && size != 8) return std::nullopt;
  if (!IsScaledOffset(offset, size)) return std::nullopt;
  const uint32_t size_bits = static_cast<uint32_t>(__builtin_ctz(static_cast<unsigned>(size)));
  const std::optional<uint32_t> t = direct_encoding_internal::Field(rt, false, true),
                                n = direct_encoding_internal::Field(rn, true, false);
  if (!t || !n) return std::nullopt;
  // LDR/STR (immediate), unsigned offset: size 111 0 01 opc imm12 Rn Rt; opc 01 loads.
  return size_bits << 30 | 0x39000000u | (load ? 1u : 0u) << 22 |
         static_cast<uint32_t>(offset / size) << 10 | *n << 5 | *t;
}

// add/sub Rd, Rn, #imm (imm < 4096, or a multiple of 4096 below 2^24); with `set_flags`
// adds/subs, and cmp is subs with Rd the zero register. Rd and Rn may be SP, except that a
// flag-setting form's Rd is the zero register.
inline std::optional<uint32_t> EncodeAddSubImm(bool sub, bool set_flags, bool wide, uint32_t rd,
                                               uint32_t rn, uint64_t imm) {
  if (!IsAddSubImm(imm)) return std::nullopt;
  const uint32_t shift = imm > 0xfff ? 1 : 0;  // #imm12, lsl #12
  if (shift != 0) imm >>= 12;
  const std::optional<uint32_t> d = direct_encoding_internal::Field(rd, !set_flags, set_flags),
                                n = direct_encoding_internal::Field(rn, true, false);
  if (!d || !n) return std::nullopt;
  // ADD/SUB (immediate): sf op S 100010 sh imm12 Rn Rd.
  return (wide ? 1u : 0u) << 31 | (sub ? 1u : 0u) << 30 | (set_flags ? 1u : 0u) << 29 |
         0x11000000u | shift << 22 | static_cast<uint32_t>(imm) << 10 | *n << 5 | *d;
}

// add/sub Rd, Rn, Rm (shifted-register form, no shift); with `set_flags` adds/subs (cmp:
// Rd the zero register). No operand may be SP.
inline std::optional<uint32_t> EncodeAddSubReg(bool sub, bool set_flags, bool wide, uint32_t rd,
                                               uint32_t rn, uint32_t rm) {
  const std::optional<uint32_t> d = direct_encoding_internal::Field(rd, false, set_flags),
                                n = direct_encoding_internal::Field(rn, false, false),
                                m = direct_encoding_internal::Field(rm, false, false);
  if (!d || !n || !m) return std::nullopt;
  // ADD/SUB (shifted register), LSL #0: sf op S 01011 00 0 Rm imm6=0 Rn Rd.
  return (wide ? 1u : 0u) << 31 | (sub ? 1u : 0u) << 30 | (set_flags ? 1u : 0u) << 29 |
         0x0b000000u | *m << 16 | *n << 5 | *d;
}

// mov Rd, Rm: orr Rd, zr, Rm, or add Rd, Rm, #0 when either is SP.
inline std::optional<uint32_t> EncodeMovReg(bool wide, uint32_t rd, uint32_t rm) {
  if (rd == kSpId || rm == kSpId) return EncodeAddSubImm(false, false, wide, rd, rm, 0);
  const std::optional<uint32_t> d = direct_encoding_internal::Field(rd, false, false),
                                m = direct_encoding_internal::Field(rm, false, false);
  if (!d || !m) return std::nullopt;
  // ORR (shifted register) Rd, ZR, Rm: sf 01 01010 00 0 Rm 000000 11111 Rd.
  return (wide ? 1u : 0u) << 31 | 0x2a0003e0u | *m << 16 | *d;
}

// b, b.cond, cbz and cbnz with a byte displacement from the branch itself: nothing when it
// is not a multiple of 4 or out of reach (+-128 MiB for b, +-1 MiB for the others).
// `cond` is asmjit's condition code (arm::CondCode, kEQ and up).
inline std::optional<uint32_t> EncodeB(int64_t delta) {
  if (delta % 4 != 0 || delta < -(int64_t{1} << 27) || delta >= (int64_t{1} << 27)) {
    return std::nullopt;
  }
  return 0x14000000u | (static_cast<uint32_t>(delta / 4) & 0x03ffffffu);
}
inline bool InImm19Range(int64_t delta) {
  return delta % 4 == 0 && delta >= -(int64_t{1} << 20) && delta < (int64_t{1} << 20);
}
inline std::optional<uint32_t> EncodeBCond(asmjit::arm::CondCode cond, int64_t delta) {
  const uint32_t c = static_cast<uint32_t>(cond);
  if (c < static_cast<uint32_t>(asmjit::arm::CondCode::kEQ) || !InImm19Range(delta)) {
    return std::nullopt;
  }
  // asmjit numbers conditions from 2 (kEQ); the instruction's field from 0 (EQ).
  return 0x54000000u | (static_cast<uint32_t>(delta / 4) & 0x7ffffu) << 5 | (c - 2);
}
inline std::optional<uint32_t> EncodeCbz(bool nonzero, bool wide, uint32_t rt, int64_t delta) {
  if (rt >= 31 || !InImm19Range(delta)) return std::nullopt;
  return (wide ? 1u : 0u) << 31 | 0x34000000u | (nonzero ? 1u : 0u) << 24 |
         (static_cast<uint32_t>(delta / 4) & 0x7ffffu) << 5 | rt;
}
// tbz and tbnz: a branch on bit `bit` (0 to 63) of register `rt`, within +-32 KiB.
inline bool InImm14Range(int64_t delta) {
  return delta % 4 == 0 && delta >= -(int64_t{1} << 15) && delta < (int64_t{1} << 15);
}
inline std::optional<uint32_t> EncodeTbz(bool nonzero, uint32_t bit, uint32_t rt, int64_t delta) {
  if (rt >= 31 || bit >= 64 || !InImm14Range(delta)) return std::nullopt;
  return (bit >> 5) << 31 | 0x36000000u | (nonzero ? 1u : 0u) << 24 | (bit & 31u) << 19 |
         (static_cast<uint32_t>(delta / 4) & 0x3fffu) << 5 | rt;
}
// `word` (one of the branches above) with its displacement replaced by `delta`.
inline std::optional<uint32_t> WithBranchDelta(uint32_t word, int64_t delta) {
  if ((word & 0x7c000000u) == 0x14000000u) {  // b
    const std::optional<uint32_t> b = EncodeB(delta);
    if (!b) return std::nullopt;
    return (word & 0xfc000000u) | (*b & 0x03ffffffu);
  }
  if ((word & 0x7e000000u) == 0x36000000u) {  // tbz, tbnz: imm14 at bit 5
    if (!InImm14Range(delta)) return std::nullopt;
    return (word & ~(0x3fffu << 5)) | (static_cast<uint32_t>(delta / 4) & 0x3fffu) << 5;
  }
  if (!InImm19Range(delta)) return std::nullopt;  // b.cond, cbz, cbnz: imm19 at bit 5
  return (word & ~(0x7ffffu << 5)) | (static_cast<uint32_t>(delta / 4) & 0x7ffffu) << 5;
}

// Appends `word` at the assembler's position, as asmjit's own emitter would.
inline void EmitWord(asmjit::a64::Assembler& a, uint32_t word) {
  if (a.remainingSpace() < sizeof word) {
    a.embed(&word, sizeof word);  // grows the buffer
    return;
  }
  std::memcpy(a._bufferPtr, &word, sizeof word);
  a._bufferPtr += sizeof word;
  // What asmjit's own writer does when it finishes an instruction: the section's size
  // follows the furthest byte written.
  asmjit::CodeBuffer& buffer = a._section->_buffer;
  const size_t end = a.offset();
  if (end > buffer._size) buffer._size = end;
}

}  // namespace a64jit::codegen

#endif  // A64JIT_JIT_CODEGEN_DIRECT_ENCODING_H_
