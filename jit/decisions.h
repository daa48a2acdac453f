// The compiler's optional decisions, numbered so that a bisection can find the one that breaks
// a function (as LLVM's -opt-bisect-limit does for its passes).
//
// Every transformation the pipeline could leave out and still compile correct code asks
// Take() first: a HIR pass's rewrite, an inline fast path with a generic fallback, a
// specialisation, a peephole, a whole LIR pass. For one function, decisions are numbered from
// 1 in the order the pipeline (compiler.h) meets them. With a limit L, decisions 1..L are
// taken and the rest declined. The numbering up to L does not depend on L, so the code
// compiled at limits L-1 and L differs by exactly decision L: a test green at L-1 and red at L
// names decision L. difftest/bisect runs that search (A64JIT_OPT_LIMIT, jit/README.md).
//
// Plants are test-only miscompiles (A64JIT_TEST_PLANT): the first taken decision that can
// carry the plant's kind breaks its own code, so the bisector's answer can be checked.
#ifndef A64JIT_JIT_DECISIONS_H_
#define A64JIT_JIT_DECISIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace a64jit {

// Every kind of optional decision, once: Decision::k<Name>, and the name that decision dumps
// and the bisector's reports (difftest/bisect) give it.
// clang-format off
#define A64JIT_DECISION_KINDS(X) \
  X(HirBoundStore, "hir.bound-store") \
  X(HirColdPath, "hir.cold-path") \
  X(HirDeadCode, "hir.dead-code") \
  X(HirFoldBoolBranch, "hir.fold-bool-branch") \
  X(HirFuseCompareTruth, "hir.fuse-compare-truth") \
  X(HirGivenSelf, "hir.given-self") \
  X(HirIsInstanceTuple, "hir.isinstance-tuple") \
  X(HirLentOperand, "hir.lent-operand") \
  X(HirSuperMethod, "hir.super-method") \
  X(HirTupleCompare, "hir.tuple-compare") \
  X(HirUnboundCheck, "hir.unbound-check") \
  X(LirConstantOperand, "lir.constant-operand") \
  X(LirFuseCompareBranch, "lir.fuse-compare-branch") \
  X(LirThreadJumps, "lir.thread-jumps") \
  X(LowerArithmeticInline, "lower.arithmetic-inline") \
  X(LowerAttrHintStub, "lower.attr-hint-stub") \
  X(LowerBinaryObject, "lower.binary-object") \
  X(LowerBuildTupleInline, "lower.build-tuple-inline") \
  X(LowerCFunctionCall, "lower.c-function-call") \
  X(LowerCompareInline, "lower.compare-inline") \
  X(LowerContainsConstTuple, "lower.contains-const-tuple") \
  X(LowerDictSubscript, "lower.dict-subscript") \
  X(LowerFloatBoxInline, "lower.float-box-inline") \
  X(LowerFloatStoreInPlace, "lower.float-store-in-place") \
  X(LowerForIterDictItems, "lower.for-iter-dict-items") \
  X(LowerForIterDictKeys, "lower.for-iter-dict-keys") \
  X(LowerForIterDictValues, "lower.for-iter-dict-values") \
  X(LowerForIterEnumerate, "lower.for-iter-enumerate") \
  X(LowerForIterInline, "lower.for-iter-inline") \
  X(LowerForIterZip, "lower.for-iter-zip") \
  X(LowerGetItemCached, "lower.getitem-cached") \
  X(LowerGuardPair, "lower.guard-pair") \
  X(LowerIntStoreInPlace, "lower.int-store-in-place") \
  X(LowerIsinstanceTest, "lower.isinstance-test") \
  X(LowerKnownCall, "lower.known-call") \
  X(LowerListAppendInline, "lower.list-append-inline") \
  X(LowerListIndexInline, "lower.list-index-inline") \
  X(LowerListStoreInline, "lower.list-store-inline") \
  X(LowerLoadAttrInline, "lower.load-attr-inline") \
  X(LowerLoadGlobalInline, "lower.load-global-inline") \
  X(LowerLoadMethodInline, "lower.load-method-inline") \
  X(LowerMergedCallExit, "lower.merged-call-exit") \
  X(LowerMethodDescriptorCall, "lower.method-descriptor-call") \
  X(LowerModuleAttrOfGlobal, "lower.module-attr-of-global") \
  X(LowerReleaseBoundLocals, "lower.release-bound-locals") \
  X(LowerReleaseStub, "lower.release-stub") \
  X(LowerSiteStub, "lower.site-stub") \
  X(LowerSmallIntBox, "lower.small-int-box") \
  X(LowerStoreAttrInline, "lower.store-attr-inline") \
  X(LowerStrAppendInPlace, "lower.str-append-in-place") \
  X(LowerStrConcat, "lower.str-concat") \
  X(LowerTruthStub, "lower.truth-stub") \
  X(LowerTwoDigitInts, "lower.two-digit-ints") \
  X(LowerUnboxedFloat, "lower.unboxed-float") \
  X(LowerUnboxedInt, "lower.unboxed-int") \
  X(LowerUnpackInline, "lower.unpack-inline")
// clang-format on

enum class Decision : uint8_t {
#define A64JIT_DECISION_ENUM(name, text) k##name,
  A64JIT_DECISION_KINDS(A64JIT_DECISION_ENUM)
#undef A64JIT_DECISION_ENUM
};
// "lower.unpack-inline", ...
const char* DecisionName(Decision d);

enum class Plant {
  kNone,
  kFlipBranch,  // hir.fuse-compare-truth: the fused comparison is negated
  kDropDecref,  // lower.list-store-inline: the replaced item is not released
  kCacheIndex,  // lower.load-attr-inline: the slot one past the cached one is read
};

// "flip-branch", "drop-decref" or "cache-index"; throws std::invalid_argument otherwise.
Plant ParsePlant(const std::string& name);
const char* PlantName(Plant p);

class Decisions {
 public:
  struct Record {  // decision number i + 1 is records()[i]
    Decision kind;
    int bc;  // the bytecode offset it concerns, -1 for a whole pass
    bool taken;
  };

  Decisions() = default;  // every decision taken, nothing planted
  Decisions(std::optional<int> limit, Plant plant) : limit_(limit), plant_(plant) {}

  // Numbers a decision of `kind` at bytecode offset `bc`; true when it is within the limit.
  bool Take(Decision kind, int bc);
  // True for the first caller asking for this function's plant, after its decision was taken.
  bool Planted(Plant p);

  const std::vector<Record>& records() const { return records_; }
  int taken() const;
  // One line a decision: number, taken or declined, kind, offset; then the plant, if applied.
  std::string Text() const;

 private:
  std::optional<int> limit_;
  Plant plant_ = Plant::kNone;
  bool plant_applied_ = false;
  int planted_at_ = 0;
  std::vector<Record> records_;
};

// d->Take(kind, bc), or true when there is no Decisions (every decision taken).
inline bool Take(Decisions* d, Decision kind, int bc = -1) {
  return d == nullptr || d->Take(kind, bc);
}
// d->Planted(p), or false when there is no Decisions (nothing planted).
inline bool Planted(Decisions* d, Plant p) { return d != nullptr && d->Planted(p); }

}  // namespace a64jit

#endif  // A64JIT_JIT_DECISIONS_H_
