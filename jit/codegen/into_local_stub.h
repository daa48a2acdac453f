// The into-local stub: the generic path of a fused float store (lowering's GenericIntoLocal)
// in three words instead of seven (issue 16's "shared deopt stubs and decref/dealloc paths
// out of line", for the one cold block a line of float arithmetic still had).
//
// Lowering ends that cold block with
//
//   %s:i64 = binop_into_local @a64_binary_op_into_local(%a, %b, how, unit)
//   br.i64 eq %s, 0, bbFail, bbJoin
//
// which, as written, is the two argument moves, two movz, the `bl`, a `cbnz` back to the join
// and the failure's exit. With CompileOptions::into_local_stub set, code generation makes the
// call
//
//   bl    into_local_stub
//   .word how (re-packed, with the registers of %a and %b)
//   .word unit | continuation << 16
//
// and, when the branch's failure block comes next and its join is already placed and in reach,
// the continuation (the signed distance in words from the first word to the join) stands for
// the branch as well. A continuation of 0 means none: the stub then comes back after the two
// words with the helper's status in x0, and the branch is emitted as written.
//
// There is one stub for all registers and all functions. It stores x0-x28 on the stack and
// passes them and the words' address to a64_binary_op_by_stub (jit/runtime/helpers.h), which
// reads the operands from the stored registers, runs a64_binary_op_into_local and returns
// where to go on: the continuation (or the address after the words) on success, 0 on
// failure. The stub branches there, or returns after the words on failure, where the failure
// block follows. The stub is a call as far as the code around it knows: it clobbers what a
// call clobbers and keeps x19-x28.
#ifndef A64JIT_JIT_CODEGEN_INTO_LOCAL_STUB_H_
#define A64JIT_JIT_CODEGEN_INTO_LOCAL_STUB_H_

#include <cstdint>
#include <optional>
#include <vector>

namespace a64jit::codegen {

// The stub's bytes, for a helper at `helper`: position independent; give their start to
// CompileOptions::into_local_stub.
std::vector<uint8_t> IntoLocalStub(uint64_t helper);

// What the two data words say.
struct IntoLocalSite {
  int a = 0, b = 0;          // the operands' registers (x0-x28)
  int64_t how = 0;           // a64_binary_op_into_local's `how`
  int64_t unit = 0;          // and its `store_unit`
  int64_t continuation = 0;  // words from the first data word to the join; 0: none
};

// The two words for `site`, or nullopt when a field does not fit: registers above x28, a
// `how` whose operation is above 31 or whose local is above 8191, a unit outside 0-65534, a
// continuation beyond 16 signed bits.
std::optional<std::pair<uint32_t, uint32_t>> IntoLocalDataWords(const IntoLocalSite& site);

// The words' meaning, for the helper.
IntoLocalSite DecodeIntoLocalWords(uint32_t first, uint32_t second);
// The same, read from the words at `at` (the address the stub passes).
inline IntoLocalSite IntoLocalSiteAt(uint64_t at) {
  const auto* words = reinterpret_cast<const uint32_t*>(at);
  return DecodeIntoLocalWords(words[0], words[1]);
}

// Where the code goes on after a success, for words at `at`: the continuation, or past them.
inline uint64_t IntoLocalContinuation(const IntoLocalSite& site, uint64_t at) {
  return site.continuation != 0 ? at + 4 * static_cast<uint64_t>(site.continuation) : at + 8;
}

}  // namespace a64jit::codegen

#endif  // A64JIT_JIT_CODEGEN_INTO_LOCAL_STUB_H_
