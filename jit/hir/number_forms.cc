#include "jit/hir/number_forms.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "jit/hir/probable_floats.h"
#include "jit/hir/unboxed_temporaries.h"

namespace a64jit::hir {

namespace {

class FormChooser {
 public:
  FormChooser(const Function& f, const NumberFacts& facts) : f_(f), facts_(facts) {
    const std::vector<int> defs = f.DefinitionCounts();
    const_index_.assign(f.reg_types.size(), -1);
    for (const Block& b : f.blocks) {
      for (const Instr& in : b.instrs) {
        const bool once = in.dst >= 0 && defs[static_cast<size_t>(in.dst)] == 1;
        if (in.op == Op::kLoadConst && once) const_index_[static_cast<size_t>(in.dst)] = in.imm;
      }
    }
    probable_floats_ = ProbableFloats(
        f, [this](int64_t i) { return facts_.const_kind(i) == ConstKind::kFloat; },
        facts.float_arithmetic);
  }

  uint8_t FormsOf(const Instr& in) const {
    return static_cast<uint8_t>((HasIntForm(in) ? kIntForm : 0) |
                                (HasFloatForm(in) ? kFloatForm : 0));
  }

 private:
  std::optional<int64_t> ConstIndex(int reg) const {
    const int64_t i = reg >= 0 ? const_index_[static_cast<size_t>(reg)] : -1;
    return i >= 0 ? std::optional(i) : std::nullopt;
  }
  ConstKind ConstKindOf(int reg) const {
    const std::optional<int64_t> i = ConstIndex(reg);
    return i ? facts_.const_kind(*i) : ConstKind::kUnknown;
  }
  std::optional<int64_t> SmallIntConst(int reg) const {
    const std::optional<int64_t> i = ConstIndex(reg);
    return i ? facts_.small_int_const(*i) : std::nullopt;
  }
  // `reg` holds a constant of a known type other than `kind`.
  bool KnownNot(int reg, ConstKind kind) const {
    const ConstKind k = ConstKindOf(reg);
    return k != ConstKind::kUnknown && k != kind;
  }
  // Without feedback, an operand guessed to be a float rules the int form out.
  bool GuessedFloat(const Instr& in) const {
    return in.feedback == Feedback::kNone &&
           std::any_of(in.args.begin(), in.args.end(),
                       [this](int a) { return probable_floats_.count(a) != 0; });
  }
  static bool IsCompare(const Instr& in) {
    return in.op == Op::kCompareBool || in.op == Op::kCompareOp;
  }

  // A comparison has the float form only with a reason to expect floats: most compares are
  // of ints, and a second form behind the first would cost every one of them code. An int
  // constant operand rules it out (int op float is mixed, which stock takes generically too).
  bool HasFloatForm(const Instr& in) const {
    const bool compare = IsCompare(in) && (in.feedback == Feedback::kFloat || GuessedFloat(in) ||
                                           ConstKindOf(in.args[0]) == ConstKind::kFloat ||
                                           ConstKindOf(in.args[1]) == ConstKind::kFloat);
    const bool arithmetic = in.op == Op::kBinaryOp && facts_.float_arithmetic(in.imm);
    return (compare || arithmetic) && facts_.floats_inline && !SmallIntConst(in.args[0]) &&
           !SmallIntConst(in.args[1]) && !KnownNot(in.args[0], ConstKind::kFloat) &&
           !KnownNot(in.args[1], ConstKind::kFloat) && Allows(in, Feedback::kFloat);
  }

  bool HasIntForm(const Instr& in) const {
    // Only ops with two operands get as far as reading them.
    if (!IsCompare(in) && in.op != Op::kBinaryOp) return false;
    const bool maybe_ints = !KnownNot(in.args[0], ConstKind::kInt) &&
                            !KnownNot(in.args[1], ConstKind::kInt) && Allows(in, Feedback::kInt) &&
                            !GuessedFloat(in);
    if (IsCompare(in)) return maybe_ints;
    return maybe_ints && facts_.small_int_arithmetic(in.imm, SmallIntConst(in.args[1]));
  }

  const Function& f_;
  const NumberFacts& facts_;
  std::vector<int64_t> const_index_;  // per register: the co_consts item it holds, or -1
  std::set<int> probable_floats_;
};

// Per register, the code unit of its first definition (-1: none): where a temporary's
// decision is taken.
std::vector<int> DefinitionUnits(const Function& f) {
  std::vector<int> units(f.reg_types.size(), -1);
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (in.dst >= 0 && units[static_cast<size_t>(in.dst)] < 0) {
        units[static_cast<size_t>(in.dst)] = in.bc;
      }
    }
  }
  return units;
}

// The temporaries that stay unboxed as `form`, each as lowering's optional decision `kind`.
void MarkUnboxed(Function& f, const std::vector<int>& units, uint8_t form,
                 const std::function<bool(const Instr&)>& has_form, Decision kind, Decisions* d) {
  for (int reg : UnboxedTemporaries(f, has_form)) {
    if (Take(d, kind, units[static_cast<size_t>(reg)])) f.unboxed[static_cast<size_t>(reg)] |= form;
  }
}

}  // namespace

void ChooseNumberForms(Function& f, const NumberFacts& facts, Decisions* d) {
  const FormChooser chooser(f, facts);
  for (Block& b : f.blocks) {
    for (Instr& in : b.instrs) in.forms = chooser.FormsOf(in);
  }
  f.unboxed.assign(f.reg_types.size(), 0);
  const auto int_consumer = [&](const Instr& in) {
    return Unfused(in.op) == Op::kIsTrue ? facts.ints_inline : (in.forms & kIntForm) != 0;
  };
  const std::vector<int> units = DefinitionUnits(f);
  MarkUnboxed(f, units, kIntForm, int_consumer, Decision::kLowerUnboxedInt, d);
  MarkUnboxed(
      f, units, kFloatForm, [](const Instr& in) { return (in.forms & kFloatForm) != 0; },
      Decision::kLowerUnboxedFloat, d);
}

}  // namespace a64jit::hir
