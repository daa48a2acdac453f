// Release stubs: the out-of-line half of a decref whose count reached 0 (issue 16's "decref
// and dealloc paths out of line").
//
// Lowering ends each decref's cold block with `release_at @a64_dealloc_at(%obj, %frame, unit)` and
// a jump back (unit: the code unit prev_instr must name if deallocation runs code, or -1).
// Written as a call, that block is five instructions: the three argument moves, the `bl`
// and the branch back. With CompileOptions::release_stubs set, code generation makes it two
// words instead:
//
//   bl   release_stub(obj register, frame register)
//   .word unit | continuation << 16
//
// `unit` is 16 bits (0xffff: none) and `continuation` the signed distance, in words, from the
// data word to where execution goes on (1: the instruction after it; the block's jump back
// when it is in reach, and then that jump is not emitted). The stub, one for each pair of
// registers and shared by every function, passes the object, the frame, the data word and
// its address to a64_release_by_stub (jit/runtime/helpers.h), which deallocates and returns
// the continuation's address; the stub branches there.
//
// The stubs are position independent (the helper through a literal) and laid out at a fixed
// stride, so that code generation finds one by arithmetic, without a lookup per site.
#ifndef A64JIT_JIT_CODEGEN_RELEASE_STUBS_H_
#define A64JIT_JIT_CODEGEN_RELEASE_STUBS_H_

#include <cstdint>
#include <optional>
#include <vector>

namespace a64jit::codegen {

// The object may be in any of x0-x28; the frame, which lives across calls, in a callee-saved
// register (x19-x28). Other pairs are called the ordinary way.
inline constexpr int kReleaseFrameFirst = 19, kReleaseFrameLast = 28;
inline constexpr int kReleaseObjectLast = 28;

// The data word's unit when prev_instr is already right.
inline constexpr uint32_t kReleaseNoUnit = 0xffff;

// All the stubs, for a helper at `helper`: place the bytes anywhere (they are position
// independent) and give their start to CompileOptions::release_stubs.
std::vector<uint8_t> ReleaseStubs(uint64_t helper);

// The stub for the object in x`object` and the frame in x`frame`, in stubs placed at `base`;
// nullopt for a pair without one.
std::optional<uint64_t> ReleaseStubAddress(uint64_t base, int object, int frame);

// The data word after a stub's call: nullopt when `unit` (-1: none) or the distance does not
// fit.
std::optional<uint32_t> ReleaseDataWord(int64_t unit, int64_t continuation_words);

// What a data word says, for the helper: the unit (-1: none), and where to go on from the
// word at `at`.
inline int64_t ReleaseUnit(uint64_t word) {
  const uint32_t unit = word & 0xffff;
  return unit == kReleaseNoUnit ? -1 : int64_t{unit};
}
inline uint64_t ReleaseContinuation(uint64_t word, uint64_t at) {
  return at + 4 * static_cast<int64_t>(static_cast<int16_t>((word >> 16) & 0xffff));
}

}  // namespace a64jit::codegen

#endif  // A64JIT_JIT_CODEGEN_RELEASE_STUBS_H_
