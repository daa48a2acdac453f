// Int temporaries that need no box: a BINARY_OP result whose small-int form lowering emits,
// used by exactly one later operation of its block that has a small-int form too (another
// BINARY_OP, a comparison, or a truth test: `if x & 1:`), then released. `x * x + y * y <= r * r`
// makes three such temporaries; boxed, each costs an allocation and a free (a64_box_int,
// a64_dealloc and the runtime's int free list: about 60 aarch64 instructions), more than
// the arithmetic itself.
//
// Lowering keeps such a temporary as two values: the object (NULL while unboxed) and, when
// the object is NULL, its value as a C integer. The consumer's small-int form reads the value
// without type or size checks; any other path of the consumer boxes it first. Frame states
// that hold the temporary between its producer and consumer may see NULL, so every one of
// them must be an error exit (the interpreter and the runtime release a failed frame's stack
// with Py_XDECREF) that no handler keeps the value through: a state that resumes the
// interpreter, or would keep it below a handler's depth, rules the temporary out.
#ifndef A64JIT_JIT_LOWER_UNBOXED_INTS_H_
#define A64JIT_JIT_LOWER_UNBOXED_INTS_H_

#include <functional>
#include <set>

#include "jit/hir/hir.h"

namespace a64jit::lower {

// `has_int_form(in)`: lowering emits a small-int form for `in` (a kBinaryOp, kCompareBool
// or kIsTrue). Returns the HIR registers that can stay unboxed.
std::set<int> UnboxedIntTemporaries(const hir::Function& f,
                                    const std::function<bool(const hir::Instr&)>& has_int_form);

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_UNBOXED_INTS_H_
