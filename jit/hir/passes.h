// HIR passes, run in this order by RunPasses:
//
// Simplify: drops the unbound-local check of locals definitely assigned on every path
//   (arguments, and locals stored on all paths before the load); turns IsTrue of a bool the
//   function made itself (IS_OP, CONTAINS_OP, UNARY_NOT feeding a conditional jump) into a
//   branch on the underlying C condition.
// EliminateDeadCode: removes instructions without side effects whose results are unused.
// InsertRefcounts: makes reference counting explicit. Every instruction says what it does
//   with its operands (borrows or steals) and what its result is (a new reference, a
//   borrowed one that stays valid: constants, True/False; or a borrowed one that may not:
//   locals, COPY). A new reference is released after its last use unless something stole
//   it; a borrowed one that is stolen or may go stale gets its own reference. Values that
//   deopt hands to the interpreter are marked, so the frame receives owned references. A
//   local's value or a constant that a Call or a BuildString takes is lent (Instr::borrowed),
//   not given a reference.
//   A new reference that a LoadMethod reads last is given to it (Instr::given_self): no decref
//   after it.
// LendSelves: a local's object that LoadMethod gives a known inline method call as self
//   (`s.startswith(p)`, `out.append(x)`) is lent too (Instr::lent_self; lend_selves.cc).
// RunFusions: the fusion passes (fusions.h), which mark instructions lowering makes as one.
#ifndef A64JIT_JIT_HIR_PASSES_H_
#define A64JIT_JIT_HIR_PASSES_H_

#include "jit/decisions.h"
#include "jit/hir/hir.h"

namespace a64jit::hir {

// Each rewrite of Simplify and EliminateDeadCode is an optional decision (jit/decisions.h);
// `d` null takes them all. InsertRefcounts is not optional, but its lending to calls is.
void Simplify(Function& f, Decisions* d = nullptr);
void EliminateDeadCode(Function& f, Decisions* d = nullptr);
void InsertRefcounts(Function& f, Decisions* d = nullptr);
void LendSelves(Function& f, Decisions* d = nullptr);
void RunFusions(Function& f, Decisions* d = nullptr);  // fusions.h, in its order
void RunPasses(Function& f, Decisions* d = nullptr);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_PASSES_H_
