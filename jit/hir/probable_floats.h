// Values that are probably floats: a guess for sites without type feedback (a function
// compiled at its first call, before 3.11 quickened it). Float constants, the results of
// + - * / with such an operand, and locals every stored value of which is one (`s = 0.0`,
// then `s += math.sqrt(x)` in a loop). Lowering gives a BINARY_OP or comparison with such an
// operand no small-int form, which could only fail for it: smaller code, and the float form
// first. A wrong guess costs speed, never correctness: the float form keeps its type guards
// and the generic path stays behind it.
#ifndef A64JIT_JIT_HIR_PROBABLE_FLOATS_H_
#define A64JIT_JIT_HIR_PROBABLE_FLOATS_H_

#include <cstdint>
#include <functional>
#include <set>

#include "jit/hir/hir.h"

namespace a64jit::hir {

// `is_float_const(i)`: co_consts item i is an exact float. `has_float_form(nb)`: a BINARY_OP
// of NB_* code nb on two floats gives a float inline (+ - * /, in place or not). Returns the
// HIR registers (each with one definition) that are probably floats.
std::set<int> ProbableFloats(const Function& f, const std::function<bool(int64_t)>& is_float_const,
                             const std::function<bool(int64_t)>& has_float_form);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_PROBABLE_FLOATS_H_
