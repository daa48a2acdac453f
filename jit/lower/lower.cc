// The lowering pipeline: the constructor's analyses, Run over the blocks, and LowerInstr's
// table of one rule per HIR op, Rule<Op>, built from hir/ops.h's list. Ops with a Call column
// there share the primary template (one helper call); the others have a specialisation here,
// most of them calling their family's function (one file each, lowerer.h).
#include <stdexcept>

#include "jit/lower/lowerer.h"

namespace a64jit::lower {
namespace internal {

Lowerer::Lowerer(const Function& f, const RuntimeAddresses& rt, const std::string& name,
                 std::vector<DeoptSite>* deopt_sites, Decisions* decisions)
    : f_(f),
      rt_(rt),
      deopt_sites_(deopt_sites),
      decisions_(decisions),
      known_calls_(f),
      borrow_source_(f.reg_types.size(), nullptr),
      null_regs_(f.reg_types.size()),
      float_like_regs_(f.reg_types.size()),
      module_global_regs_(f.reg_types.size()) {
  out_.name = name;
  out_.arena = std::make_shared<std::pmr::monotonic_buffer_resource>(kArenaBytes);
  // Room for what lowering usually makes of f: about 3 LIR blocks and 4 vregs an HIR
  // instruction in compile_time's functions (each grew from nothing by doubling).
  const size_t n = f.InstrCount();
  out_.blocks.reserve(3 * n + 16);
  group_.reserve(3 * n + 16);
  cold_.reserve(3 * n + 16);
  emitted_.reserve(3 * n + 16);
  noted_.reserve(3 * n + 16);
  order_.reserve(3 * n + 16);
  out_.vreg_types.reserve(5 * n + 16);
  // Only registers with one definition (stack registers s_k have several).
  const std::vector<int> defs = f.DefinitionCounts();
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if ((in.op == Op::kLoadLocal || in.op == Op::kLoadConst) && in.dst >= 0) {
        borrow_source_[static_cast<size_t>(in.dst)] = &in;
      }
      if (in.op == Op::kLoadNull && in.dst >= 0) null_regs_.insert(in.dst);
      if (Unfused(in.op) == Op::kLoadGlobal && in.dst >= 0 &&
          hir::GlobalKindOf(f_.code, in.imm) == hir::CodeInfo::kGlobalModule) {
        module_global_regs_.insert(in.dst);
      }
      if (in.op == Op::kBinaryOp && in.dst >= 0 && FloatFormOf(in.imm)) {
        float_like_regs_.insert(in.dst);
      }
    }
  }
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (Unfused(in.op) == Op::kStoreLocal && IsFloatLike(in.args[0]))
        float_like_locals_.insert(in.imm);
    }
  }
  for (size_t reg = 0; reg < defs.size(); reg++) {
    if (defs[reg] == 1) continue;
    borrow_source_[reg] = nullptr;
    null_regs_.erase(static_cast<int>(reg));
    module_global_regs_.erase(static_cast<int>(reg));
  }
  loops_ = hir::FindLoops(f);
  out_.ret = Type::kPtr;
}

lir::Function Lowerer::Run() {
  tstate_ = out_.NewVReg(Type::kPtr);
  frame_ = out_.NewVReg(Type::kPtr);
  out_.params = {tstate_, frame_};
  regs_.reserve(f_.reg_types.size());
  for (ValueType t : f_.reg_types) {
    regs_.push_back(out_.NewVReg(t == ValueType::kCInt ? Type::kI64 : Type::kPtr));
  }
  int scratch = 2;
  for (const Block& b : f_.blocks) {
    for (const Instr& in : b.instrs) {
      scratch = std::max(scratch, static_cast<int>(in.args.size()));
      if (in.op == Op::kUnpackSequence) scratch = std::max(scratch, static_cast<int>(in.imm));
      if (in.op == Op::kUnpackEx) {
        scratch = std::max(scratch, static_cast<int>((in.imm & 0xff) + 1 + (in.imm >> 8)));
      }
    }
  }
  out_.slots.push_back(lir::StackSlot{8 * scratch});

  // LIR block 0: entry; then one LIR block per HIR block (more are appended as needed).
  entry_ = NewBlock();
  for (size_t b = 0; b < f_.blocks.size(); b++) block_of_.push_back(NewBlock());
  cur_ = entry_;
  first_instr_ = Mov(Operand::Imm(static_cast<int64_t>(rt_.first_instr)), Type::kPtr);
  ReserveSiteCaches();
  HoistCFrame();
  // prev_instr is left as the caller made it (before the first instruction): every place
  // that can run other code or leave sets it first (SetPrevInstr), as it must later on
  // anyway. A resumed generator's says where it was suspended (block 0 reads it).
  // A generator's entry is also where it resumes, and so is the entry of a function with
  // loop entries: their call paths clear them (ClearLocals).
  if (!hir::IsGenerator(f_.code.flags) && f_.loop_entries.empty()) ClearLocalsPastParameters();
  Jmp(block_of_[0]);
  for (size_t b = 0; b < f_.blocks.size(); b++) {
    cur_ = block_of_[b];
    group_now_ = static_cast<int>(b) + 1;
    group_[static_cast<size_t>(cur_)] = group_now_;
    block_ = &f_.blocks[b];
    const std::vector<Instr>& instrs = block_->instrs;
    for (size_t i = 0; i < instrs.size(); i++) {
      at_ = i;
      lowering_ = &instrs[i];
      LowerInstr(instrs[i]);
      i += std::exchange(skip_, 0);
      if (rejoin_ && rejoin_->after == &instrs[i]) {  // a fused op's fast path waits there
        Jmp(rejoin_->block);
        cur_ = rejoin_->block;
        rejoin_.reset();
      }
    }
    if (rejoin_ || store_done_ != nullptr) {
      throw std::logic_error("lowering: a fused op's partner was not in its block");
    }
    lowering_ = nullptr;
    block_ = nullptr;
  }
  if (return_block_ >= 0) LowerReturnBlock();
  ResolvePrevInstr(out_, kPrevInstr, noted_blocks_);
  LayOutBlocks(&out_, std::move(cold_), group_, order_);
  return std::move(out_);
}

// The instruction k after `in` in its block, when `in` is the one being lowered; else null.
// A fused op finds its partners so (fusions.h).
const Instr* Lowerer::Following(const Instr& in, size_t k) const {
  if (&in != lowering_ || block_ == nullptr || at_ + k >= block_->instrs.size()) return nullptr;
  return &block_->instrs[at_ + k];
}

// Where the value of `in`, the BinaryOp or ForIter being lowered, is stored, when the fusion
// passes marked it (MarkStoreTargets); else nothing, and the value is made as usual.
std::optional<hir::StoreTarget> Lowerer::StoreTargetOfValue(const Instr& in) const {
  if (&in != lowering_ || block_ == nullptr) return std::nullopt;
  return hir::StoreTargetOf(f_, *block_, at_);
}

// Once `after`, later in this block, is lowered, the block goes on at `block`, where a fused
// op's fast path already jumped.
void Lowerer::RejoinAfter(const Instr* after, int block) {
  if (rejoin_) throw std::logic_error("lowering: two fused fast paths wait at once");
  rejoin_ = Rejoin{after, block};
}

// The rule of an op with a Call column in hir/ops.h: that one helper call. An op without one
// takes a specialisation below; one with neither stops the build here.
template <Op op>
void Lowerer::Rule(const Instr& in) {
  static_assert(CallRuleOf(op).is_call,
                "a HIR op without a Call(...) lowering column in hir/ops.h needs Rule<Op::k...> "
                "in jit/lower/lower.cc");
  LowerByCallRule(in, CallRuleOf(op));
}

template <>
void Lowerer::Rule<Op::kLoadLocal>(const Instr& in) {
  LowerFrameValue(in);
}
template <>
void Lowerer::Rule<Op::kStoreLocal>(const Instr& in) {
  LowerFrameValue(in);
}
template <>
void Lowerer::Rule<Op::kStoreLocalResult>(const Instr& in) {
  LowerFrameValue(in);
}
template <>
void Lowerer::Rule<Op::kLoadConst>(const Instr& in) {
  LowerFrameValue(in);
}
template <>
void Lowerer::Rule<Op::kLoadNull>(const Instr& in) {
  LowerFrameValue(in);
}
template <>
void Lowerer::Rule<Op::kLoadGlobal>(const Instr& in) {
  LowerLoadGlobal(in);
}
template <>
void Lowerer::Rule<Op::kLoadModuleForAttr>(const Instr& in) {
  LowerModuleAttrOfGlobal(in);
}

template <>
void Lowerer::Rule<Op::kLoadAttr>(const Instr& in) {
  LowerLoadAttr(in);
}
template <>
void Lowerer::Rule<Op::kStoreAttr>(const Instr& in) {
  LowerStoreAttr(in);
}
template <>
void Lowerer::Rule<Op::kLoadMethod>(const Instr& in) {
  LowerLoadMethod(in);
}
template <>
void Lowerer::Rule<Op::kLoadMethodSuper>(const Instr& in) {
  LowerLoadMethodSuper(in);
}
template <>
void Lowerer::Rule<Op::kLoadMethodSuperOf>(const Instr& in) {
  LowerLoadMethodSuper(in);
}
template <>
void Lowerer::Rule<Op::kCall>(const Instr& in) {
  LowerCall(in);
}
template <>
void Lowerer::Rule<Op::kBinaryOp>(const Instr& in) {
  LowerObjectProtocol(in);
}
template <>
void Lowerer::Rule<Op::kCompareTupleItems>(const Instr& in) {
  LowerCompareTupleItems(in);
}
template <>
void Lowerer::Rule<Op::kIsInstanceOfItems>(const Instr& in) {
  LowerIsInstanceOfItems(in);
}
template <>
void Lowerer::Rule<Op::kCompareOp>(const Instr& in) {
  LowerObjectProtocol(in);
}
template <>
void Lowerer::Rule<Op::kUnaryOp>(const Instr& in) {
  LowerObjectProtocol(in);
}
template <>
void Lowerer::Rule<Op::kGetItem>(const Instr& in) {
  LowerObjectProtocol(in);
}
template <>
void Lowerer::Rule<Op::kSetItem>(const Instr& in) {
  LowerObjectProtocol(in);
}
template <>
void Lowerer::Rule<Op::kContains>(const Instr& in) {
  LowerContains(in);
}
template <>
void Lowerer::Rule<Op::kBuildList>(const Instr& in) {
  LowerBuild(in);
}
template <>
void Lowerer::Rule<Op::kBuildTuple>(const Instr& in) {
  LowerBuild(in);
}
template <>
void Lowerer::Rule<Op::kBuildMap>(const Instr& in) {
  LowerBuild(in);
}
template <>
void Lowerer::Rule<Op::kBuildConstKeyMap>(const Instr& in) {
  LowerBuild(in);
}
template <>
void Lowerer::Rule<Op::kBuildString>(const Instr& in) {
  LowerBuild(in);
}
template <>
void Lowerer::Rule<Op::kBuildSlice>(const Instr& in) {
  LowerBuild(in);
}
template <>
void Lowerer::Rule<Op::kFormatValue>(const Instr& in) {
  LowerBuild(in);
}
template <>
void Lowerer::Rule<Op::kMakeFunction>(const Instr& in) {
  LowerBuild(in);
}
template <>
void Lowerer::Rule<Op::kListAppend>(const Instr& in) {
  LowerSequence(in);
}
template <>
void Lowerer::Rule<Op::kListExtend>(const Instr& in) {
  LowerSequence(in);
}
template <>
void Lowerer::Rule<Op::kUnpackSequence>(const Instr& in) {
  LowerSequence(in);
}
template <>
void Lowerer::Rule<Op::kScratchLoad>(const Instr& in) {
  LowerSequence(in);
}
template <>
void Lowerer::Rule<Op::kGetIter>(const Instr& in) {
  LowerObjectProtocol(in);
}
template <>
void Lowerer::Rule<Op::kForIter>(const Instr& in) {
  LowerForIter(in);
}
template <>
void Lowerer::Rule<Op::kForIterOfEnumerate>(const Instr& in) {
  LowerForIter(in);
}
template <>
void Lowerer::Rule<Op::kForIterOfDictItems>(const Instr& in) {
  LowerForIter(in);
}
template <>
void Lowerer::Rule<Op::kForIterOfDictKeys>(const Instr& in) {
  LowerForIter(in);
}
template <>
void Lowerer::Rule<Op::kForIterOfDictValues>(const Instr& in) {
  LowerForIter(in);
}
template <>
void Lowerer::Rule<Op::kForIterOfZip>(const Instr& in) {
  LowerForIter(in);
}
template <>
void Lowerer::Rule<Op::kIsTrue>(const Instr& in) {
  LowerIsTrue(in);
}
template <>
void Lowerer::Rule<Op::kIsTrueOfIsInstance>(const Instr& in) {
  LowerIsTrue(in);  // the int InlineIsInstance gave it skips this
}
template <>
void Lowerer::Rule<Op::kCompareBool>(const Instr& in) {
  LowerCompareBool(in);
}
template <>
void Lowerer::Rule<Op::kIsSame>(const Instr& in) {
  LowerIdentity(in);
}
template <>
void Lowerer::Rule<Op::kIsNone>(const Instr& in) {
  LowerIdentity(in);
}
template <>
void Lowerer::Rule<Op::kIsNull>(const Instr& in) {
  LowerIdentity(in);
}
template <>
void Lowerer::Rule<Op::kBoolFromCInt>(const Instr& in) {
  LowerIdentity(in);
}
template <>
void Lowerer::Rule<Op::kMov>(const Instr& in) {
  LowerReference(in);
}
template <>
void Lowerer::Rule<Op::kDup>(const Instr& in) {
  LowerReference(in);
}
template <>
void Lowerer::Rule<Op::kCheckEvalBreaker>(const Instr& in) {
  LowerCheckEvalBreaker(in);
}
template <>
void Lowerer::Rule<Op::kCheckTracing>(const Instr& in) {
  LowerCheckTracing(in);
}
template <>
void Lowerer::Rule<Op::kCheckTracingOfCall>(const Instr& in) {
  LowerCheckTracing(in);  // with the call's result test, when the call left it here
}

template <>
void Lowerer::Rule<Op::kCopyFreeVars>(const Instr& in) {
  LowerCopyFreeVars(in);
}
template <>
void Lowerer::Rule<Op::kLoadDeref>(const Instr& in) {
  LowerCellOrDelete(in);
}
template <>
void Lowerer::Rule<Op::kStoreDeref>(const Instr& in) {
  LowerCellOrDelete(in);
}
template <>
void Lowerer::Rule<Op::kDeleteDeref>(const Instr& in) {
  LowerCellOrDelete(in);
}
template <>
void Lowerer::Rule<Op::kDeleteLocal>(const Instr& in) {
  LowerCellOrDelete(in);
}
template <>
void Lowerer::Rule<Op::kBuildSet>(const Instr& in) {
  LowerBuild(in);
}

template <>
void Lowerer::Rule<Op::kUnpackEx>(const Instr& in) {
  LowerSequence(in);
}

template <>
void Lowerer::Rule<Op::kDeleteGlobal>(const Instr& in) {
  LowerDeleteGlobal(in);
}

template <>
void Lowerer::Rule<Op::kTypeFlags>(const Instr& in) {
  LowerTypeFlags(in);
}

template <>
void Lowerer::Rule<Op::kMatchClass>(const Instr& in) {
  LowerMatchClass(in);
}

template <>
void Lowerer::Rule<Op::kBeforeWith>(const Instr& in) {
  LowerTwoResults(in);
}
template <>
void Lowerer::Rule<Op::kFrameLasti>(const Instr& in) {
  LowerCatch(in);
}
template <>
void Lowerer::Rule<Op::kCatchException>(const Instr& in) {
  LowerCatch(in);
}

template <>
void Lowerer::Rule<Op::kRaise>(const Instr& in) {
  LowerRaise(in);
}
template <>
void Lowerer::Rule<Op::kReraise>(const Instr& in) {
  LowerReraise(in);
}
template <>
void Lowerer::Rule<Op::kResumedAt>(const Instr& in) {
  LowerResume(in);
}
template <>
void Lowerer::Rule<Op::kLoadFrameStack>(const Instr& in) {
  LowerResume(in);
}
template <>
void Lowerer::Rule<Op::kResetStackTop>(const Instr& in) {
  LowerResume(in);
}
template <>
void Lowerer::Rule<Op::kClearLocals>(const Instr&) {
  ClearLocalsPastParameters();
}

template <>
void Lowerer::Rule<Op::kSend>(const Instr& in) {
  LowerTwoResults(in);
}

template <>
void Lowerer::Rule<Op::kMakeGenerator>(const Instr& in) {
  LowerMakeGenerator(in);
}
template <>
void Lowerer::Rule<Op::kIncref>(const Instr& in) {
  LowerReference(in);
}
template <>
void Lowerer::Rule<Op::kDecref>(const Instr& in) {
  LowerReference(in);
}
template <>
void Lowerer::Rule<Op::kXDecref>(const Instr& in) {
  LowerReference(in);
}
template <>
void Lowerer::Rule<Op::kJump>(const Instr& in) {
  LowerTerminator(in);
}
template <>
void Lowerer::Rule<Op::kBranch>(const Instr& in) {
  LowerTerminator(in);
}
template <>
void Lowerer::Rule<Op::kReturn>(const Instr& in) {
  LowerTerminator(in);
}
template <>
void Lowerer::Rule<Op::kDeopt>(const Instr& in) {
  LowerTerminator(in);
}
template <>
void Lowerer::Rule<Op::kColdExit>(const Instr& in) {
  LowerTerminator(in);
}
template <>
void Lowerer::Rule<Op::kYield>(const Instr& in) {
  LowerYield(in);
}
template <>
void Lowerer::Rule<Op::kEnterInterpreter>(const Instr&) {
  LowerEnterInterpreter();
}

void Lowerer::LowerInstr(const Instr& in) {
  if (pending_result_check_ && in.op != Op::kCheckTracingOfCall) {  // CallResultCheck's promise
    throw std::logic_error(
        "lowering: a call's result test left for a CheckTracing that did not come");
  }
  operand_types_ = {};  // what one instruction's int form loaded is for its own float form
  using Rule = void (Lowerer::*)(const Instr&);
  static constexpr Rule kRules[] = {
#define A64JIT_LOWER_RULE(name, ...) &Lowerer::Rule<Op::k##name>,
      A64JIT_HIR_OPS(A64JIT_LOWER_RULE)
#undef A64JIT_LOWER_RULE
  };
  (this->*kRules[static_cast<size_t>(in.op)])(in);
}

}  // namespace internal

lir::Function Lower(const hir::Function& f, const RuntimeAddresses& rt, const std::string& name,
                    std::vector<DeoptSite>* deopt_sites, Decisions* decisions) {
  if (f.unboxed.size() != f.reg_types.size()) {
    throw std::logic_error("lower::Lower(" + name +
                           "): the number forms were not chosen (hir::ChooseNumberForms)");
  }
  internal::Lowerer l(f, rt, name, deopt_sites, decisions);
  return l.Run();
}

}  // namespace a64jit::lower
