// FuseKnownIterators (fusions.h): `for ... in enumerate(seq)`, `for k, v in d.items()` and
// `for a, b in zip(xs, ys)`. A ForIter whose iterator is what the GetIter just before it made
// (3.11 compiles a `for` as GET_ITER, FOR_ITER, and every jump back goes to the FOR_ITER with the
// same iterator) of the result of a call of the global `enumerate`, of a method `items` called
// with no argument, or of the global `zip` with two, becomes ForIterOfEnumerate,
// ForIterOfDictItems or ForIterOfZip. The iterator's own register says nothing: a stack register
// takes the iterator of every loop at its depth. The names are only hints: lowering steps an
// exact enumerate over a list or tuple iterator, an exact dict item iterator, or an exact zip of
// two list or tuple iterators inline (iterators.cc), and every other iterator, including what a
// rebound `enumerate` or `zip` or another class's `items` returned, takes the plain ForIter's
// generic step. Only such loops get an inline step: its type test at every FOR_ITER would cost
// the other iterators a compare each step and every loop its code.
//
// A comprehension or generator expression loops over its local 0 (`.0`), the iterator its
// caller made, with no GET_ITER between the LOAD_FAST and the FOR_ITER; nothing stores to
// `.0`. There the hint is what `.0` held when the compile was asked for
// (CodeInfo::first_local_iterator): each comprehension's code has one caller, its enclosing
// code, which makes the same kind of iterator every time unless a name is rebound.
#include <map>
#include <vector>

#include "jit/hir/fusions.h"
#include "jit/hir/known_calls.h"

namespace a64jit::hir {
namespace {

// The instruction defining each register that has exactly one definition (else null).
std::vector<const Instr*> SingleDefinitions(const Function& f, const std::vector<int>& defs) {
  std::vector<const Instr*> def_of(defs.size(), nullptr);
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (in.dst >= 0 && defs.at(static_cast<size_t>(in.dst)) == 1) {
        def_of[static_cast<size_t>(in.dst)] = &in;
      }
    }
  }
  return def_of;
}

// What defined `reg`, past the moves between (each register defined once), or null.
const Instr* Source(const std::vector<const Instr*>& def_of, int reg) {
  for (int hops = 0; reg >= 0 && hops < 16; hops++) {
    const Instr* in = def_of.at(static_cast<size_t>(reg));
    if (in == nullptr || in->op != Op::kMov) return in;
    reg = in->args[0];
  }
  return nullptr;
}

// GET_ITER has no inline cache: its FOR_ITER is the next code unit.
constexpr int kGetIterUnits = 1;

// The calls whose result a loop's iterator may come from, and the `.0` hint of the iterator
// each makes, each with its ForIter and decision.
using LocalIterator = CodeInfo::LocalIterator;
struct KnownIteratorRule {
  const char* name;    // co_names item that loaded the callable
  bool method;         // loaded by LOAD_METHOD (else LOAD_GLOBAL with its NULL)
  int argc;            // CALL's oparg; -1: any
  LocalIterator hint;  // what `.0` holds when a comprehension loops over such a call's result
  Op op;
  Decision decision;
};

constexpr KnownIteratorRule kKnownIteratorRules[] = {
    {"enumerate", false, -1, LocalIterator::kEnumerate, Op::kForIterOfEnumerate,
     Decision::kLowerForIterEnumerate},
    {"items", true, 0, LocalIterator::kDictItems, Op::kForIterOfDictItems,
     Decision::kLowerForIterDictItems},
    {"keys", true, 0, LocalIterator::kDictKeys, Op::kForIterOfDictKeys,
     Decision::kLowerForIterDictKeys},
    {"values", true, 0, LocalIterator::kDictValues, Op::kForIterOfDictValues,
     Decision::kLowerForIterDictValues},
    {"zip", false, 2, LocalIterator::kZip, Op::kForIterOfZip, Decision::kLowerForIterZip},
};

// The rule a ForIter whose GET_ITER is `get_iter` matches, or null.
const KnownIteratorRule* KnownIterator(const KnownCallSites& known,
                                       const std::vector<const Instr*>& def_of,
                                       const Instr& get_iter) {
  const Instr* call = Source(def_of, get_iter.args[0]);
  if (call == nullptr) return nullptr;
  for (const KnownIteratorRule& rule : kKnownIteratorRules) {
    if ((rule.argc < 0 || rule.argc == call->imm) &&
        known.CallsName(*call, rule.name, rule.method)) {
      return &rule;
    }
  }
  return nullptr;
}

// The rule whose iterator the hint names, or null (kNone).
const KnownIteratorRule* RuleForHint(LocalIterator hint) {
  for (const KnownIteratorRule& rule : kKnownIteratorRules) {
    if (rule.hint == hint) return &rule;
  }
  return nullptr;
}

// Whether `in` loads local 0, or moves what a load of it loaded.
bool LoadsFirstLocal(const std::vector<const Instr*>& def_of, const Instr& in) {
  const Instr* source = in.op == Op::kMov ? Source(def_of, in.args[0]) : &in;
  return source != nullptr && source->op == Op::kLoadLocal && source->imm == 0;
}

// The registers some definition of which holds what LoadLocal 0 loaded. A stack register has
// one definition per place that pushes at its depth, and a generator's has more where a resume
// reloads the stack, so none of these needs to be its only one.
std::vector<bool> FirstLocalHolders(const Function& f, const std::vector<const Instr*>& def_of) {
  std::vector<bool> holds(def_of.size(), false);
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (in.dst >= 0 && LoadsFirstLocal(def_of, in)) holds[static_cast<size_t>(in.dst)] = true;
    }
  }
  return holds;
}

// Marks the loop over `.0` (see the top of this file) as the hint says: the ForIter whose
// iterator register may hold what LoadLocal 0 loaded. Only the outermost loop of a
// comprehension iterates such a register: 3.11 pushes `.0` at the bottom of the stack, or just
// above the list, set or dict it builds, and no other loop of the code runs at that depth.
void FuseLocalIterator(Function& f, const std::vector<const Instr*>& def_of, Decisions* d) {
  const KnownIteratorRule* rule = RuleForHint(f.code.first_local_iterator);
  if (rule == nullptr) return;
  const std::vector<bool> holders = FirstLocalHolders(f, def_of);
  for (Block& b : f.blocks) {
    for (Instr& in : b.instrs) {
      if (in.op == Op::kForIter && holders.at(static_cast<size_t>(in.args[0])) &&
          Take(d, rule->decision, in.bc)) {
        in.op = rule->op;
      }
    }
  }
}

}  // namespace

void FuseKnownIterators(Function& f, const RegisterCounts& counts, Decisions* d) {
  const KnownCallSites known(f, counts.defs);
  const std::vector<const Instr*> def_of = SingleDefinitions(f, counts.defs);
  std::map<int, const Instr*> get_iters;  // by code unit
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (in.op == Op::kGetIter) get_iters[in.bc] = &in;
    }
  }
  for (Block& b : f.blocks) {
    for (Instr& in : b.instrs) {
      if (in.op != Op::kForIter) continue;
      auto get_iter = get_iters.find(in.bc - kGetIterUnits);
      if (get_iter == get_iters.end()) continue;
      const KnownIteratorRule* rule = KnownIterator(known, def_of, *get_iter->second);
      if (rule != nullptr && Take(d, rule->decision, in.bc)) in.op = rule->op;
    }
  }
  FuseLocalIterator(f, def_of, d);
}

}  // namespace a64jit::hir
