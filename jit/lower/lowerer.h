// The Lowerer, private to //jit/lower: one HIR function's lowering to LIR (lower.h).
// Its member functions live in one file per family, and a `// ---- file ----` line heads each
// file's declarations here. lower.cc holds the pipeline (the constructor's analyses, Run) and
// the table of one rule per HIR op; emit.cc the layer every family emits through. The few
// emitting functions defined here are the ones nearly every rule calls, kept inline.
#ifndef A64JIT_JIT_HIR_LOWERER_H_
#define A64JIT_JIT_HIR_LOWERER_H_

#define Py_BUILD_CORE 1
#include <Python.h>
#include <cpython/genobject.h>
#include <cpython/longintrepr.h>
#include <internal/pycore_dict.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_moduleobject.h>
#include <opcode.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

#include "jit/hir/fusions.h"
#include "jit/hir/known_calls.h"
#include "jit/hir/loops.h"
#include "jit/hir/number_forms.h"
#include "jit/lir/cfg.h"
#include "jit/lower/block_layout.h"
#include "jit/lower/call_rules.h"
#include "jit/lower/lower.h"
#include "jit/lower/object_layouts.h"
#include "jit/lower/prev_instr.h"
#include "jit/lower/site_stubs.h"
#include "jit/runtime/helpers.h"

namespace a64jit::lower::internal {

using hir::Allows;
using hir::Block;
using hir::Feedback;
using hir::FrameState;
using hir::Function;
using hir::Instr;
using hir::KnownCall;
using hir::KnownCallSites;
using hir::Op;
using hir::Unsupported;
using hir::ValueType;
using lir::Cond;
using lir::Operand;
using lir::Type;
using runtime::AttrCache;
using runtime::AttrEntry;
using runtime::GlobalCache;
using runtime::Helper;
using runtime::MethodCache;
using runtime::MethodEntry;
using runtime::ModuleEntry;
using runtime::SiteCache;

constexpr int64_t kLocalsPlus = offsetof(_PyInterpreterFrame, localsplus);
constexpr int64_t kPrevInstr = offsetof(_PyInterpreterFrame, prev_instr);
constexpr int64_t kStackTop = offsetof(_PyInterpreterFrame, stacktop);
constexpr int64_t kFrameObject = offsetof(_PyInterpreterFrame, frame_obj);
constexpr int64_t kFramePrevious = offsetof(_PyInterpreterFrame, previous);
constexpr int64_t kCurrentFrame = offsetof(_PyCFrame, current_frame);
constexpr int64_t kRecursionRemaining = offsetof(PyThreadState, recursion_remaining);
// A returning frame with at most this many locals clears them without a loop.
constexpr int64_t kUnrolledLocals = 8;
// UNPACK_SEQUENCE of at most this many items copies each inline; up to kUnpackLoopLimit, a
// loop copies them (`x, y, vx, vy, m = body`); longer ones go to a64_unpack_sequence.
constexpr int64_t kInlineUnpackLimit = 4;
constexpr int64_t kUnpackLoopLimit = 16;
constexpr int64_t kThreadCFrame = offsetof(PyThreadState, cframe);
constexpr int64_t kUseTracing = offsetof(_PyCFrame, use_tracing);
static_assert(offsetof(PyObject, ob_refcnt) == 0, "refcount at offset 0");

// BINARY_OP's NB_* codes, in order, and the helper for each.
constexpr Helper kBinaryHelpers[] = {
    Helper::a64_number_add,
    Helper::a64_number_and,
    Helper::a64_number_floor_divide,
    Helper::a64_number_lshift,
    Helper::PyNumber_MatrixMultiply,
    Helper::a64_number_multiply,
    Helper::a64_number_remainder,
    Helper::a64_number_or,
    Helper::a64_power,
    Helper::a64_number_rshift,
    Helper::a64_number_subtract,
    Helper::a64_number_true_divide,
    Helper::a64_number_xor,
    Helper::a64_number_inplace_add,
    Helper::a64_number_inplace_and,
    Helper::a64_number_inplace_floor_divide,
    Helper::a64_number_inplace_lshift,
    Helper::PyNumber_InPlaceMatrixMultiply,
    Helper::a64_number_inplace_multiply,
    Helper::a64_number_inplace_remainder,
    Helper::a64_number_inplace_or,
    Helper::a64_inplace_power,
    Helper::a64_number_inplace_rshift,
    Helper::a64_number_inplace_subtract,
    Helper::a64_number_inplace_true_divide,
    Helper::a64_number_inplace_xor,
};
constexpr int kBinaryCount = sizeof(kBinaryHelpers) / sizeof(kBinaryHelpers[0]);
static_assert(kBinaryCount == NB_INPLACE_XOR + 1, "one helper per NB_* code");
constexpr Helper kUnaryHelpers[] = {Helper::PyNumber_Negative, Helper::PyNumber_Positive,
                                    Helper::PyNumber_Invert};

// A set of HIR registers as a byte each: the constructor fills several for every
// instruction, where a std::set took a node an entry (benchmarks/compile_time).
class RegSet {
 public:
  explicit RegSet(size_t regs) : in_(regs, 0) {}
  void insert(int reg) { in_[static_cast<size_t>(reg)] = 1; }
  void erase(int reg) { in_[static_cast<size_t>(reg)] = 0; }
  size_t count(int reg) const {
    return reg >= 0 && static_cast<size_t>(reg) < in_.size() && in_[static_cast<size_t>(reg)];
  }

 private:
  std::vector<uint8_t> in_;
};

class Lowerer {
 public:
  Lowerer(const Function& f, const RuntimeAddresses& rt, const std::string& name,
          std::vector<DeoptSite>* deopt_sites, Decisions* decisions);
  lir::Function Run();
  // What hir::ChooseNumberForms asks of lowering: the forms below.
  friend hir::NumberFacts a64jit::lower::NumberFactsOf(const RuntimeAddresses& rt);

 private:
  // Where a site's cache is, for a hot path's loads: the room's register and the cache's
  // offset in it (no instruction), or a register holding the address (a literal).
  struct SiteRef {
    int base;
    int64_t disp;
  };
  using ConstKind = RuntimeAddresses::ConstKind;
  // Where a pointer is: items + scale * index + disp (index -1: none). The scale is 8 for a
  // sequence's items and 1 for a byte offset (an attribute's, AttrSlot::At).
  struct ItemAddress {
    int items = -1;
    int index = -1;
    int64_t disp = 0;
    int scale = 8;
  };
  // The inline forms a comparison has: small ints; exact floats (ordered: false with a NaN but
  // for !=); a str constant tested for (in)equality (StrEquality); a str ordered against a
  // one-character one (StrOrderAgainstChar). An operand that is a constant of another type
  // than int rules the small-int form out, one of another type than float the float form.
  struct CompareForms {
    bool ints = false, floats = false, strs = false, str_order = false;
    bool any() const { return ints || floats || strs || str_order; }
  };
  // The cached attribute's place in `obj`'s inline values, for the AttrCache entry of obj's
  // type: the values and the slot's byte offset in them (the accesses' index register). For a
  // `__slots__` member (GuardedSlotMember), the object itself and the member's offset in it.
  struct AttrSlot {
    int values, offset;
    ItemAddress At(int64_t disp) const { return ItemAddress{values, offset, disp, 1}; }
  };
  // A module attribute's two caches (LowerModuleAttrOfGlobal).
  struct SiteRefs {
    SiteRef global;
    SiteCache* global_site;
    SiteCache* attr_site;  // its address made where a path needs it (SiteAddress)
  };

  static constexpr size_t kInstrsPerBlock = 4;
  // The arena's first chunk (it doubles after): the median function's blocks take ~70 KB.
  static constexpr size_t kArenaBytes = 32 * 1024;
  // BUILD_TUPLE of up to this many items: PyTuple_New, then the items' references stored
  // straight into the tuple; a failed allocation goes to the generic path (`slow`), which
  // tries again and, failing, releases the items and reports the error. Each item's spill and
  // a64_build_tuple's loop cost more than the stores.
  static constexpr size_t kInlineTupleMax = 8;
  // An int's ob_size + 1, at most kBiasedSizeMax (unsigned) exactly when |ob_size| <= 1: one
  // test for "at most one digit".
  static constexpr int64_t kBiasedSizeMax = 2;
  static constexpr int64_t kRawFloatMark = INT64_MIN;
  // Constant indexes below this are a displacement that a load's scaled offset encodes
  // (8 * 511 bytes, with room for the tuple header: immediates.h).
  static constexpr int64_t kConstantIndexLimit = 512;
  // Caches farther than this from the room's start (a runtime that placed one elsewhere)
  // take a literal; nearer ones an add of at most two instructions.
  static constexpr int64_t kSiteRoomReach = int64_t{1} << 24;
  // SiteRefOf: a load of a 32-bit field at most this far from a register is one instruction
  // (a scaled 12-bit offset); a cache past it gets an add, not a longer form for each load.
  static constexpr int64_t kLoadReach = 4 * 4095;
  static constexpr int64_t kSiteCacheBytes = sizeof(SiteCache);

  // ---- lower.cc ----
  // One rule per HIR op (lower.cc): the op's Call column in hir/ops.h, or a specialisation.
  template <Op op>
  void Rule(const Instr& in);
  void LowerInstr(const Instr& in);

  // ---- emit.cc ----
  int NewBlock() {
    group_.push_back(group_now_);
    cold_.push_back(0);
    emitted_.push_back(0);
    noted_.push_back(0);
    out_.blocks.emplace_back(out_.arena.get());
    // Most blocks take a few instructions: room for them up front saves the vector's
    // first regrowths, each of which moves every instruction (benchmarks/compile_time).
    out_.blocks.back().instrs.reserve(kInstrsPerBlock);
    return static_cast<int>(out_.blocks.size()) - 1;
  }
  lir::Instr& Emit(lir::Instr&& in) {  // moved once, into its block
    if (!emitted_[static_cast<size_t>(cur_)]) {
      emitted_[static_cast<size_t>(cur_)] = 1;
      order_.push_back(cur_);
    }
    auto& instrs = out_.blocks[static_cast<size_t>(cur_)].instrs;
    // A block past its first few instructions is usually a long one (a fast path): growing
    // fourfold moves each instruction about a third as often as doubling.
    if (instrs.size() == instrs.capacity()) instrs.reserve(4 * instrs.capacity());
    instrs.push_back(std::move(in));
    return instrs.back();
  }
  // The LIR virtual register that holds HIR register `hir_reg`.
  int LirReg(int hir_reg) const { return regs_[static_cast<size_t>(hir_reg)]; }
  static Operand V(int vreg) { return Operand::VReg(vreg); }
  static Operand Imm(uint64_t v) { return Operand::Imm(static_cast<int64_t>(v)); }
  int Mov(Operand a, Type t, int dst = -1) {
    lir::Instr in;
    in.op = lir::Op::kMov;
    in.dst = dst >= 0 ? dst : out_.NewVReg(t);
    in.args = {a};
    return Emit(std::move(in)).dst;
  }
  int Binary(lir::Op op, Operand a, Operand b, Type t, int dst = -1) {
    lir::Instr in;
    in.op = op;
    in.dst = dst >= 0 ? dst : out_.NewVReg(t);
    in.args = {a, b};
    return Emit(std::move(in)).dst;
  }
  int Load(Operand base, int64_t disp, Type t, int dst = -1) {
    lir::Instr in;
    in.op = lir::Op::kLoad;
    in.dst = dst >= 0 ? dst : out_.NewVReg(t);
    in.base = base;
    in.disp = disp;
    return Emit(std::move(in)).dst;
  }
  void Store(Operand value, Operand base, int64_t disp, Type t) {
    lir::Instr in;
    in.op = lir::Op::kStore;
    in.store_type = t;
    in.args = {value};
    in.base = base;
    in.disp = disp;
    Emit(std::move(in));
  }
  lir::Operands InRegisters(lir::Operands args);
  lir::Instr HelperCall(Helper h, lir::Operands args);
  lir::Instr CallByName(const char* callee, lir::Operands args);
  int CallNamed(const char* callee, lir::Operands args, Type t = Type::kPtr);
  int Call(Helper h, lir::Operands args, int dst = -1, Type t = Type::kPtr);
  void CallVoid(Helper h, lir::Operands args) { Emit(HelperCall(h, std::move(args))); }
  int ZExt(Operand v);
  void Ret(Operand value) {
    lir::Instr ret;
    ret.op = lir::Op::kRet;
    ret.args = {value};
    Emit(std::move(ret));
  }
  void Jmp(int target) {
    lir::Instr in;
    in.op = lir::Op::kJmp;
    in.targets[0] = target;
    Emit(std::move(in));
  }
  void Br(Cond c, Operand a, Operand b, int if_true, int if_false, Type t = Type::kI64) {
    Emit(BrInstr(c, t, a, b, if_true, if_false));
  }
  int SplitOn(Cond c, Operand a, Operand b, Type t = Type::kI64);
  void SetPrevInstr(int unit);
  void NotePrevInstr(int unit);
  // A note, or a release_at, for ResolvePrevInstr: its block is one the pass reads.
  void EmitNote(lir::Instr&& in) {
    if (!std::exchange(noted_[static_cast<size_t>(cur_)], 1)) noted_blocks_.push_back(cur_);
    Emit(std::move(in));
  }
  void MakeCallerCurrent(int frame);
  void Incref(Operand obj);
  void Decref(int obj, bool maybe_null, int bc, bool float_like = false);
  // The exit to the interpreter for `in`'s state, taken from the current block's branch.
  int DeoptBlock(const FrameState& state) {
    return OutOfLine([&] { EmitDeopt(state); });
  }
  // A cold block that `fill` emits, made without leaving the current one.
  template <typename Fill>
  int OutOfLine(Fill fill) {
    const int saved = cur_;
    const int b = ColdBlock();
    cur_ = b;
    fill();
    cur_ = saved;
    return b;
  }
  // A detour through a cold block: `enter(cold)` emits the branch to it (the hot path goes
  // on from there), `body` fills it, and both paths join after it. FastOrGeneric's shape,
  // without a decision.
  template <typename Enter, typename Body>
  void ColdDetour(Enter enter, Body body) {
    const int cold = ColdBlock(), join = NewBlock();
    enter(cold);
    Jmp(join);
    cur_ = cold;
    body();
    Jmp(join);
    cur_ = join;
  }
  static bool Raises(const FrameState& st) {
    return st.kind == FrameState::Kind::kError || st.kind == FrameState::Kind::kReraise;
  }
  void EmitDeopt(const FrameState& st, int64_t code_if_top_null = -1);
  uint64_t AddDeoptSite(const FrameState& st, bool emit, int64_t code_if_top_null = -1);
  void EmitCatchEdge(const FrameState& st);
  // if (value cond rhs) leave for the interpreter.
  void DeoptIf(const Instr& in, Cond c, Operand value, Operand rhs, Type t = Type::kI64) {
    DeoptIf(in.state, c, value, rhs, t);
  }
  void DeoptIf(const FrameState& state, Cond c, Operand value, Operand rhs, Type t = Type::kI64);
  void ResumeIfOne(const Instr& in, Operand value);
  int ScratchAddr();
  int Spill(const std::vector<int>& args);
  // How many of the function's HIR instructions have an op `of` accepts.
  template <typename OpTest>
  int CountInstrs(OpTest of) const {
    int count = 0;
    for (const hir::Block& b : f_.blocks) {
      for (const Instr& in : b.instrs) count += of(in.op) ? 1 : 0;
    }
    return count;
  }
  void ReserveSiteCaches();
  SiteRef SiteRefOf(const void* site);
  std::optional<int64_t> RoomOffset(const void* site, int64_t reach) const;
  // The address of `site` for a helper's argument: the register SiteRefOf made, else an add.
  int AddressOf(SiteRef ref, const void* site) {
    return ref.base != site_room_reg_ ? ref.base : SiteAddress(site);
  }
  int LoadSite(SiteRef site, int64_t field, Type t, int dst = -1) {
    return Load(V(site.base), site.disp + field, t, dst);
  }
  int SiteAddress(const void* site, int64_t tag = 0);
  // Whether the site at `bc` calls a site stub (site_stubs.h) instead of its guards inline:
  // outside loops and recursion (InLoop), where its bytes matter more than the stub's call
  // and return.
  bool UseSiteStub(int bc) {
    return rt_.site_stubs != 0 && !InLoop(bc) && Take(decisions_, Decision::kLowerSiteStub, bc);
  }
  bool UseReleaseStub(int bc);
  SiteCache* NewSiteCache(const Instr* site = nullptr);
  static Operand Ptr(const void* p) {
    return Operand::Imm(static_cast<int64_t>(reinterpret_cast<uintptr_t>(p)));
  }
  uint64_t Name(int64_t i) const { return rt_.names.at(static_cast<size_t>(i)); }
  uint64_t Const(int64_t i) const { return rt_.consts.at(static_cast<size_t>(i)); }
  void CallChecked(const Instr& in, Helper h, lir::Operands args);
  void SiteCallChecked(const Instr& in, Helper h, lir::Operands args);
  int SiteCallInt(const Instr& in, Helper h, lir::Operands args, int dst = -1);
  void CallStatus(const Instr& in, Helper h, lir::Operands args);
  int CallInt(const Instr& in, Helper h, lir::Operands args, int dst = -1);
  int CheckInt(const Instr& in, int r, int dst);
  void SExtInt(int r, int dst);
  int Compare(Operand a, Operand b, Cond c = Cond::kEq, int dst = -1, Type t = Type::kI64);
  int Select(Operand c, Operand a, Operand b, Type t, int dst = -1);
  // HIR register `reg` is LoadNull's (null_regs_).
  bool IsNullReg(int reg) const { return null_regs_.count(reg) != 0; }
  bool IsFloatLike(int reg) const { return float_like_regs_.count(reg) != 0; }
  lir::Instr BrInstr(Cond c, Type t, Operand a, Operand b, int if_true, int if_false);
  void SlowIf(Cond c, Type t, Operand a, Operand b, int slow);
  void SlowIfEither(Cond c, Type t, Operand a, Operand b, Cond c2, Operand x, Operand y, int slow,
                    int bc);
  void EmitEither(lir::Instr first, Cond c2, Type t2, Operand x, Operand y, int bc);
  void EmitEitherBranch(lir::Instr first, Cond c2, Type t2, Operand x, Operand y);
  int ColdBlock() {
    const int b = NewBlock();
    cold_[static_cast<size_t>(b)] = 1;
    return b;
  }
  int Truncate(int v, Type t);

  // ---- lower.cc: the pipeline's queries of the HIR ----
  bool InLoop(int bc) const { return loops_.Contains(bc); }  // hir/loops.h
  const Instr* Following(const Instr& in, size_t k) const;
  std::optional<hir::StoreTarget> StoreTargetOfValue(const Instr& in) const;
  void RejoinAfter(const Instr* after, int block);

  // ---- frames.cc ----
  bool BoundAtSomeReturn() const;
  void LowerCatch(const Instr& in);
  void LowerRaise(const Instr& in);
  void LowerReraise(const Instr& in);
  int64_t LocalOffset(int64_t local) const { return kLocalsPlus + 8 * local; }
  int64_t StackOffset(int64_t k) const {
    return kLocalsPlus + 8 * (int64_t{f_.code.nlocalsplus} + k);
  }
  void LowerCellOrDelete(const Instr& in);
  void LowerCopyFreeVars(const Instr& in);
  void LowerByCallRule(const Instr& in, const CallRule& rule);
  void LowerDeleteGlobal(const Instr& in);
  void LowerTypeFlags(const Instr& in);
  void LowerMatchClass(const Instr& in);
  void LowerTwoResults(const Instr& in);
  void ClearLocalsPastParameters();
  void LowerResume(const Instr& in);
  void LowerYield(const Instr& in);
  void LowerMakeGenerator(const Instr& in);
  void LowerCheckEvalBreaker(const Instr& in);
  void LowerCheckTracing(const Instr& in);
  int64_t MergeableErrorExit(const FrameState& error, int value, const FrameState& tracing);
  // Whether stack entry `i` of `st` holds a borrowed reference.
  static bool Borrowed(const FrameState& st, size_t i) {
    return i < st.borrowed.size() && st.borrowed[i];
  }
  static bool StackBeginsWith(const FrameState& longer, const FrameState& shorter);
  int LoadUseTracing();
  void HoistCFrame();
  void LowerEnterInterpreter();
  void LowerFrameValue(const Instr& in);
  void LowerStoreLocal(const Instr& in);
  void LowerIdentity(const Instr& in);
  void LowerReference(const Instr& in);
  void LowerTerminator(const Instr& in);
  std::set<int> ReturnUnits() const;
  void SetReturnPrevInstr();
  void LowerReturnBlock();

  // ---- calls.cc ----
  void LowerCall(const Instr& in);
  void CallGeneric(const Instr& in, runtime::CCallCache* c_call = nullptr);
  void CallWithKeywords(const Instr& in);
  void CallResultCheck(const Instr& in, int dst);
  bool KnownCallInline(KnownCall known) const;
  void LowerKnownCall(const Instr& in, KnownCall known, int slow);
  void ReleaseHeld(Operand obj);
  void ReleaseGivenObject(const Instr& in);
  void ReleaseOperand(const Instr& in, size_t i);
  void ReleaseHeldOperand(const Instr& in, size_t i);
  void OwnLentOperands(const Instr& in);
  void GiveBackLentSelf(const Instr& in);
  // Emits `fill` to run only when LOAD_METHOD's first result `method` is not NULL (the
  // [method, self] shape, not [NULL, attribute]): where a lent self's reference is settled.
  template <typename Fill>
  void OnMethodShape(int method, Fill fill) {
    const int method_shape = NewBlock(), done = NewBlock();
    Br(Cond::kNe, V(method), Operand::Imm(0), method_shape, done);
    cur_ = method_shape;
    fill();
    Jmp(done);
    cur_ = done;
  }
  void InlineLen(const Instr& in, int slow);
  // PyASCIIObject.state's `ready` bit, as a mask of the 32-bit word that holds it.
  static int64_t StrReadyBit() { return StrStateMask(false); }
  // Its `ready`, `compact` and `ascii` bits: the characters are bytes after the header.
  static int64_t StrCompactAsciiBits() { return StrStateMask(true); }
  static int64_t StrStateMask(bool compact_ascii);
  void BoxInt(const Instr& in, int v);
  void ReuseInt(const Instr& in, int v, const Instr& store, int local_operand);
  void SmallInt(int v, int dst);
  void InlineOrd(const Instr& in, int slow);
  void InlineChr(const Instr& in, int slow);
  void RequireAsciiStr(Operand s, int slow);
  void RequireCompactAscii(Operand s, int slow);
  void AsciiChar(int code, int dst);
  void InlineIsInstance(const Instr& in, int slow);
  void InlineConversion(const Instr& in, uint64_t type, int slow);
  void InlineTypeOf(const Instr& in, int slow);
  void InlineListAppend(const Instr& in, int slow);
  void AppendInPlace(Operand list, Operand item, bool incref, int slow);
  void InlineCCall(const Instr& in, runtime::CCallCache* cache, bool method, int slow);
  int CallThrough(int target, lir::Operands args);

  // ---- sequences.cc ----
  void LowerObjectProtocol(const Instr& in);
  [[noreturn]] static void NoRuleIn(const char* family, const Instr& in);
  bool DictSite(const Instr& in);
  bool StrConcatSite(const Instr& in);
  void BuildTupleInline(const Instr& in, int slow);
  void LowerBuild(const Instr& in);
  void LowerListAppend(const Instr& in);
  void LowerSequence(const Instr& in);
  void LowerUnpackSequence(const Instr& in);
  void CopyItemsReversed(int items, int64_t n);
  int SequenceItems(Operand seq, int64_t n, Feedback seen, int slow);
  int FirstItemAddress(Operand seq, bool lists, bool tuples, bool tuple_first, int other);
  void LowerForIter(const Instr& in);
  void NextSequenceItem(Operand iter, int64_t items_at, bool indirect, int dst, int slow);
  void NextRangeValue(const Instr& in, Operand iter, int slow);
  void NextEnumerateValue(const Instr& in, Operand iter, int dst, int slow);
  void NextDictItem(const Instr& in, Operand iter, int dst, int slow);
  void NextDictKeyOrValue(const Instr& in, Operand iter, bool values, int dst, int slow);
  struct DictIterState {
    int dict, left;  // the iterator's di_dict and len
  };
  DictIterState CheckDictIter(const Instr& in, Operand iter, uint64_t type, int slow);
  void CountDictIterStep(Operand iter, const DictIterState& at);
  void NextZipPair(const Instr& in, Operand iter, int dst, int slow);
  int TakeSequenceItem(Operand sit, int items, int at);
  int NextDictEntry(Operand dict, Operand iter, int value, int slow);
  int ReusableResultTuple(Operand iter, int64_t at, int slow);
  void RefillResultTuple(const Instr& in, int result, int first, int second, int dst);
  int SequenceIterItems(Operand sit, int at, int slow);
  int BoxIndex(const Instr& in, int v);
  int LoadItem(const ItemAddress& at, int dst = -1);
  void StoreItem(Operand value, const ItemAddress& at);
  static void AddressOf(const ItemAddress& at, lir::Instr& in);
  ItemAddress ItemSlot(const Instr& in, int slow, int other, bool lists, bool tuples);
  void LowerListStore(const Instr& in);
  void LowerIndex(const Instr& in, bool lists, bool tuples, bool strs);
  void StrCharAt(const Instr& in, int slow);

  // ---- numbers.cc ----
  const Instr* BorrowSource(int reg) const;
  std::optional<size_t> ConstIndex(int reg) const;
  std::optional<int64_t> SmallIntConst(int reg) const;
  ConstKind ConstKindOf(int reg) const;
  bool KnownNot(int reg, ConstKind kind) const;
  int AsciiCharConst(int reg) const;
  bool IsStrConst(int reg) const;
  bool MayOverloadOperator(const Instr& in) const;
  void CallBinaryObject(const Instr& in);
  // Bounds on the values the int forms take: one digit, two digits.
  static constexpr int kOneDigitBits = 30, kTwoDigitBits = 60;
  int SmallIntValue(Operand obj, int slow, int bits = kOneDigitBits);
  bool ReadsTwoDigitObjects(int bits, int bc) {
    return bits > kOneDigitBits && Take(decisions_, Decision::kLowerTwoDigitInts, bc);
  }
  int BiasedSize(int size) { return Binary(lir::Op::kAdd, V(size), Operand::Imm(1), Type::kI64); }
  int OneDigitValue(Operand obj, int size);
  void TwoDigitValue(Operand obj, int size, int slow, int dst, int bits);
  void FixTwoDigitValue(Operand obj, int size, int biased, int slow, int dst, int bits);
  Operand SmallIntOperand(int reg, int slow, int float_form = -1, int bits = kOneDigitBits,
                          int object_bits = kOneDigitBits);
  static int ObjectBits(const Instr& in, int bits);
  int ProductOperandBits(const Instr& in) const;
  std::pair<Operand, Operand> SmallIntOperands(const Instr& in, int slow, int float_form,
                                               int bits = kOneDigitBits);
  int UnboxedSmallInt(int reg, int slow, int float_form, int bits, int object_bits);
  // Unboxed temporary `reg`'s value as a `t`: `raw()` while its object is NULL, `boxed()`
  // otherwise, each given the block it runs in and returning a register; joined into one.
  template <typename Raw, typename Boxed>
  int RawOrBoxed(int reg, Type t, Raw raw, Boxed boxed) {
    const int value = out_.NewVReg(t);
    const int raw_block = NewBlock(), boxed_block = NewBlock(), have = NewBlock();
    Br(Cond::kEq, V(LirReg(reg)), Operand::Imm(0), raw_block, boxed_block);
    cur_ = raw_block;
    Mov(V(raw()), t, value);
    Jmp(have);
    cur_ = boxed_block;
    Mov(V(boxed()), t, value);
    Jmp(have);
    cur_ = have;
    return value;
  }
  // BINARY_OP's operation, the in-place form as the binary one (ints and floats are
  // immutable, so the two agree on them).
  static int64_t BinaryOf(int64_t nb) { return nb >= NB_INPLACE_ADD ? nb - NB_INPLACE_ADD : nb; }
  static bool HasSmallIntForm(int64_t nb, std::optional<int64_t> right);
  static std::optional<lir::Op> SmallIntOp(int64_t nb);
  static std::optional<lir::Op> FloatFormOf(int64_t nb);

  // ---- arithmetic.cc ----
  void FreeFloat(int obj, int done);
  // The free list's addresses are known (they are set together, RuntimeAddresses).
  bool InlineFloatFreeList() const {
    return rt_.float_free_list != 0 && rt_.tracemalloc_tracing != 0;
  }
  void StoreFreeCount(int list, int count, lir::Op op);
  void BoxFloat(const Instr& in, int d);
  void BoxFloatResult(const Instr& in, int d, int generic);
  bool GenericIntoLocal(const Instr& in);
  static bool FusibleStore(const Instr& in, const hir::StoreTarget& target);
  bool StrAppendIntoLocal(const Instr& in);
  void LowerArithmetic(const Instr& in);
  void SmallIntArithmetic(const Instr& in, int not_ints);
  int SmallIntShift(int64_t nb, int a, int64_t count, int slow);
  void LeaveIfFloatOnly(const Instr& in, int float_form);
  // Whether an operand of `in` is an unboxed temporary (its consumer must take its inline
  // forms: it is the only reader of the raw value).
  bool HasUnboxedOperand(const Instr& in) const {
    return std::any_of(in.args.begin(), in.args.end(), [this](int a) { return IsUnboxed(a); });
  }
  // The forms in which temporary `reg` may hold its C value with no object (hir::
  // ChooseNumberForms chose them; hir::Function::unboxed).
  uint8_t UnboxedForms(int reg) const {
    const auto r = static_cast<size_t>(reg);
    return reg >= 0 && r < f_.unboxed.size() ? f_.unboxed[r] : 0;
  }
  bool UnboxedInt(int reg) const { return (UnboxedForms(reg) & hir::kIntForm) != 0; }
  bool UnboxedFloat(int reg) const { return (UnboxedForms(reg) & hir::kFloatForm) != 0; }
  bool IsUnboxed(int reg) const { return UnboxedForms(reg) != 0; }
  // Unboxed as an int or as a float, whichever the producer's path made (RawOf holds
  // kRawFloatMark when it is a float).
  bool IsDual(int reg) const { return UnboxedForms(reg) == (hir::kIntForm | hir::kFloatForm); }
  // The instance attribute and method probes: not for a site 3.11 found a module attribute,
  // a slot or a class method at, where the probe could only fail.
  static bool InstanceProbe(const Instr& in) { return Allows(in, Feedback::kInstance); }
  // The inline number forms hir::ChooseNumberForms chose for `in` (a BinaryOp or comparison).
  static bool HasFloatForm(const Instr& in) { return (in.forms & hir::kFloatForm) != 0; }
  static bool HasIntForm(const Instr& in) { return (in.forms & hir::kIntForm) != 0; }
  // The LIR register holding unboxed temporary `reg`'s C value while its object is NULL: an
  // int (RawOf) or a double (RawFloatOf). A temporary of both kinds holding a double has
  // kRawFloatMark as its int, a value no small-int form makes (they stay below 2^61).
  int RawOf(int reg) { return RawVReg(&raw_, reg, Type::kI64); }
  int RawFloatOf(int reg) { return RawVReg(&raw_float_, reg, Type::kF64); }
  int RawVReg(std::map<int, int>* regs, int reg, Type t);
  int BoxingFirst(const Instr& in, int target);
  void BoxRaw(int a);
  int FloorDivOrMod(int a, int b, bool mod);
  void FloatArithmetic(const Instr& in, lir::Op op, int not_floats);
  int FloatOperand(int reg, int slow);
  int FloatValue(Operand obj, int slow);
  std::pair<int, int> FloatOperands(const Instr& in, int slow);
  // `fast`, given the cold block to jump to when its guards fail, then in that block
  // `generic`; both continue at one join.
  // The fast path is optional decision `kind` (jit/decisions.h); with none (a path an earlier
  // decision already chose) it is always taken. Declined, `generic` alone is the code.
  template <typename Fast, typename Generic>
  void FastOrGeneric(std::optional<Decision> kind, const Instr& in, Fast fast, Generic generic) {
    if (kind && !Take(decisions_, *kind, in.bc)) return generic();
    ColdDetour(fast, generic);
  }

  // ---- compares.cc ----
  CompareForms CompareFormsOf(const Instr& in) const;
  bool TakeCompareForms(const Instr& in, const CompareForms& forms);
  void EmitCompareForm(const Instr& in, const CompareForms& forms, int c, int slow, int done);
  void LowerCompareBool(const Instr& in);
  void LowerCompareOp(const Instr& in);
  void LowerCompareTupleItems(const Instr& in);
  void LowerContains(const Instr& in);
  void LowerIsInstanceOfItems(const Instr& in);
  void StrEquality(const Instr& in, int c, int slow, int done);
  void StrOrderAgainstChar(const Instr& in, const Cond* conds, int c, int slow, int done);
  void LowerIsTrue(const Instr& in);

  // ---- attributes.cc ----
  int MatchEntry(int version, const void* site, int64_t first, int64_t stride, int slow);
  // MatchEntry's cold blocks, from `others` (where entry 0 did not match): `slow` for
  // version 0 (an empty entry's version is 0: no type without a tag), else a loop over
  // entries 1 .. kPolymorphicEntries - 1 with `entry` (a new vreg when -1) walking them, and
  // `matched` for the one whose version is `version`. `each(entry)` emits what the loop loads
  // with each entry's version. Leaves cur_ at `matched`.
  template <typename Each>
  void SearchOtherEntries(int version, const void* site, int64_t first, int64_t stride, int others,
                          int matched, int slow, int entry, Each each) {
    cur_ = others;
    const int tagged = ColdBlock();
    Emit(BrInstr(Cond::kEq, Type::kI32, V(version), Operand::Imm(0), slow, tagged));
    cur_ = tagged;
    if (entry < 0) entry = SiteAddress(site, first);
    const int last = SiteAddress(site, first + (runtime::kPolymorphicEntries - 1) * stride);
    const int loop = ColdBlock(), next = ColdBlock();
    Jmp(loop);
    cur_ = loop;
    Binary(lir::Op::kAdd, V(entry), Operand::Imm(stride), Type::kPtr, entry);
    const int cached = Load(V(entry), 0, Type::kI32);
    each(entry);
    Emit(BrInstr(Cond::kEq, Type::kI32, V(version), V(cached), matched, next));
    cur_ = next;
    Emit(BrInstr(Cond::kNe, Type::kI64, V(entry), V(last), loop, slow));
    cur_ = matched;
  }
  int MatchAttrOffset(int version, const void* site, int slow);
  AttrSlot GuardedAttrSlot(Operand obj, const void* site, int slow);
  runtime::AttrForm TakeAttrForm(const Instr& in, SiteCache* site);
  AttrSlot GuardedSlotMember(int obj, SiteCache* site, int slow);
  void EndCachedLoad(const Instr& in, Operand obj, SiteCache* site, int slow, int done,
                     bool hint_first = false);
  void CachedLoad(const Instr& in, Operand obj, SiteCache* site, bool hint_first);
  void LoadSlotMember(const Instr& in, SiteCache* site);
  int DictHintEntry(int obj, SiteCache* site, int slow);
  void LoadDictHint(const Instr& in, SiteCache* site);
  void StoreSlotMember(const Instr& in, SiteCache* site);
  void AddToInsertionOrder(int values, int offset);
  void LowerLoadAttr(const Instr& in);
  void LowerStoreAttr(const Instr& in);
  bool InlineModuleProbe(const Instr& in) const;
  template <typename Cached>
  void ModuleAttribute(const Instr& in, Operand obj, SiteCache* site, int64_t at, int dst,
                       int null_dst, Cached cached) {
    FastOrGeneric(
        std::nullopt, in,  // the site's decision chose this path when the cache was made
        [&](int slow) {
          ModuleProbe(obj, SiteRefOf(site), at, dst, slow);
          if (null_dst >= 0) Mov(Operand::Imm(0), Type::kPtr, null_dst);
        },
        cached);
  }
  void ModuleProbe(Operand obj, SiteRef cache, int64_t at, int dst, int slow,
                   std::optional<std::pair<int, int>> unless_ne = std::nullopt, int bc = -1);
  void CheckGlobalsVersion(SiteRef cache, int slow);
  std::pair<int, int> GlobalsVersion(SiteRef cache);
  void CheckVersion(int dict, SiteRef cache, int64_t at, int slow);
  void CheckGlobalTags(SiteRef cache, bool module_only, int slow, int bc);
  void LowerLoadGlobal(const Instr& in);
  void LowerModuleAttrOfGlobal(const Instr& global);
  void ModuleAttrByStub(const Instr& global, const Instr& attr, const SiteRef& cache,
                        SiteCache* global_site);
  void ModuleAttrExitIfNull(const Instr& global, const Instr& attr, int value, int value_dst);
  // Where the attribute goes: LOAD_ATTR's result, or the second of LOAD_METHOD's pair.
  int ModuleAttrValueReg(const Instr& attr) {
    return LirReg(attr.op == Op::kLoadMethod ? attr.dst2 : attr.dst);
  }
  int64_t ModuleAttrHow(const Instr& attr) const;
  void ModuleAttrByOneCall(const Instr& global, const Instr& attr, const SiteRefs& caches);
  void ModuleAttrByStatus(const Instr& global, const Instr& attr, const SiteRefs& caches);
  static bool OneExitFits(const FrameState& global, const FrameState& attr);
  int ModuleAttrExit(const FrameState& global, const FrameState& attr);
  void LowerLoadMethod(const Instr& in);
  void LowerLoadMethodSuper(const Instr& in);
  void LoadMethodCached(const Instr& in, Operand obj, Operand cache);

  const Function& f_;
  const RuntimeAddresses& rt_;
  std::vector<DeoptSite>* deopt_sites_;
  Decisions* decisions_;  // null: every optional decision taken
  const KnownCallSites known_calls_;
  std::vector<const Instr*> borrow_source_;  // per HIR reg: its LoadLocal or LoadConst, or null
  // The operands' types SmallIntOperands loaded for its paired test, and the block that test
  // fails to (the float form, when that is where it goes).
  struct OperandTypes {
    int a = -1, b = -1;    // HIR operands
    int ta = -1, tb = -1;  // LIR registers holding their types
    int fail = -1;
  };
  OperandTypes operand_types_;
  // A fused op's fast path that goes on past the instructions after it (InlineIsInstance,
  // GenericIntoLocal): once `after` is lowered, the block continues at `block`.
  struct Rejoin {
    const Instr* after;
    int block;
  };
  std::optional<Rejoin> rejoin_;
  const Instr* store_done_ = nullptr;  // a StoreLocalResult its BinaryOp did (*IntoLocal)
  std::vector<char> cold_, emitted_;
  std::vector<int> group_;  // per LIR block: 1 + the HIR block it belongs to (0: entry)
  int group_now_ = 0;
  std::vector<int> order_;
  lir::Function out_;
  std::vector<int> regs_;
  std::vector<int> block_of_;
  int return_block_ = -1;       // the function frame's one return (LowerReturnBlock)
  std::set<int> return_units_;  // the RETURN_VALUEs' code units (ReturnUnits)
  int return_unit_ = -1;        // with several: the vreg saying which one is returning
  int return_value_ = -1;
  int tstate_ = -1, frame_ = -1, first_instr_ = -1;
  int entry_ = -1, cur_ = -1;
  // HIR registers whose one definition is LoadNull: a CALL with one there calls a plain
  // callable, not LOAD_METHOD's pair.
  RegSet null_regs_;
  // HIR registers some BINARY_OP with a float form defines, and locals stored from one: when
  // such a value dies it is most likely a float, so its deallocation tries the free list first.
  RegSet float_like_regs_;
  RegSet module_global_regs_;  // defined once, by a LOAD_GLOBAL of a module (guessed)
  hir::Loops loops_;
  std::set<int64_t> float_like_locals_;
  std::set<int> in_place_floats_;  // BINARY_OP results BoxFloatResult may write in place
  // The LIR registers of unboxed temporaries' raw values (RawOf, RawFloatOf).
  std::map<int, int> raw_, raw_float_;
  std::vector<int> noted_blocks_;    // blocks EmitNote wrote into, for ResolvePrevInstr
  std::vector<uint8_t> noted_;       // per block: in noted_blocks_
  int scratch_addr_ = -1;            // the scratch slot's address after kUnpackSequence
  const Instr* lowering_ = nullptr;  // the HIR instruction being lowered (deopt sites, caches)
  const Block* block_ = nullptr;     // its block, and its index there
  size_t at_ = 0;
  size_t skip_ = 0;  // how many instructions after it its rule lowered too (a fused op's)
  // ReserveSiteCaches: the room's first cache and the vreg holding its address.
  const void* site_room_ = nullptr;
  int cframe_ = -1;  // HoistCFrame's vreg, or -1
  int site_room_reg_ = -1;
  // A call's NULL-result test left for the CheckTracing right after it (CallResultCheck).
  struct ResultCheck {
    FrameState state;
    int value;
  };
  std::optional<ResultCheck> pending_result_check_;
};

}  // namespace a64jit::lower::internal

#endif  // A64JIT_JIT_HIR_LOWERER_H_
