// ChooseNumberForms: the speculation on ints and floats, written into the HIR. For each
// BinaryOp and comparison it chooses the inline forms lowering emits in front of the generic
// call (Instr::forms), and for each temporary whether it stays unboxed between its producer
// and its one consumer (Function::unboxed). The HIR printer shows both (` inline=int+float`,
// ` unboxed=int`), so the HIR goldens show what was specialised.
//
// The choice, per instruction (lowering emits exactly what is chosen, and keeps the type
// guards and the generic path behind every form):
//   - int form: a BinaryOp with a small-int operation (+ - * & | ^, // and % with a divisor
//     > 0), or a comparison, when neither operand is a constant of another type, the type
//     feedback (3.11's quickened opcode, feedback.h) is none or int, and, without feedback, no
//     operand is probably a float (probable_floats.h);
//   - float form: a BinaryOp + - * /, or a comparison with a reason to expect floats (float
//     feedback, a float constant, an operand probably a float), when neither operand is an
//     int constant or a constant of another type and the feedback is none or float.
// Then the temporaries (unboxed_temporaries.h), each an optional decision of the kind
// lowering took for it (lower.unboxed-int, lower.unboxed-float).
//
// Lowering runs it first (jit/compiler.h LowerToLir), with what the runtime knows of the
// code's constants; it starts from scratch each time, so running it twice changes nothing.
#ifndef A64JIT_JIT_HIR_NUMBER_FORMS_H_
#define A64JIT_JIT_HIR_NUMBER_FORMS_H_

#include <cstdint>
#include <functional>
#include <optional>

#include "jit/decisions.h"
#include "jit/hir/hir.h"

namespace a64jit::hir {

// What a co_consts item's type is known to be. An operand known not to be an int needs no
// small-int path (a str compared, `"%d" % n`), one known to be a float no int path.
// A tuple constant is always an exact tuple (the compiler makes co_consts' tuples).
enum class ConstKind : uint8_t { kUnknown, kInt, kFloat, kStr, kInternedStr, kTuple, kOther };

// What the pass needs from outside the HIR: the constants (co_consts index -> kind, and the
// value of an exact int of at most one digit) and which forms lowering can emit.
struct NumberFacts {
  std::function<ConstKind(int64_t)> const_kind;
  std::function<std::optional<int64_t>(int64_t)> small_int_const;
  // BINARY_OP `nb` (NB_*) has a small-int form; `divisor`: b's small-int constant, if any.
  std::function<bool(int64_t nb, std::optional<int64_t> divisor)> small_int_arithmetic;
  std::function<bool(int64_t nb)> float_arithmetic;  // BINARY_OP `nb` has a float form
  bool ints_inline = false;    // int objects can be tested inline (PyLong_Type is known)
  bool floats_inline = false;  // float objects can be (PyFloat_Type is known)
};

void ChooseNumberForms(Function& f, const NumberFacts& facts, Decisions* d = nullptr);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_NUMBER_FORMS_H_
