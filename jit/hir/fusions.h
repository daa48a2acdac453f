// The fusion passes: rewrites, after reference counting, that mark instructions lowering
// makes as one. Each turns one op into its fused form (the last section of ops.h), so what
// was fused shows in the HIR and in its goldens, and lowering keeps no table of it.
// RunPasses runs them last (RunFusions, passes.h), in this order:
//
// MarkStoreTargets (store_targets.cc): a StoreLocal of the value a BinaryOp or the loop's
//   ForIter made just before becomes StoreLocalResult: the op may make its value in the
//   local's old int or float, or do the store itself.
// FuseModuleAttrs (fuse_module_attrs.cc): `module.attr` where the module is a global, as
//   LoadGlobal, LoadAttr (or LoadMethod) and Decref of the module, the LoadGlobal becoming
//   LoadModuleForAttr: the three lowered as one, taking no reference to the module.
// FuseIsInstanceTests (fuse_isinstance_tests.cc): `if isinstance(x, cls):`, as Call,
//   CheckTracing, IsTrue and Decref of the call's result, the IsTrue becoming
//   IsTrueOfIsInstance: where the types answer, no bool is made, tested and released.
// FuseCallChecks (fuse_call_checks.cc): the CheckTracing right after a Call becomes
//   CheckTracingOfCall: the call's NULL-result test and the tracing test in one guard.
// FuseKnownIterators (fuse_known_iterators.cc): the ForIter of `for ... in enumerate(seq)`
//   becomes ForIterOfEnumerate, of `for k, v in d.items()` ForIterOfDictItems, of
//   `for a, b in zip(xs, ys)` ForIterOfZip: an exact enumerate over a list or tuple, an exact
//   dict item iterator, or an exact zip of two list or tuple iterators, steps inline. So does
//   the loop of a comprehension or generator expression over `.0`, as
//   CodeInfo::first_local_iterator hints.
//
// Lowering asks which instruction a fused op pairs with by position (the next ones in its
// block); each fused op is also correct lowered as its plain op (Unfused).
#ifndef A64JIT_JIT_HIR_FUSIONS_H_
#define A64JIT_JIT_HIR_FUSIONS_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "jit/decisions.h"
#include "jit/hir/hir.h"

namespace a64jit::hir {

// How many instructions define each register, and how many times each is read
// (Function::DefinitionCounts and UseCounts). A fusion changes ops only, never what an
// instruction reads or defines, so RunFusions counts once for all of them.
struct RegisterCounts {
  explicit RegisterCounts(const Function& f);
  std::vector<int> defs, reads;
};

// Each fusion is an optional decision (jit/decisions.h) of the kind lowering took for it;
// `d` null takes them all. A store target is not a decision: the op using it decides.
void MarkStoreTargets(Function& f, const RegisterCounts& counts);
void FuseModuleAttrs(Function& f, const RegisterCounts& counts, Decisions* d = nullptr);
void FuseIsInstanceTests(Function& f, const RegisterCounts& counts, Decisions* d = nullptr);
void FuseCallChecks(Function& f, Decisions* d = nullptr);
void FuseKnownIterators(Function& f, const RegisterCounts& counts, Decisions* d = nullptr);

// Where an op's value is stored: the StoreLocalResult, which operand (0 or 1) is the local's
// own value (`n = n + 1`), or -1, and which operands (bit 0 the first, bit 1 the second) the
// Decrefs between the two release, or -1 if they cannot say.
struct StoreTarget {
  const Instr* store;
  int local_operand = -1;
  int release_mask = 0;
};

// The store target of b.instrs[at], a BinaryOp or ForIter, that MarkStoreTargets marked; or
// nothing.
std::optional<StoreTarget> StoreTargetOf(const Function& f, const Block& b, size_t at);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_FUSIONS_H_
