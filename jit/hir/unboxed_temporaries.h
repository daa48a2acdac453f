// Temporaries that need no box: a BINARY_OP result whose inline form of some kind (small
// ints, or floats) lowering emits, used by exactly one later operation of its block that has
// an inline form of the same kind (another BINARY_OP; for ints also a comparison or a truth
// test: `if x & 1:`), then released. `x * x + y * y <= r * r` makes three such temporaries,
// and so does `dx * dx + dy * dy + soft` over floats. Boxed, each costs an allocation and a
// free (a64_box_int or the float free list, then the release: 30 to 60 aarch64 instructions),
// more than the arithmetic itself.
//
// Lowering keeps such a temporary as its object (NULL while unboxed) and, when the object is
// NULL, its value as a C integer or a double. A temporary found for both kinds (a producer
// and a consumer that each have both forms, as every `a * b` has without type feedback) also
// keeps which of the two the value is (a mark in its int). The consumer's inline form reads the
// value without type or size checks; any other path of the consumer boxes it first. Frame states
// that hold the temporary between its producer and consumer may see NULL, so every one of them must
// be an error exit (the interpreter and the runtime release a failed frame's stack with Py_XDECREF)
// that no handler keeps the value through: a state that resumes the interpreter, or would keep it
// below a handler's depth, rules the temporary out.
#ifndef A64JIT_JIT_HIR_UNBOXED_TEMPORARIES_H_
#define A64JIT_JIT_HIR_UNBOXED_TEMPORARIES_H_

#include <functional>
#include <set>

#include "jit/hir/hir.h"

namespace a64jit::hir {

// `has_form(in)`: lowering emits the inline form of the kind asked about for `in` (for
// ints: a kBinaryOp, kCompareBool, kCompareOp or kIsTrue; for floats: a kBinaryOp). Returns
// the HIR registers that can stay unboxed as that kind.
std::set<int> UnboxedTemporaries(const Function& f,
                                 const std::function<bool(const Instr&)>& has_form);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_UNBOXED_TEMPORARIES_H_
