#include "jit/lower/lower.h"

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

#include "jit/lir/cfg.h"
#include "jit/lower/block_layout.h"
#include "jit/lower/call_rules.h"
#include "jit/lower/known_calls.h"
#include "jit/lower/object_layouts.h"
#include "jit/lower/probable_floats.h"
#include "jit/lower/site_stubs.h"
#include "jit/lower/unboxed_temporaries.h"
#include "jit/runtime/helpers.h"

namespace a64jit::lower {

namespace {

using hir::Block;
using hir::Feedback;
using hir::FrameState;
using hir::Function;
using hir::Instr;
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
    Helper::PyNumber_Add,
    Helper::PyNumber_And,
    Helper::PyNumber_FloorDivide,
    Helper::PyNumber_Lshift,
    Helper::PyNumber_MatrixMultiply,
    Helper::PyNumber_Multiply,
    Helper::PyNumber_Remainder,
    Helper::PyNumber_Or,
    Helper::a64_power,
    Helper::PyNumber_Rshift,
    Helper::PyNumber_Subtract,
    Helper::PyNumber_TrueDivide,
    Helper::PyNumber_Xor,
    Helper::PyNumber_InPlaceAdd,
    Helper::PyNumber_InPlaceAnd,
    Helper::PyNumber_InPlaceFloorDivide,
    Helper::PyNumber_InPlaceLshift,
    Helper::PyNumber_InPlaceMatrixMultiply,
    Helper::PyNumber_InPlaceMultiply,
    Helper::PyNumber_InPlaceRemainder,
    Helper::PyNumber_InPlaceOr,
    Helper::a64_inplace_power,
    Helper::PyNumber_InPlaceRshift,
    Helper::PyNumber_InPlaceSubtract,
    Helper::PyNumber_InPlaceTrueDivide,
    Helper::PyNumber_InPlaceXor,
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
    order_.reserve(3 * n + 16);
    out_.vreg_types.reserve(5 * n + 16);
    // Only registers with one definition (stack registers s_k have several).
    const std::vector<int> defs = f.DefinitionCounts();
    const std::vector<int> reads = f.UseCounts();  // arguments and exit states
    for (const Block& b : f.blocks) {
      for (const Instr& in : b.instrs) {
        if ((in.op == Op::kLoadLocal || in.op == Op::kLoadConst) && in.dst >= 0) {
          borrow_source_[static_cast<size_t>(in.dst)] = &in;
        }
        if (in.op == Op::kLoadNull && in.dst >= 0) null_regs_.insert(in.dst);
        if (in.op == Op::kLoadGlobal && in.dst >= 0 &&
            GlobalKindOf(in.imm) == hir::CodeInfo::kGlobalModule) {
          module_global_regs_.insert(in.dst);
        }
        if (in.op == Op::kBinaryOp && in.dst >= 0 && FloatFormOf(in.imm)) {
          float_like_regs_.insert(in.dst);
        }
      }
    }
    for (const Block& b : f.blocks) {
      for (const Instr& in : b.instrs) {
        if (in.op == Op::kStoreLocal && IsFloatLike(in.args[0])) float_like_locals_.insert(in.imm);
      }
    }
    FindStoreTargets(defs, reads);
    for (size_t reg = 0; reg < defs.size(); reg++) {
      if (defs[reg] == 1) continue;
      borrow_source_[reg] = nullptr;
      null_regs_.erase(static_cast<int>(reg));
      module_global_regs_.erase(static_cast<int>(reg));
    }
    FindModuleAttrsOfGlobals(defs, reads);
    FindIsInstanceTests(defs, reads);
    FindLoops();
    out_.ret = Type::kPtr;
  }

  lir::Function Run() {
    tstate_ = out_.NewVReg(Type::kPtr);
    frame_ = out_.NewVReg(Type::kPtr);
    out_.params = {tstate_, frame_};
    regs_.reserve(f_.reg_types.size());
    for (ValueType t : f_.reg_types) {
      regs_.push_back(out_.NewVReg(t == ValueType::kCInt ? Type::kI64 : Type::kPtr));
    }
    probable_floats_ = ProbableFloats(
        f_,
        [this](int64_t i) {
          return static_cast<size_t>(i) < rt_.const_kinds.size() &&
                 rt_.const_kinds[static_cast<size_t>(i)] == ConstKind::kFloat;
        },
        [](int64_t nb) { return FloatFormOf(nb).has_value(); });
    unboxed_ = UnboxedTemporaries(f_, [this](const Instr& in) {
      return in.op == Op::kIsTrue ? rt_.py_long_type != 0 : HasIntForm(in);
    });
    unboxed_floats_ = UnboxedTemporaries(f_, [this](const Instr& in) { return HasFloatForm(in); });
    for (auto [set, kind] : {std::pair{&unboxed_, Decision::kLowerUnboxedInt},
                             std::pair{&unboxed_floats_, Decision::kLowerUnboxedFloat}}) {
      for (auto it = set->begin(); it != set->end();) {
        it = Take(decisions_, kind, BcOfDefinition(*it)) ? std::next(it) : set->erase(it);
      }
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
    // A generator's entry is also where it resumes: its call path clears them (ClearLocals).
    if (!hir::IsGenerator(f_.code.flags)) ClearLocalsPastParameters();
    Jmp(block_of_[0]);
    for (size_t b = 0; b < f_.blocks.size(); b++) {
      cur_ = block_of_[b];
      group_now_ = static_cast<int>(b) + 1;
      group_[static_cast<size_t>(cur_)] = group_now_;
      prev_instr_known_ = -1;
      const std::vector<Instr>& instrs = f_.blocks[b].instrs;
      for (size_t i = 0; i < instrs.size(); i++) {
        lowering_ = &instrs[i];
        next_ = i + 1 < instrs.size() ? &instrs[i + 1] : nullptr;
        LowerInstr(instrs[i]);
        const auto rejoin = rejoin_after_.find(&instrs[i]);
        if (rejoin != rejoin_after_.end()) {  // InlineIsInstance's answer waits there
          Jmp(rejoin->second);
          cur_ = rejoin->second;
          prev_instr_known_ = -1;
        }
      }
      lowering_ = next_ = nullptr;
    }
    if (return_block_ >= 0) LowerReturnBlock();
    LayOutBlocks(&out_, std::move(cold_), group_, order_);
    return std::move(out_);
  }

 private:
  static constexpr size_t kInstrsPerBlock = 4;
  // The arena's first chunk (it doubles after): the median function's blocks take ~70 KB.
  static constexpr size_t kArenaBytes = 32 * 1024;
  int NewBlock() {
    group_.push_back(group_now_);
    cold_.push_back(0);
    emitted_.push_back(0);
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
  // LIR call arguments are registers.
  lir::Operands InRegisters(lir::Operands args) {
    for (Operand& a : args) {
      if (!a.is_vreg()) a = V(Mov(a, Type::kI64));
    }
    return args;
  }
  // A call of a helper (jit/runtime/helpers.h) with as many arguments as its C type takes.
  lir::Instr HelperCall(Helper h, lir::Operands args) {
    if (static_cast<int>(args.size()) != runtime::HelperArity(h)) {
      throw std::logic_error(std::string("lowering: ") + runtime::HelperName(h) + " takes " +
                             std::to_string(runtime::HelperArity(h)) + " arguments, not " +
                             std::to_string(args.size()));
    }
    return CallByName(runtime::HelperName(h), std::move(args));
  }
  // A call of `callee`, which code generation's resolver places (a `bl` when in range).
  lir::Instr CallByName(const char* callee, lir::Operands args) {
    lir::Instr in;
    in.op = lir::Op::kCall;
    in.callee = callee;
    in.args = InRegisters(std::move(args));
    return in;
  }
  // A call of guest code by name (the call stub, a site stub) into a new vreg of type `t`.
  int CallNamed(const char* callee, lir::Operands args, Type t = Type::kPtr) {
    lir::Instr call = CallByName(callee, std::move(args));
    call.dst = out_.NewVReg(t);
    return Emit(std::move(call)).dst;
  }
  int Call(Helper h, lir::Operands args, int dst = -1, Type t = Type::kPtr) {
    lir::Instr in = HelperCall(h, std::move(args));
    in.dst = dst >= 0 ? dst : out_.NewVReg(t);
    return Emit(std::move(in)).dst;
  }
  void CallVoid(Helper h, lir::Operands args) { Emit(HelperCall(h, std::move(args))); }
  // `v` zero-extended to 64 bits.
  int ZExt(Operand v) {
    lir::Instr ext;
    ext.op = lir::Op::kZExt;
    ext.dst = out_.NewVReg(Type::kI64);
    ext.args = {v};
    return Emit(std::move(ext)).dst;
  }
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
  // Branches to a fresh block on `cond`, continues in another; returns the taken block.
  int SplitOn(Cond c, Operand a, Operand b, Type t = Type::kI64) {
    const int taken = NewBlock(), cont = NewBlock();
    Br(c, a, b, taken, cont, t);
    cur_ = cont;
    return taken;
  }

  // prev_instr = the instruction at code unit `unit` (what frame objects and tracebacks read).
  void SetPrevInstr(int unit) {
    if (unit == prev_instr_known_) return;
    const int p = unit == 0 ? first_instr_
                            : Binary(lir::Op::kAdd, V(first_instr_),
                                     Operand::Imm(2 * int64_t{unit}), Type::kPtr);
    Store(V(p), V(frame_), kPrevInstr, Type::kPtr);
    prev_instr_known_ = unit;
  }

  // The thread's current frame = frame->previous.
  void MakeCallerCurrent(int frame) {
    const int cframe = Load(V(tstate_), kThreadCFrame, Type::kPtr);
    Store(V(Load(V(frame), kFramePrevious, Type::kPtr)), V(cframe), kCurrentFrame, Type::kPtr);
  }
  void Incref(Operand obj) {
    const int rc = Load(obj, 0, Type::kI64);
    Binary(lir::Op::kAdd, V(rc), Operand::Imm(1), Type::kI64, rc);
    Store(V(rc), obj, 0, Type::kI64);
  }
  void Decref(int obj, bool maybe_null, int bc, bool float_like = false) {
    const int done = NewBlock();
    if (maybe_null) {
      const int nonnull = NewBlock();
      Br(Cond::kEq, V(obj), Operand::Imm(0), done, nonnull);
      cur_ = nonnull;
    }
    const int rc = Load(V(obj), 0, Type::kI64);
    Binary(lir::Op::kSub, V(rc), Operand::Imm(1), Type::kI64, rc);
    Store(V(rc), V(obj), 0, Type::kI64);
    const int dealloc = ColdBlock();
    Br(Cond::kEq, V(rc), Operand::Imm(0), dealloc, done);
    // Deallocation can run arbitrary code (__del__, weakref callbacks): keep the line right.
    cur_ = dealloc;
    const int known = prev_instr_known_;
    if (float_like && InlineFloatFreeList()) FreeFloat(obj, done);
    if (UseReleaseStub(bc)) {
      // The helper sets prev_instr, so that the cold block is a call and a jump, which code
      // generation makes one `bl` to a shared stub and a data word (codegen/release_stubs.h).
      // The unit stays an immediate (no register): the stub form keeps it in its data word.
      const int64_t unit = bc != known ? bc : -1;  // UseReleaseStub: bc >= 0
      lir::Instr call =
          CallByName(runtime::HelperName(Helper::a64_dealloc_at), {V(obj), V(frame_)});
      call.op = lir::Op::kReleaseAt;
      call.args.push_back(Operand::Imm(unit));
      Emit(std::move(call));
    } else {
      if (bc >= 0) SetPrevInstr(bc);
      CallVoid(Helper::a64_dealloc, {V(obj)});
    }
    Jmp(done);
    cur_ = done;
    prev_instr_known_ = bc >= 0 && known != bc ? -1 : known;
  }

  // When `obj` (whose count reached 0) is an exact float and the free list has room, gives it
  // back to the list and jumps to `done`, as float deallocation does (nothing else runs: no
  // __del__, so prev_instr need not be written); else falls through to a new block.
  void FreeFloat(int obj, int done) {
    const int other = ColdBlock();
    const int type = Load(V(obj), offsetof(PyObject, ob_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_float_type), other);
    const int list = Mov(Imm(rt_.float_free_list), Type::kPtr);
    const int count = Load(V(list), offsetof(FloatFreeListLayout, numfree), Type::kI32);
    SlowIf(Cond::kSge, Type::kI32, V(count), Operand::Imm(kFloatFreeListMax), other);
    StoreFreeCount(list, count, lir::Op::kAdd);
    const int head = Load(V(list), offsetof(FloatFreeListLayout, free_list), Type::kPtr);
    Store(V(head), V(obj), offsetof(PyObject, ob_type), Type::kPtr);
    Store(V(obj), V(list), offsetof(FloatFreeListLayout, free_list), Type::kPtr);
    Jmp(done);
    cur_ = other;
  }

  // The free list's addresses are known (they are set together, RuntimeAddresses).
  bool InlineFloatFreeList() const {
    return rt_.float_free_list != 0 && rt_.tracemalloc_tracing != 0;
  }
  // The free list's count = `count` op 1 (kAdd: a float given back; kSub: one taken).
  void StoreFreeCount(int list, int count, lir::Op op) {
    Store(V(Binary(op, V(count), Operand::Imm(1), Type::kI32)), V(list),
          offsetof(FloatFreeListLayout, numfree), Type::kI32);
  }

  // in.dst = a new float holding `d`, taken from the free list inline as PyFloat_FromDouble
  // does (the list not empty, tracemalloc not tracing: it must see every new reference);
  // else from PyFloat_FromDouble in a cold block.
  void BoxFloat(const Instr& in, int d) {
    if (!InlineFloatFreeList()) {
      return CallChecked(in, Helper::PyFloat_FromDouble, {V(d)});
    }
    FastOrGeneric(
        Decision::kLowerFloatBoxInline, in,
        [&](int slow) {
          const int list = Mov(Imm(rt_.float_free_list), Type::kPtr);
          const int obj =
              Load(V(list), offsetof(FloatFreeListLayout, free_list), Type::kPtr, LirReg(in.dst));
          SlowIf(Cond::kEq, Type::kPtr, V(obj), Operand::Imm(0), slow);
          const int tracing = Load(V(Mov(Imm(rt_.tracemalloc_tracing), Type::kPtr)), 0, Type::kI32);
          SlowIf(Cond::kNe, Type::kI32, V(tracing), Operand::Imm(0), slow);
          Store(V(Load(V(obj), offsetof(PyObject, ob_type), Type::kPtr)), V(list),
                offsetof(FloatFreeListLayout, free_list), Type::kPtr);
          StoreFreeCount(list, Load(V(list), offsetof(FloatFreeListLayout, numfree), Type::kI32),
                         lir::Op::kSub);
          Store(Imm(rt_.py_float_type), V(obj), offsetof(PyObject, ob_type), Type::kPtr);
          Store(Operand::Imm(1), V(obj), offsetof(PyObject, ob_refcnt), Type::kI64);
          Store(V(d), V(obj), offsetof(PyFloatObject, ob_fval), Type::kF64);
        },
        [&] { CallChecked(in, Helper::PyFloat_FromDouble, {V(d)}); });
  }

  // in.dst = a float holding `d`, in.args both exact floats. A result stored into a local
  // (store_targets_) is written into the local's old float when only the local holds it and
  // that is an exact float, as stock's `s += x` cannot: no float is taken from the free list
  // and none given back. When an operand is the local's value (`s = s + x`), that is the old
  // float, already known to be one.
  //
  // Where BINARY_OP has no int form, the store is done here (fused_stores_): the local
  // already holds the result, so the StoreLocal emits nothing and the hot path takes no count
  // and releases nothing. Any other case goes to `generic` (boxed operands, PyNumber_*), where
  // one helper makes the operation and the store (GenericIntoLocal). Else the old float's
  // count goes to 2 for the store's release, and a new float comes from PyFloat_FromDouble
  // out of line (once a loop runs, the local holds a float of its own).
  void BoxFloatResult(const Instr& in, int d, int generic) {
    const auto target = store_targets_.find(in.dst);
    if (target == store_targets_.end()) return BoxFloat(in, d);
    const Instr& store = *target->second.store;
    const int operand = target->second.local_operand;
    const bool known = operand >= 0 && unboxed_floats_.count(in.args[operand]) == 0;
    const bool fused = !HasIntForm(in) && target->second.release_mask >= 0 &&
                       store.imm < (int64_t{1} << 40) && store.bc - in.bc <= 3;  // `how`'s gap
    const auto in_place = [&](int fresh) {
      in_place_floats_.insert(in.dst);
      const int old =
          known ? LirReg(in.args[operand]) : Load(V(frame_), LocalOffset(store.imm), Type::kPtr);
      if (!known) {
        if (!store.bound) SlowIf(Cond::kEq, Type::kPtr, V(old), Operand::Imm(0), fresh);
        const int type = Load(V(old), offsetof(PyObject, ob_type), Type::kPtr);
        SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_float_type), fresh);
      }
      const int count = Load(V(old), offsetof(PyObject, ob_refcnt), Type::kI64);
      SlowIf(Cond::kNe, Type::kI64, V(count), Operand::Imm(1), fresh);
      Store(V(d), V(old), offsetof(PyFloatObject, ob_fval), Type::kF64);
      if (fused) return;  // in.dst, read by the store alone, is not needed
      Store(Operand::Imm(2), V(old), offsetof(PyObject, ob_refcnt), Type::kI64);
      Mov(V(old), Type::kPtr, LirReg(in.dst));
    };
    if (fused) {
      if (!Take(decisions_, Decision::kLowerFloatStoreInPlace, in.bc)) return BoxFloat(in, d);
      fused_stores_.insert(&store);
      return in_place(generic);
    }
    FastOrGeneric(Decision::kLowerFloatStoreInPlace, in, in_place, [&] {
      // declined: the usual box; taken: the rare case, out of line
      if (in_place_floats_.count(in.dst) == 0) return BoxFloat(in, d);
      CallChecked(in, Helper::PyFloat_FromDouble, {V(d)});
    });
  }
  // The generic path of a BINARY_OP whose store BoxFloatResult fused: the operation, the
  // operands' releases (Python code may run there when they are not floats) and the store,
  // in stock's order, by one helper; then on past the store.
  bool GenericIntoLocal(const Instr& in) {
    const auto target = store_targets_.find(in.dst);
    if (target == store_targets_.end() || fused_stores_.count(target->second.store) == 0) {
      return false;
    }
    const Instr& store = *target->second.store;
    const int64_t how =
        in.imm | target->second.release_mask << 8 | (store.bc - in.bc) << 10 | store.imm << 12;
    lir::Instr call = HelperCall(
        Helper::a64_binary_op_into_local,
        {V(LirReg(in.args[0])), V(LirReg(in.args[1])), Operand::Imm(how), Operand::Imm(store.bc)});
    call.op = lir::Op::kBinaryOpIntoLocal;
    call.dst = out_.NewVReg(Type::kI64);
    const int status = Emit(std::move(call)).dst;
    prev_instr_known_ = -1;  // the helper set it, to the operation's unit and then the store's
    DeoptIf(in, Cond::kEq, V(status), Operand::Imm(0));
    const int after = NewBlock();
    rejoin_after_[&store] = after;
    Jmp(after);
    cur_ = NewBlock();  // unreachable: takes the caller's jump to the operation's join
    return true;
  }

  // The exit to the interpreter for `in`'s state, taken from the current block's branch.
  int DeoptBlock(const FrameState& state) {
    return OutOfLine([&] { EmitDeopt(state); });
  }
  // A cold block that `fill` emits, made without leaving the current one.
  template <typename Fill>
  int OutOfLine(Fill fill) {
    const int saved = cur_;
    const int known = prev_instr_known_;
    const int b = ColdBlock();
    cur_ = b;
    fill();
    cur_ = saved;
    prev_instr_known_ = known;
    return b;
  }
  static bool Raises(const FrameState& st) {
    return st.kind == FrameState::Kind::kError || st.kind == FrameState::Kind::kReraise;
  }
  void EmitDeopt(const FrameState& st, int64_t code_if_top_null = -1) {
    if (Raises(st) && st.catch_block >= 0) return EmitCatchEdge(st);
    const uint64_t code = AddDeoptSite(st, true, code_if_top_null);
    prev_instr_known_ = -1;
    Ret(Imm(static_cast<int64_t>(code)));
  }
  // The DeoptSite of an exit for `st`, and its code; with `emit`, the stores that leave the
  // stack's values in the frame (EmitDeopt's).
  uint64_t AddDeoptSite(const FrameState& st, bool emit, int64_t code_if_top_null = -1) {
    const bool raises = Raises(st);
    const int64_t base = kLocalsPlus + 8 * int64_t{f_.code.nlocalsplus};
    const bool error = st.kind != FrameState::Kind::kResume;
    DeoptSite site;
    site.prev_unit = error ? st.bc : st.resume_unit - 1;
    const bool reraise = st.kind == FrameState::Kind::kReraise;
    site.keep_prev_instr = st.kind == FrameState::Kind::kRaised || reraise;
    site.unwinds = raises && !st.protected_range && !hir::IsGenerator(f_.code.flags) &&
                   st.bc >= f_.code.first_traceable;
    site.reraised = reraise;
    site.bc = lowering_ != nullptr ? lowering_->bc : st.bc;
    site.reason = DeoptReasonFor(lowering_ != nullptr ? &lowering_->op : nullptr, st.kind);
    site.depth = static_cast<int>(st.stack.size());
    for (size_t i = 0; i < st.stack.size(); i++) {
      const int v = LirReg(st.stack[i]);
      const bool borrowed = Borrowed(st, i);
      // A borrowed value came from a local that still holds it (the refcount pass borrows
      // only then) or from a constant: the runtime can find it again.
      const Instr* source = BorrowSource(st.stack[i]);
      if (borrowed && source != nullptr) {
        const Instr& def = *source;
        site.refs.push_back(DeoptSite::Ref{static_cast<int>(i), def.op == Op::kLoadConst,
                                           static_cast<int>(def.imm)});
        continue;
      }
      if (!emit) continue;
      if (borrowed) Incref(V(v));
      Store(V(v), V(frame_), base + 8 * static_cast<int64_t>(i), Type::kPtr);
    }
    site.code_if_top_null = code_if_top_null;
    const uint64_t kind = error ? kDeoptError : kDeoptResume;
    const uint64_t code = (deopt_sites_->size() << 2) | kind;
    if (code >= kDeoptCodeLimit) throw Unsupported(-1, 2 * st.bc, "too many deopt exits");
    deopt_sites_->push_back(std::move(site));
    return code;
  }
  // An exception at st.bc, caught by a handler of this function: what the interpreter's
  // exception_unwind does up to pushing the exception. The stack below the handler's depth
  // moves into s_k (the frame state's borrowed values get their own reference), the rest is
  // released, prev_instr names the raising instruction (for the traceback entry and the
  // handler's lasti; after a re-raise, RERAISE has set it), and the handler's landing
  // block goes on.
  void EmitCatchEdge(const FrameState& st) {
    const int landing = st.catch_block;
    const size_t depth = static_cast<size_t>(f_.blocks[static_cast<size_t>(landing)].in_depth);
    if (st.stack.size() < depth) throw std::logic_error("lowering: handler deeper than the stack");
    const bool reraise = st.kind == FrameState::Kind::kReraise;
    if (!reraise) SetPrevInstr(st.bc);
    std::vector<int> kept;
    for (size_t i = 0; i < st.stack.size(); i++) {
      const int v = LirReg(st.stack[i]);
      const bool borrowed = i < st.borrowed.size() && st.borrowed[i];
      if (i < depth) {
        if (borrowed) Incref(V(v));
        kept.push_back(Mov(V(v), Type::kPtr));  // through temporaries: s_k may be a source
      } else if (!borrowed && null_regs_.count(st.stack[i]) == 0) {
        Decref(v, true, reraise ? -1 : st.bc, IsFloatLike(st.stack[i]));
      }
    }
    for (size_t k = 0; k < kept.size(); k++) {
      Mov(V(kept[k]), Type::kPtr, LirReg(f_.stack_regs[k]));
    }
    Jmp(block_of_[static_cast<size_t>(landing)]);
  }

  // if (value cond rhs) leave for the interpreter.
  void DeoptIf(const Instr& in, Cond c, Operand value, Operand rhs, Type t = Type::kI64) {
    DeoptIf(in.state, c, value, rhs, t);
  }
  void DeoptIf(const FrameState& state, Cond c, Operand value, Operand rhs, Type t = Type::kI64) {
    const int deopt = DeoptBlock(state);
    const int cont = NewBlock();
    Emit(BrInstr(c, t, value, rhs, deopt, cont));
    cur_ = cont;
  }
  // A helper's 1 ("not mine"): the interpreter redoes the instruction (and raises stock's
  // error, or does what the helper does not).
  void ResumeIfOne(const Instr& in, Operand value) {
    FrameState resume = in.state;
    resume.kind = FrameState::Kind::kResume;
    DeoptIf(resume, Cond::kEq, value, Operand::Imm(1));
  }

  // The scratch slot's address: operand arrays for calls, results of multi-result helpers.
  int ScratchAddr() {
    lir::Instr addr;
    addr.op = lir::Op::kSlotAddr;
    addr.dst = out_.NewVReg(Type::kPtr);
    addr.slot = 0;
    return Emit(std::move(addr)).dst;
  }

  // Stores `args` into the scratch slot and returns its address.
  int Spill(const std::vector<int>& args) {
    const int p = ScratchAddr();
    for (size_t i = 0; i < args.size(); i++) {
      Store(V(LirReg(args[i])), V(p), 8 * static_cast<int64_t>(i), Type::kPtr);
    }
    return p;
  }

  // How many of the function's HIR instructions have an op `of` accepts.
  template <typename OpTest>
  int CountInstrs(OpTest of) const {
    int count = 0;
    for (const hir::Block& b : f_.blocks) {
      for (const Instr& in : b.instrs) count += of(in.op) ? 1 : 0;
    }
    return count;
  }
  // Room for the function's caches (RuntimeAddresses::reserve_site_caches), and the register
  // that holds its address: at most one cache for each instruction of these ops.
  void ReserveSiteCaches() {
    if (!rt_.reserve_site_caches) return;
    const int count = CountInstrs([](Op op) {
      return op == Op::kCall || op == Op::kLoadGlobal || op == Op::kLoadAttr ||
             op == Op::kStoreAttr || op == Op::kLoadMethod;
    });
    if (count == 0) return;
    site_room_ = rt_.reserve_site_caches(count);
    if (site_room_ != nullptr) site_room_reg_ = Mov(Ptr(site_room_), Type::kPtr);
  }
  // Where a site's cache is, for a hot path's loads: the room's register and the cache's
  // offset in it (no instruction), or a register holding the address (a literal).
  struct SiteRef {
    int base;
    int64_t disp;
  };
  SiteRef SiteRefOf(const void* site) {
    const std::optional<int64_t> offset = RoomOffset(site, kLoadReach - kSiteCacheBytes);
    if (!offset) return {SiteAddress(site), 0};
    return {site_room_reg_, *offset};
  }
  // `site`'s offset in the room, when it is there and at most `reach`.
  std::optional<int64_t> RoomOffset(const void* site, int64_t reach) const {
    if (site_room_ == nullptr) return std::nullopt;
    const int64_t offset = static_cast<const char*>(site) - static_cast<const char*>(site_room_);
    if (offset < 0 || offset > reach) return std::nullopt;
    return offset;
  }
  // The address of `site` for a helper's argument: the register SiteRefOf made, else an add.
  int AddressOf(SiteRef ref, const void* site) {
    return ref.base != site_room_reg_ ? ref.base : SiteAddress(site);
  }
  int LoadSite(SiteRef site, int64_t field, Type t, int dst = -1) {
    return Load(V(site.base), site.disp + field, t, dst);
  }
  // A new vreg holding `site`'s address plus `tag`: from the room's register, else a literal.
  int SiteAddress(const void* site, int64_t tag = 0) {
    const std::optional<int64_t> offset = RoomOffset(site, kSiteRoomReach - 1);
    if (!offset) {
      return Mov(Operand::Imm(static_cast<int64_t>(reinterpret_cast<uintptr_t>(site)) + tag),
                 Type::kPtr);
    }
    if (*offset + tag == 0) return Mov(V(site_room_reg_), Type::kPtr);
    return Binary(lir::Op::kAdd, V(site_room_reg_), Operand::Imm(*offset + tag), Type::kPtr);
  }
  // The code units each back edge of the HIR spans, from the block it goes to up to the jump:
  // 3.11 closes every loop with one (JUMP_BACKWARD, or POP_JUMP_BACKWARD_IF_* at the bottom of
  // `while cond:`, which has no JUMP_BACKWARD), and the builder's blocks keep where they start.
  void FindLoops() {
    for (const Block& b : f_.blocks) {
      if (b.instrs.empty() || b.instrs.back().bc < 0) continue;
      const Instr& jump = b.instrs.back();
      for (int target : jump.targets) {
        if (target < 0) continue;
        const int start = f_.blocks[static_cast<size_t>(target)].bc_start;
        if (start >= 0 && start <= jump.bc) loops_.emplace_back(start, jump.bc);
      }
    }
    recursive_ = LoadsOwnName();
  }
  // A function that loads its own name as a global (`fib(n - 1)`) is taken to call itself:
  // recursion is its loop, so all of it counts as in one (hot functions without a loop of
  // their own: the benchmark set's `recursion` and `deep_copy` lost 2-4% of their translated
  // blocks to site stubs before this). Attributes of that name are not counted: `def
  // read(self, n): return self._f.read(n)` delegates, it does not recurse.
  bool LoadsOwnName() const {
    const std::string& q = f_.code.qualname;
    const std::string own = q.substr(q.rfind('.') + 1);
    for (const Block& b : f_.blocks) {
      for (const Instr& in : b.instrs) {
        if (in.op == Op::kLoadGlobal && static_cast<size_t>(in.imm) < f_.code.names.size() &&
            f_.code.names[static_cast<size_t>(in.imm)] == own) {
          return true;
        }
      }
    }
    return false;
  }
  bool InLoop(int bc) const {
    if (recursive_) return true;
    return std::any_of(loops_.begin(), loops_.end(), [bc](const std::pair<int64_t, int64_t>& l) {
      return l.first <= bc && bc <= l.second;
    });
  }
  // Whether the site at `bc` calls a site stub (site_stubs.h) instead of its guards inline:
  // outside loops and recursion (InLoop), where its bytes matter more than the stub's call
  // and return.
  bool UseSiteStub(int bc) {
    return rt_.site_stubs != 0 && !InLoop(bc) && Take(decisions_, Decision::kLowerSiteStub, bc);
  }

  // Whether a decref at `bc` releases through a release stub (codegen/release_stubs.h):
  // outside loops and recursion, as for site stubs, and not while the frame returns (bc -1:
  // its locals' releases run on every call). A deallocation through the stub costs about
  // seven more instructions and one more translated block than the inline call, which hot
  // code pays often (one-digit ints going to the free list, a `*args` tuple at each
  // return). With stubs everywhere the benchmark set ran 2.2% more guest instructions
  // (int_loops 4.5%); with them also at returns, `closures` ran 1.5% more.
  bool UseReleaseStub(int bc) {
    return rt_.release_stubs != 0 && bc >= 0 && !InLoop(bc) &&
           Take(decisions_, Decision::kLowerReleaseStub, bc);
  }

  // A cache for `site` (default: the instruction being lowered), with its instruction and
  // name in the cache's header (RuntimeAddresses::new_site_cache).
  SiteCache* NewSiteCache(const Instr* site = nullptr) {
    if (!rt_.new_site_cache) return nullptr;
    if (site == nullptr) site = lowering_;
    if (site == nullptr) return rt_.new_site_cache(-1, -1, -1);
    const bool named = site->op == Op::kLoadGlobal || site->op == Op::kLoadAttr ||
                       site->op == Op::kStoreAttr || site->op == Op::kLoadMethod;
    const int argc = site->op == Op::kCall ? static_cast<int>(site->imm) : -1;
    return rt_.new_site_cache(site->bc, named ? static_cast<int>(site->imm) : -1, argc);
  }
  static Operand Ptr(const void* p) {
    return Operand::Imm(static_cast<int64_t>(reinterpret_cast<uintptr_t>(p)));
  }

  uint64_t Name(int64_t i) const { return rt_.names.at(static_cast<size_t>(i)); }
  uint64_t Const(int64_t i) const { return rt_.consts.at(static_cast<size_t>(i)); }

  // A call returning a new reference, NULL on error.
  void CallChecked(const Instr& in, Helper h, lir::Operands args) {
    SetPrevInstr(in.bc);
    SiteCallChecked(in, h, std::move(args));
  }
  // A site helper's call (jit/runtime/helpers.h): the helper itself makes `in` the frame's
  // prev_instr, from its cache's header, so nothing is stored here.
  void SiteCallChecked(const Instr& in, Helper h, lir::Operands args) {
    Call(h, std::move(args), LirReg(in.dst));
    prev_instr_known_ = in.bc;
    DeoptIf(in, Cond::kEq, V(LirReg(in.dst)), Operand::Imm(0));
  }
  // Its int64_t result, negative on error.
  int SiteCallInt(const Instr& in, Helper h, lir::Operands args, int dst = -1) {
    const int r = Call(h, std::move(args), dst, Type::kI64);
    prev_instr_known_ = in.bc;
    DeoptIf(in, Cond::kSlt, V(r), Operand::Imm(0));
    return r;
  }
  // A call returning a C int that nothing reads but this test: negative on error. Tested
  // in 32 bits (a C int's upper half is undefined), so with no sign extension.
  void CallStatus(const Instr& in, Helper h, lir::Operands args) {
    SetPrevInstr(in.bc);
    const int r = Truncate(Call(h, std::move(args), -1, Type::kI64), Type::kI32);
    DeoptIf(in, Cond::kSlt, V(r), Operand::Imm(0), Type::kI32);
  }
  // A call returning an int, negative on error.
  int CallInt(const Instr& in, Helper h, lir::Operands args, int dst = -1) {
    SetPrevInstr(in.bc);
    const int r = Call(h, std::move(args), dst, Type::kI64);
    SExtInt(r, r);
    DeoptIf(in, Cond::kSlt, V(r), Operand::Imm(0));
    return r;
  }
  // dst:i64 = a C function's int result `r`: only its low 32 bits are defined.
  void SExtInt(int r, int dst) {
    lir::Instr ext;
    ext.op = lir::Op::kSExt;
    ext.dst = dst;
    ext.args = {V(Truncate(r, Type::kI32))};
    Emit(std::move(ext));
  }

  // One rule per HIR op, Rule<Op>, most of them a family's function (which fails on ops not its
  // own); LowerInstr's table is built from ops.h's list, so a missing rule does not compile.
  void RuleLoadLocal(const Instr& in) { LowerFrameValue(in); }
  void RuleStoreLocal(const Instr& in) { LowerFrameValue(in); }
  void RuleLoadConst(const Instr& in) { LowerFrameValue(in); }
  void RuleLoadNull(const Instr& in) { LowerFrameValue(in); }
  void RuleLoadGlobal(const Instr& in) {
    fused_attr_.count(&in) != 0 ? LowerModuleAttrOfGlobal(in) : LowerLoadGlobal(in);
  }
  void RuleLoadAttr(const Instr& in) { LowerLoadAttr(in); }
  void RuleStoreAttr(const Instr& in) { LowerStoreAttr(in); }
  void RuleLoadMethod(const Instr& in) { LowerLoadMethod(in); }
  void RuleCall(const Instr& in) { LowerCall(in); }
  void RuleBinaryOp(const Instr& in) { LowerObjectProtocol(in); }
  void RuleCompareOp(const Instr& in) { LowerObjectProtocol(in); }
  void RuleUnaryOp(const Instr& in) { LowerObjectProtocol(in); }
  void RuleGetItem(const Instr& in) { LowerObjectProtocol(in); }
  void RuleSetItem(const Instr& in) { LowerObjectProtocol(in); }
  void RuleContains(const Instr& in) { LowerObjectProtocol(in); }
  void RuleBuildList(const Instr& in) { LowerBuild(in); }
  void RuleBuildTuple(const Instr& in) { LowerBuild(in); }
  void RuleBuildMap(const Instr& in) { LowerBuild(in); }
  void RuleBuildConstKeyMap(const Instr& in) { LowerBuild(in); }
  void RuleBuildString(const Instr& in) { LowerBuild(in); }
  void RuleBuildSlice(const Instr& in) { LowerBuild(in); }
  void RuleFormatValue(const Instr& in) { LowerBuild(in); }
  void RuleMakeFunction(const Instr& in) { LowerBuild(in); }
  void RuleListAppend(const Instr& in) { LowerSequence(in); }
  void RuleListExtend(const Instr& in) { LowerSequence(in); }
  void RuleUnpackSequence(const Instr& in) { LowerSequence(in); }
  void RuleScratchLoad(const Instr& in) { LowerSequence(in); }
  void RuleGetIter(const Instr& in) { LowerObjectProtocol(in); }
  void RuleForIter(const Instr& in) { LowerForIter(in); }
  void RuleIsTrue(const Instr& in) { LowerIsTrue(in); }
  void RuleCompareBool(const Instr& in) { LowerCompareBool(in); }
  void RuleIsSame(const Instr& in) { LowerIdentity(in); }
  void RuleIsNone(const Instr& in) { LowerIdentity(in); }
  void RuleIsNull(const Instr& in) { LowerIdentity(in); }
  void RuleBoolFromCInt(const Instr& in) { LowerIdentity(in); }
  void RuleMov(const Instr& in) { LowerReference(in); }
  void RuleDup(const Instr& in) { LowerReference(in); }
  void RuleCheckEvalBreaker(const Instr& in) { LowerCheckEvalBreaker(in); }
  void RuleCheckTracing(const Instr& in) { LowerCheckTracing(in); }
  void RuleMakeCell(const Instr& in) { LowerByCallRule(in); }
  void RuleCopyFreeVars(const Instr& in) { LowerCopyFreeVars(in); }
  void RuleLoadDeref(const Instr& in) { LowerCellOrDelete(in); }
  void RuleStoreDeref(const Instr& in) { LowerCellOrDelete(in); }
  void RuleDeleteDeref(const Instr& in) { LowerCellOrDelete(in); }
  void RuleDeleteLocal(const Instr& in) { LowerCellOrDelete(in); }
  void RuleBuildSet(const Instr& in) { LowerBuild(in); }
  void RuleSetAdd(const Instr& in) { LowerByCallRule(in); }
  void RuleSetUpdate(const Instr& in) { LowerByCallRule(in); }
  void RuleMapAdd(const Instr& in) { LowerByCallRule(in); }
  void RuleDictUpdate(const Instr& in) { LowerByCallRule(in); }
  void RuleDictMerge(const Instr& in) { LowerByCallRule(in); }
  void RuleListToTuple(const Instr& in) { LowerByCallRule(in); }
  void RuleCallEx(const Instr& in) { LowerByCallRule(in); }
  void RuleUnpackEx(const Instr& in) { LowerSequence(in); }
  void RuleDeleteAttr(const Instr& in) { LowerByCallRule(in); }
  void RuleDeleteSubscr(const Instr& in) { LowerByCallRule(in); }
  void RuleStoreGlobal(const Instr& in) { LowerByCallRule(in); }
  void RuleDeleteGlobal(const Instr& in) { LowerDeleteGlobal(in); }
  void RuleImportName(const Instr& in) { LowerByCallRule(in); }
  void RuleImportFrom(const Instr& in) { LowerByCallRule(in); }
  void RuleGetLen(const Instr& in) { LowerByCallRule(in); }
  void RuleTypeFlags(const Instr& in) { LowerTypeFlags(in); }
  void RuleMatchKeys(const Instr& in) { LowerByCallRule(in); }
  void RuleMatchClass(const Instr& in) { LowerMatchClass(in); }
  void RuleLoadBuildClass(const Instr& in) { LowerByCallRule(in); }
  void RuleBeforeWith(const Instr& in) { LowerTwoResults(in); }
  void RuleFrameLasti(const Instr& in) { LowerCatch(in); }
  void RuleCatchException(const Instr& in) { LowerCatch(in); }
  void RulePushExcInfo(const Instr& in) { LowerByCallRule(in); }
  void RulePopExcept(const Instr& in) { LowerByCallRule(in); }
  void RuleCheckExcMatch(const Instr& in) { LowerByCallRule(in); }
  void RuleWithExceptStart(const Instr& in) { LowerByCallRule(in); }
  void RuleRaise(const Instr& in) { LowerRaise(in); }
  void RuleReraise(const Instr& in) { LowerReraise(in); }
  void RuleResumedAt(const Instr& in) { LowerResume(in); }
  void RuleLoadFrameStack(const Instr& in) { LowerResume(in); }
  void RuleResetStackTop(const Instr& in) { LowerResume(in); }
  void RuleClearLocals(const Instr&) { ClearLocalsPastParameters(); }
  void RuleGetAwaitable(const Instr& in) { LowerByCallRule(in); }
  void RuleGetAiter(const Instr& in) { LowerByCallRule(in); }
  void RuleGetAnext(const Instr& in) { LowerByCallRule(in); }
  void RuleGetYieldFromIter(const Instr& in) { LowerByCallRule(in); }
  void RuleSend(const Instr& in) { LowerTwoResults(in); }
  void RuleAsyncGenWrap(const Instr& in) { LowerByCallRule(in); }
  void RuleMakeGenerator(const Instr& in) { LowerMakeGenerator(in); }
  void RuleIncref(const Instr& in) { LowerReference(in); }
  void RuleDecref(const Instr& in) { LowerReference(in); }
  void RuleXDecref(const Instr& in) { LowerReference(in); }
  void RuleJump(const Instr& in) { LowerTerminator(in); }
  void RuleBranch(const Instr& in) { LowerTerminator(in); }
  void RuleReturn(const Instr& in) { LowerTerminator(in); }
  void RuleDeopt(const Instr& in) { LowerTerminator(in); }
  void RuleYield(const Instr& in) { LowerYield(in); }
  void RuleEnterInterpreter(const Instr&) { LowerEnterInterpreter(); }

  void LowerInstr(const Instr& in) {
    if (pending_result_check_ && in.op != Op::kCheckTracing) {  // CallResultCheck's promise
      throw std::logic_error(
          "lowering: a call's result test left for a CheckTracing that did not come");
    }
    if (fused_tail_.count(&in) != 0) return;  // LowerModuleAttrOfGlobal lowered it
    operand_types_ = {};  // what one instruction's int form loaded is for its own float form
    using Rule = void (Lowerer::*)(const Instr&);
    static constexpr Rule kRules[] = {
#define A64JIT_LOWER_RULE(name, ...) &Lowerer::Rule##name,
        A64JIT_HIR_OPS(A64JIT_LOWER_RULE)
#undef A64JIT_LOWER_RULE
    };
    (this->*kRules[static_cast<size_t>(in.op)])(in);
  }

  // ---- Exception handlers ----

  // A landing block's FrameLasti and CatchException read prev_instr, which the catch edge
  // set to the raising instruction: no SetPrevInstr here. On failure (or, for
  // CatchException, while tracing is on) the interpreter takes the frame there (kRaised).
  void LowerCatch(const Instr& in) {
    if (in.op == Op::kFrameLasti) {
      Call(Helper::a64_frame_lasti, {V(frame_)}, LirReg(in.dst));
    } else {
      Call(Helper::a64_catch_exception, {V(tstate_), V(frame_), Operand::Imm(in.imm == 0)},
           LirReg(in.dst));
    }
    DeoptIf(in, Cond::kEq, V(LirReg(in.dst)), Operand::Imm(0));
  }

  // RAISE_VARARGS 1 or 2: the helper sets the exception (consuming its operands), then the
  // error path: the handler's landing block, or the interpreter.
  void LowerRaise(const Instr& in) {
    SetPrevInstr(in.bc);
    const Operand cause = in.args.size() > 1 ? V(LirReg(in.args[1])) : Operand::Imm(0);
    CallVoid(Helper::a64_raise, {V(LirReg(in.args[0])), cause});
    EmitDeopt(in.state);
  }

  // RERAISE: the helper re-raises (setting prev_instr from the lasti entry, if any), then the
  // error path without a new traceback entry. While tracing, it does nothing and the
  // interpreter redoes the RERAISE with the stack as it was.
  void LowerReraise(const Instr& in) {
    const FrameState& st = in.state;
    const Operand lasti = in.imm > 0
                              ? V(LirReg(st.stack[st.stack.size() - static_cast<size_t>(in.imm)]))
                              : Operand::Imm(0);
    SetPrevInstr(in.bc);
    const int r = Call(Helper::a64_reraise, {V(tstate_), V(frame_), V(LirReg(in.args[0])), lasti},
                       -1, Type::kI64);
    FrameState redo = st;
    redo.kind = FrameState::Kind::kResume;
    redo.catch_block = -1;
    redo.stack.push_back(in.args[0]);
    redo.borrowed.resize(st.stack.size(), false);
    redo.borrowed.push_back(false);  // stolen by the op: the refcount pass made it owned
    DeoptIf(redo, Cond::kNe, V(r), Operand::Imm(0));
    prev_instr_known_ = -1;  // the lasti entry's offset
    EmitDeopt(st);
  }

  // ---- Cells, closures, deletions, generators (3.11's full function bodies) ----

  int64_t LocalOffset(int64_t local) const { return kLocalsPlus + 8 * local; }
  int64_t StackOffset(int64_t k) const {
    return kLocalsPlus + 8 * (int64_t{f_.code.nlocalsplus} + k);
  }

  // LOAD_DEREF, STORE_DEREF, DELETE_DEREF, DELETE_FAST: cells' contents and locals inline;
  // an empty cell or unbound local resumes the interpreter, which raises stock's error.
  void LowerCellOrDelete(const Instr& in) {
    if (in.op == Op::kDeleteLocal) {
      const int old = Load(V(frame_), LocalOffset(in.imm), Type::kPtr);
      DeoptIf(in, Cond::kEq, V(old), Operand::Imm(0));
      Store(V(Mov(Operand::Imm(0), Type::kPtr)), V(frame_), LocalOffset(in.imm), Type::kPtr);
      return Decref(old, false, in.bc);
    }
    const int cell = Load(V(frame_), LocalOffset(in.imm), Type::kPtr);
    constexpr int64_t kContents = offsetof(PyCellObject, ob_ref);
    if (in.op == Op::kLoadDeref) {
      Load(V(cell), kContents, Type::kPtr, LirReg(in.dst));
      DeoptIf(in, Cond::kEq, V(LirReg(in.dst)), Operand::Imm(0));
      return Incref(V(LirReg(in.dst)));
    }
    const int old = Load(V(cell), kContents, Type::kPtr);
    if (in.op == Op::kStoreDeref) {
      Store(V(LirReg(in.args[0])), V(cell), kContents, Type::kPtr);
      return Decref(old, true, in.bc);
    }
    DeoptIf(in, Cond::kEq, V(old), Operand::Imm(0));  // kDeleteDeref
    Store(V(Mov(Operand::Imm(0), Type::kPtr)), V(cell), kContents, Type::kPtr);
    Decref(old, false, in.bc);
  }

  // COPY_FREE_VARS n: the function's closure cells into its last n locals, where 3.11's
  // compiler puts the free variables (hir/passes.cc marks them bound), each with a new
  // reference: one load, increment and store a cell, where a64_copy_free_vars was a call.
  void LowerCopyFreeVars(const Instr& in) {
    const int func = Load(V(frame_), offsetof(_PyInterpreterFrame, f_func), Type::kPtr);
    const int closure = Load(V(func), offsetof(PyFunctionObject, func_closure), Type::kPtr);
    const int64_t first = f_.code.nlocalsplus - in.imm;
    for (int64_t i = 0; i < in.imm; i++) {
      const int cell = Load(V(closure), offsetof(PyTupleObject, ob_item) + 8 * i, Type::kPtr);
      Incref(V(cell));
      Store(V(cell), V(frame_), LocalOffset(first + i), Type::kPtr);
    }
  }

  // One helper call as the op's row in call_rules.h says.
  void LowerByCallRule(const Instr& in) {
    const CallRule* rule = CallRuleFor(in.op);
    if (rule == nullptr)
      throw std::logic_error(std::string("lowering: no call rule for ") + hir::OpName(in.op));
    lir::Operands args;
    if (rule->lead == Lead::kThread) args.push_back(V(tstate_));
    if (rule->lead == Lead::kFrame || rule->lead == Lead::kFrameName) args.push_back(V(frame_));
    if (rule->lead == Lead::kFrameName) args.push_back(Imm(Name(in.imm)));
    for (int a : in.args) args.push_back(V(LirReg(a)));
    if (rule->tail == Tail::kName || rule->tail == Tail::kNameNull) {
      args.push_back(Imm(Name(in.imm)));
    }
    if (rule->tail == Tail::kImm) args.push_back(Operand::Imm(in.imm));
    if (rule->tail == Tail::kNameNull) args.push_back(Operand::Imm(0));
    if (rule->tail == Tail::kNullPad) {
      while (static_cast<int>(args.size()) < runtime::HelperArity(rule->helper)) {
        args.push_back(Operand::Imm(0));
      }
    }
    if (rule->outcome == Outcome::kObject) return CallChecked(in, rule->helper, std::move(args));
    if (rule->outcome == Outcome::kStatus) {
      CallInt(in, rule->helper, std::move(args), in.dst >= 0 ? LirReg(in.dst) : -1);
      return;
    }
    SetPrevInstr(in.bc);
    if (rule->outcome == Outcome::kValue) {
      Call(rule->helper, std::move(args), LirReg(in.dst));
      return;
    }
    CallVoid(rule->helper, std::move(args));
  }

  // DELETE_GLOBAL: a missing name resumes the interpreter, which raises NameError.
  void LowerDeleteGlobal(const Instr& in) {
    const int r = CallInt(in, Helper::a64_delete_global, {V(frame_), Imm(Name(in.imm))});
    ResumeIfOne(in, V(r));
  }

  // MATCH_MAPPING, MATCH_SEQUENCE: a flag of the subject's type.
  void LowerTypeFlags(const Instr& in) {
    const int type = Load(V(LirReg(in.args[0])), offsetof(PyObject, ob_type), Type::kPtr);
    const int flags = Load(V(type), offsetof(PyTypeObject, tp_flags), Type::kI64);
    const int bit = Binary(lir::Op::kAnd, V(flags), Operand::Imm(in.imm), Type::kI64);
    Compare(V(bit), Operand::Imm(0), Cond::kNe, LirReg(in.dst));
  }

  void LowerMatchClass(const Instr& in) {
    CallChecked(in, Helper::a64_match_class,
                {V(LirReg(in.args[0])), V(LirReg(in.args[1])), Operand::Imm(in.imm),
                 V(LirReg(in.args[2]))});
  }

  // BEFORE_WITH (exit, enter) and SEND (value, 1 yielded / 0 returned): results through
  // the scratch slot.
  void LowerTwoResults(const Instr& in) {
    const int p = ScratchAddr();
    if (in.op == Op::kBeforeWith) {
      CallStatus(in, Helper::a64_before_with, {V(LirReg(in.args[0])), V(p), Operand::Imm(in.imm)});
      Load(V(p), 0, Type::kPtr, LirReg(in.dst));
      Load(V(p), 8, Type::kPtr, LirReg(in.dst2));
      return;
    }
    CallInt(in, Helper::a64_send, {V(LirReg(in.args[0])), V(LirReg(in.args[1])), V(p)},
            LirReg(in.dst2));
    Load(V(p), 0, Type::kPtr, LirReg(in.dst));
  }

  // The locals past the parameters start NULL. Every caller has made them so but the guest
  // call stub (call_stub.h), which leaves them to these stores: no loop there.
  void ClearLocalsPastParameters() {
    for (int i = f_.code.nargs; i < f_.code.nlocalsplus; i++) {
      Store(Operand::Imm(0), V(frame_), kLocalsPlus + 8 * int64_t{i}, Type::kPtr);
    }
  }

  // A generator's entry: where it was suspended, and its stack taken over from the frame.
  void LowerResume(const Instr& in) {
    if (in.op == Op::kResumedAt) {
      const int prev = Load(V(frame_), kPrevInstr, Type::kPtr);
      const int at = Binary(lir::Op::kAdd, V(first_instr_), Operand::Imm(2 * in.imm), Type::kPtr);
      Compare(V(prev), V(at), Cond::kEq, LirReg(in.dst));
      return;
    }
    if (in.op == Op::kLoadFrameStack) {
      Load(V(frame_), StackOffset(in.imm), Type::kPtr, LirReg(in.dst));
      return;
    }
    const int top = Mov(Operand::Imm(f_.code.nlocalsplus), Type::kI32);  // kResetStackTop
    Store(V(top), V(frame_), kStackTop, Type::kI32);
  }

  // YIELD_VALUE as ceval.c does it: the stack into the frame, prev_instr at the yield, the
  // generator marked suspended; the caller (gen_send_ex2) gets the value.
  void LowerYield(const Instr& in) {
    const FrameState& st = in.state;
    for (size_t i = 0; i < st.stack.size(); i++) {
      const int v = LirReg(st.stack[i]);
      if (i < st.borrowed.size() && st.borrowed[i]) Incref(V(v));
      Store(V(v), V(frame_), StackOffset(static_cast<int64_t>(i)), Type::kPtr);
    }
    const int top =
        Mov(Operand::Imm(f_.code.nlocalsplus + static_cast<int64_t>(st.stack.size())), Type::kI32);
    Store(V(top), V(frame_), kStackTop, Type::kI32);
    SetPrevInstr(st.bc);
    constexpr int64_t kFrameState = static_cast<int64_t>(offsetof(PyGenObject, gi_frame_state)) -
                                    static_cast<int64_t>(offsetof(PyGenObject, gi_iframe));
    const int suspended = Mov(Operand::Imm(FRAME_SUSPENDED), Type::kI8);
    Store(V(suspended), V(frame_), kFrameState, Type::kI8);
    Ret(V(LirReg(in.args[0])));
  }

  // RETURN_GENERATOR; when the helper declines (coroutine origin tracking), the
  // interpreter redoes the instruction.
  void LowerMakeGenerator(const Instr& in) {
    CallChecked(in, Helper::a64_make_generator, {V(tstate_), V(frame_)});
    ResumeIfOne(in, V(LirReg(in.dst)));
  }

  // Where the interpreter tests its eval breaker and, through the opcode it dispatches on,
  // tracing: one word of each (interp->ceval.eval_breaker, tstate->cframe->use_tracing) on
  // the fast path, in one guard (SlowIfEither); the helper only when either is set, in a cold
  // block. At RESUME (imm 1) only the breaker: the way in tested tracing a moment ago.
  void LowerCheckEvalBreaker(const Instr& in) {
    if (rt_.eval_breaker == 0) return;
    const int address = Mov(Imm(rt_.eval_breaker), Type::kPtr);
    const int breaker = Load(V(address), 0, Type::kI32);
    const int slow = ColdBlock();
    if (in.imm == 1) {
      SlowIf(Cond::kNe, Type::kI32, V(breaker), Operand::Imm(0), slow);
    } else {  // the i8 flag first: an either branch's second pair is 32 bits or more
      lir::Instr br = BrInstr(Cond::kNe, Type::kI8, V(LoadUseTracing()), Operand::Imm(0), slow, -1);
      EmitEither(std::move(br), Cond::kNe, Type::kI32, V(breaker), Operand::Imm(0), in.bc);
    }
    const int cont = cur_;
    const int known = prev_instr_known_;
    cur_ = slow;
    SetPrevInstr(in.bc);  // a signal handler's frame argument shows this line
    const int r = Call(Helper::a64_eval_breaker, {V(tstate_)}, -1, Type::kI64);
    FrameState raise = in.state;  // a handler's exception raises at this instruction
    raise.kind = FrameState::Kind::kError;
    raise.bc = in.bc;
    DeoptIf(raise, Cond::kSlt, V(r), Operand::Imm(0));
    ResumeIfOne(in, V(r));
    Jmp(cont);
    cur_ = cont;
    prev_instr_known_ = known != in.bc ? -1 : known;
  }

  void LowerCheckTracing(const Instr& in) {
    if (rt_.eval_breaker == 0) return;  // no interpreter state (LIR-level tests)
    if (!pending_result_check_) {
      return DeoptIf(in, Cond::kNe, V(LoadUseTracing()), Operand::Imm(0), Type::kI8);
    }
    // The call's error exit is made here, while the CheckTracing is being lowered: its deopt
    // site comes out the same (the builder gives both instructions the CALL's code unit, and
    // an error exit's reason is kException for both).
    const ResultCheck call = *pending_result_check_;
    pending_result_check_.reset();
    const int either = ColdBlock();
    EmitEitherBranch(
        BrInstr(Cond::kNe, Type::kI8, V(LoadUseTracing()), Operand::Imm(0), either, -1), Cond::kEq,
        Type::kPtr, V(call.value), Operand::Imm(0));
    const int cont = cur_;
    cur_ = either;
    if (const int64_t error = MergeableErrorExit(call.state, call.value, in.state); error >= 0) {
      // One exit for both: the result (NULL or not) goes to the frame with the rest, and the
      // runtime takes the call's error exit when it is NULL (DeoptSite::code_if_top_null).
      cold_[static_cast<size_t>(either)] = 1;
      EmitDeopt(in.state, error);
      cur_ = cont;
      return;
    }
    Emit(BrInstr(Cond::kEq, Type::kI64, V(call.value), Operand::Imm(0), -1, -1));
    // The exits after the test that picks one, so that it falls into one of them (LayOutBlocks
    // keeps a group's cold blocks in the order their code began).
    const int error = DeoptBlock(call.state), tracing = DeoptBlock(in.state);
    int* targets = out_.blocks[static_cast<size_t>(either)].instrs.back().targets;
    targets[0] = error;
    targets[1] = tracing;
    cur_ = cont;
  }

  // The call's error exit as a site only, when the tracing exit after it can stand for it:
  // the error leaves the function for the interpreter (no compiled handler), and the tracing
  // state's stack is the error state's, entry for entry and borrowed alike, with the call's
  // result on top. Its deopt code, or -1.
  int64_t MergeableErrorExit(const FrameState& error, int value, const FrameState& tracing) {
    if (error.kind != FrameState::Kind::kError || error.catch_block >= 0 ||
        tracing.kind != FrameState::Kind::kResume ||
        tracing.stack.size() != error.stack.size() + 1 || LirReg(tracing.stack.back()) != value ||
        (tracing.stack.size() <= tracing.borrowed.size() && tracing.borrowed.back()) ||
        !StackBeginsWith(tracing, error)) {
      return -1;
    }
    if (!Take(decisions_, Decision::kLowerMergedCallExit, error.bc)) return -1;
    return static_cast<int64_t>(AddDeoptSite(error, false));
  }
  // Whether stack entry `i` of `st` holds a borrowed reference.
  static bool Borrowed(const FrameState& st, size_t i) {
    return i < st.borrowed.size() && st.borrowed[i];
  }
  // Whether `longer`'s stack begins with `shorter`'s, entry for entry and borrowed alike.
  static bool StackBeginsWith(const FrameState& longer, const FrameState& shorter) {
    if (longer.stack.size() < shorter.stack.size()) return false;
    for (size_t i = 0; i < shorter.stack.size(); i++) {
      if (longer.stack[i] != shorter.stack[i] || Borrowed(longer, i) != Borrowed(shorter, i)) {
        return false;
      }
    }
    return true;
  }

  // tstate->cframe->use_tracing: non-zero while sys.settrace or sys.setprofile is on.
  int LoadUseTracing() {
    const int cframe = cframe_ >= 0 ? cframe_ : Load(V(tstate_), kThreadCFrame, Type::kPtr);
    return Load(V(cframe), kUseTracing, Type::kI8);
  }
  // tstate->cframe, loaded once at the entry (and at each resume of a generator, which
  // enters there) when more than one tracing test would load it: it stays the same while
  // this activation runs (whoever runs other code puts its own back before returning).
  void HoistCFrame() {
    if (rt_.eval_breaker == 0) return;  // no tracing tests (LIR-level tests)
    const int tests = CountInstrs([](Op op) { return op == Op::kCheckTracing; });
    if (tests > 1) cframe_ = Load(V(tstate_), kThreadCFrame, Type::kPtr);
  }

  // The interpreter takes the frame exactly as it is.
  void LowerEnterInterpreter() {
    DeoptSite site;
    site.keep_frame = true;
    site.bc = lowering_ != nullptr ? lowering_->bc : -1;
    site.reason = DeoptReason::kGenerator;
    const uint64_t code = (deopt_sites_->size() << 2) | kDeoptResume;
    deopt_sites_->push_back(std::move(site));
    Ret(Imm(code));
  }

  void LowerFrameValue(const Instr& in) {
    if (in.op == Op::kLoadLocal) {
      Load(V(frame_), kLocalsPlus + 8 * in.imm, Type::kPtr, LirReg(in.dst));
      if (in.checked) DeoptIf(in, Cond::kEq, V(LirReg(in.dst)), Operand::Imm(0));
    } else if (in.op == Op::kStoreLocal) {
      LowerStoreLocal(in);
    } else if (in.op == Op::kLoadConst) {
      Mov(Imm(Const(in.imm)), Type::kPtr, LirReg(in.dst));
    } else {
      Mov(Operand::Imm(0), Type::kPtr, LirReg(in.dst));
    }
  }

  // locals[imm] = the value, the old one released (not NULL where the local is bound).
  void LowerStoreLocal(const Instr& in) {
    if (fused_stores_.count(&in) != 0) return;  // the BINARY_OP stored (BoxFloatResult)
    const int old = Load(V(frame_), LocalOffset(in.imm), Type::kPtr);
    Store(V(LirReg(in.args[0])), V(frame_), LocalOffset(in.imm), Type::kPtr);
    // A float made in place (BoxFloatResult) leaves the old one alive: no free-list path.
    const bool float_like =
        float_like_locals_.count(in.imm) != 0 && in_place_floats_.count(in.args[0]) == 0;
    Decref(old, !in.bound, in.bc, float_like);
  }

  void LowerCall(const Instr& in) {
    if (in.kwnames >= 0) {
      const int p = Spill(in.args);
      return CallChecked(in, Helper::a64_call,
                         {V(tstate_), V(p), Operand::Imm(in.imm), Imm(Const(in.kwnames))});
    }
    const KnownCall known = known_calls_.Of(in);
    if (known == KnownCall::kMethodDescriptor) {
      // Both paths use one CCallCache: the stub's call fills what the inline path reads.
      auto* cache =
          rt_.call_stub != 0 ? reinterpret_cast<runtime::CCallCache*>(NewSiteCache(&in)) : nullptr;
      if (cache == nullptr || rt_.eval_breaker == 0) return CallGeneric(in, cache);
      return FastOrGeneric(
          Decision::kLowerMethodDescriptorCall, in,
          [&](int slow) { InlineMethodDescriptorCall(in, cache, slow); },
          [&] { CallGeneric(in, cache); });
    }
    if (KnownCallInline(known)) {
      return FastOrGeneric(
          Decision::kLowerKnownCall, in, [&](int slow) { LowerKnownCall(in, known, slow); },
          [&] { CallGeneric(in); });
    }
    CallGeneric(in);
  }

  // CALL without keywords. The call stub makes the call: a C function through the site's
  // CCallCache (`c_call`, or a new one), a compiled callee without a host frame between (and
  // under Unicorn without nested emulation). Without it, the host helper.
  void CallGeneric(const Instr& in, runtime::CCallCache* c_call = nullptr) {
    const int p = Spill(in.args);
    const int dst = LirReg(in.dst);
    if (rt_.call_stub != 0 && c_call == nullptr) {
      c_call = reinterpret_cast<runtime::CCallCache*>(NewSiteCache(&in));  // argc in its header
    }
    if (rt_.call_stub != 0 && c_call != nullptr) {  // the stub takes no site without a cache
      // The stub stores prev_instr from the cache's header: two or three instructions fewer a
      // site (the stdlib functions have 10,000), and two more run a C call.
      const int tagged = SiteAddress(
          c_call, IsNullReg(in.args[0]) ? 0 : static_cast<int64_t>(runtime::kCCallMethodShape));
      // By name: a direct call when the stub is in range (an indirect one costs a lookup
      // under QEMU and a literal and a register here).
      Mov(V(CallNamed(kCallStubName, {V(tstate_), V(p), V(tagged)}, Type::kI64)), Type::kPtr, dst);
    } else {
      SetPrevInstr(in.bc);
      Call(Helper::a64_call, {V(tstate_), V(p), Operand::Imm(in.imm), Operand::Imm(0)}, dst);
    }
    prev_instr_known_ = -1;
    CallResultCheck(in, dst);
  }

  // A call's result `dst` NULL: its error exit. When the CheckTracing that follows every call
  // comes next, decision lower.guard-pair leaves the test to it, which tests both in one
  // branch (a cold block then tells them apart).
  void CallResultCheck(const Instr& in, int dst) {
    if (next_ != nullptr && next_->op == Op::kCheckTracing && rt_.eval_breaker != 0 &&
        Take(decisions_, Decision::kLowerGuardPair, in.bc)) {
      pending_result_check_ = ResultCheck{in.state, dst};
      return;
    }
    DeoptIf(in, Cond::kEq, V(dst), Operand::Imm(0));
  }

  bool KnownCallInline(KnownCall known) const {
    switch (known) {
      case KnownCall::kNone:
      case KnownCall::kMethodDescriptor:  // LowerCall's own case
        return false;
      case KnownCall::kLen:
        return rt_.builtin_len != 0 && rt_.py_list_type != 0 && rt_.py_tuple_type != 0 &&
               rt_.py_str_type != 0;
      case KnownCall::kIsInstance:
        return rt_.builtin_isinstance != 0;
      case KnownCall::kListAppend:
        return rt_.list_append != 0 && rt_.py_list_type != 0;
      case KnownCall::kOrd:
        return rt_.builtin_ord != 0 && rt_.py_str_type != 0 && rt_.small_int_zero != 0;
      case KnownCall::kChr:
        return rt_.builtin_chr != 0 && rt_.ascii_char_zero != 0 && rt_.py_long_type != 0;
      case KnownCall::kIntOf:
        return rt_.py_long_type != 0;
      case KnownCall::kStrOf:
        return rt_.py_str_type != 0;
    }
    return false;
  }

  // The inline form of a known call (known_calls.h) into in.dst, taking the references of
  // in.args; `slow` (the generic call, with every reference still held) when the callable is
  // not the one expected or the arguments are not ones the inline form handles.
  void LowerKnownCall(const Instr& in, KnownCall known, int slow) {
    switch (known) {
      case KnownCall::kNone:
      case KnownCall::kMethodDescriptor:
        break;
      case KnownCall::kLen:
        return InlineLen(in, slow);
      case KnownCall::kIsInstance:
        return InlineIsInstance(in, slow);
      case KnownCall::kListAppend:
        return InlineListAppend(in, slow);
      case KnownCall::kOrd:
        return InlineOrd(in, slow);
      case KnownCall::kChr:
        return InlineChr(in, slow);
      case KnownCall::kIntOf:
        return InlineConversion(in, rt_.py_long_type, slow);
      case KnownCall::kStrOf:
        return InlineConversion(in, rt_.py_str_type, slow);
    }
  }

  // The callable's reference, released without a test: the runtime holds one more
  // (code_info.cc), so this one is never the last.
  void ReleaseHeld(Operand obj) {
    const int rc = Load(obj, 0, Type::kI64);
    Binary(lir::Op::kSub, V(rc), Operand::Imm(1), Type::kI64, rc);
    Store(V(rc), obj, 0, Type::kI64);
  }

  // len(x) for an exact list, tuple or (ready) str: their lengths are all the word after
  // the object header (ob_size, PyASCIIObject.length).
  void InlineLen(const Instr& in, int slow) {
    static_assert(offsetof(PyVarObject, ob_size) == 16 && offsetof(PyASCIIObject, length) == 16,
                  "one load reads the length of all three");
    const Operand callable = V(LirReg(in.args[1]));
    const int x = LirReg(in.args[2]);
    SlowIf(Cond::kNe, Type::kI64, callable, Imm(rt_.builtin_len), slow);
    const int type = Load(V(x), offsetof(PyObject, ob_type), Type::kPtr);
    const int have = NewBlock(), is_str = NewBlock(), not_str = NewBlock();
    Br(Cond::kEq, V(type), Imm(rt_.py_str_type), is_str, not_str);
    cur_ = is_str;
    const int state = Load(V(x), offsetof(PyASCIIObject, state), Type::kI32);
    const int ready = Binary(lir::Op::kAnd, V(state), Operand::Imm(StrReadyBit()), Type::kI32);
    SlowIf(Cond::kEq, Type::kI32, V(ready), Operand::Imm(0), slow);
    Jmp(have);
    cur_ = not_str;
    const int not_list = NewBlock();
    Br(Cond::kEq, V(type), Imm(rt_.py_list_type), have, not_list);
    cur_ = not_list;
    SlowIf(Cond::kNe, Type::kI64, V(type), Imm(rt_.py_tuple_type), slow);
    Jmp(have);
    cur_ = have;
    const int n = Load(V(x), offsetof(PyVarObject, ob_size), Type::kI64);
    Decref(x, false, in.bc);
    ReleaseHeld(callable);
    BoxInt(in, n);
  }

  // PyASCIIObject.state's `ready` bit, as a mask of the 32-bit word that holds it.
  static int64_t StrReadyBit() { return StrStateMask(false); }
  // Its `ready`, `compact` and `ascii` bits: the characters are bytes after the header.
  static int64_t StrCompactAsciiBits() { return StrStateMask(true); }
  static int64_t StrStateMask(bool compact_ascii) {
    PyASCIIObject probe{};
    probe.state.ready = 1;
    probe.state.compact = compact_ascii ? 1 : 0;
    probe.state.ascii = compact_ascii ? 1 : 0;
    uint32_t word = 0;
    std::memcpy(&word, &probe.state, sizeof(word));
    return word;
  }

  // The int value `v` into in.dst: one of the small ints (a new reference) from kSmallIntMin
  // to kSmallIntMax, else a64_box_int's.
  void BoxInt(const Instr& in, int v) {
    if (rt_.small_int_zero == 0) return CallChecked(in, Helper::a64_box_int, {V(v)});
    const auto target = store_targets_.find(in.dst);
    bool small_ints_taken = false;
    FastOrGeneric(
        Decision::kLowerSmallIntBox, in,
        [&](int big) {
          // one unsigned compare: v - kSmallIntMin wraps past the range for v < kSmallIntMin
          const int index = Binary(lir::Op::kSub, V(v), Operand::Imm(kSmallIntMin), Type::kI64);
          SlowIf(Cond::kUgt, Type::kI64, V(index), Operand::Imm(kSmallIntMax - kSmallIntMin), big);
          SmallInt(v, LirReg(in.dst));
          small_ints_taken = true;
        },
        [&] {
          // A result the next instruction stores into a local (store_targets_) may be made in
          // the local's old int (ReuseInt). Asked after the small-int form, so that
          // a limit declining that one declines this one too.
          if (small_ints_taken && target != store_targets_.end() &&
              Take(decisions_, Decision::kLowerIntStoreInPlace, in.bc)) {
            return ReuseInt(in, v, *target->second.store, target->second.local_operand);
          }
          CallChecked(in, Helper::a64_box_int, {V(v)});
        });
  }

  // in.dst = the int `v` (past the small ints) made in the local's old int. Where that int is
  // an operand (`n = n + 1`: OperandHoldingLocal), it passed the int guards, so it is an exact
  // int of at most one digit (a zero of none is the small int, never held by one), and
  // a64_box_int_reusing's work is inline: when only the local holds it and `v` fits one
  // digit, its size and digit are written and its count set to 2 (the local's and the
  // result's; the store's release takes one). About 25 guest instructions fewer than the
  // helper's call. Otherwise it is a new int (a64_box_int), out of line: the tests are the
  // helper's, which would find nothing to reuse either. Any other store target (`x = a + b`,
  // a range loop's variable) calls the helper, which tests the local's value itself: inline,
  // those tests made the stdlib's code 1% larger for a fifth of the gain.
  void ReuseInt(const Instr& in, int v, const Instr& store, int local_operand) {
    if (local_operand < 0) {  // only a BINARY_OP's target has one (FindLoopTarget's: none)
      const int slot =
          Binary(lir::Op::kAdd, V(frame_), Operand::Imm(LocalOffset(store.imm)), Type::kPtr);
      return CallChecked(in, Helper::a64_box_int_reusing, {V(v), V(slot)});
    }
    constexpr int64_t kDigitMax = (int64_t{1} << 30) - 1;
    const int call = ColdBlock(), done = NewBlock();
    const int known = prev_instr_known_;
    const int old = LirReg(in.args[static_cast<size_t>(local_operand)]);
    const int biased = Binary(lir::Op::kAdd, V(v), Operand::Imm(kDigitMax), Type::kI64);
    const int count = Load(V(old), offsetof(PyObject, ob_refcnt), Type::kI64);
    SlowIfEither(Cond::kNe, Type::kI64, V(count), Operand::Imm(1), Cond::kUgt, V(biased),
                 Operand::Imm(2 * kDigitMax), call, in.bc);
    // sign = -1 or 0 (v >> 63); the size is sign | 1 and the digit |v| = (v ^ sign) - sign
    const int sign = Binary(lir::Op::kAShr, V(v), Operand::Imm(63), Type::kI64);
    Store(V(Binary(lir::Op::kOr, V(sign), Operand::Imm(1), Type::kI64)), V(old),
          offsetof(PyVarObject, ob_size), Type::kI64);
    const int magnitude = Binary(lir::Op::kSub, V(Binary(lir::Op::kXor, V(v), V(sign), Type::kI64)),
                                 V(sign), Type::kI64);
    Store(V(Truncate(magnitude, Type::kI32)), V(old), offsetof(PyLongObject, ob_digit), Type::kI32);
    Store(Operand::Imm(2), V(old), offsetof(PyObject, ob_refcnt), Type::kI64);
    Mov(V(old), Type::kPtr, LirReg(in.dst));
    Jmp(done);
    cur_ = call;
    prev_instr_known_ = known;
    CallChecked(in, Helper::a64_box_int, {V(v)});
    Jmp(done);
    Join(done, known, in.bc);
  }

  // dst = the small int whose value `v` is known to be in range, a new reference.
  void SmallInt(int v, int dst) {
    static_assert(kSmallIntStride == 32, "a shift by 5");
    const int offset = Binary(lir::Op::kShl, V(v), Operand::Imm(5), Type::kI64);
    Binary(lir::Op::kAdd, V(offset), Imm(rt_.small_int_zero), Type::kPtr, dst);
    Incref(V(dst));
  }

  // ord(c) of an exact str of one ASCII character (compact: its bytes follow the header).
  void InlineOrd(const Instr& in, int slow) {
    const Operand callable = V(LirReg(in.args[1]));
    const int c = LirReg(in.args[2]);
    SlowIf(Cond::kNe, Type::kI64, callable, Imm(rt_.builtin_ord), slow);
    const int type = Load(V(c), offsetof(PyObject, ob_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_str_type), slow);
    const int length = Load(V(c), offsetof(PyASCIIObject, length), Type::kI64);
    SlowIf(Cond::kNe, Type::kI64, V(length), Operand::Imm(1), slow);
    RequireCompactAscii(V(c), slow);
    const int byte = Load(V(c), sizeof(PyASCIIObject), Type::kI8);
    const int code = ZExt(V(byte));
    Decref(c, false, in.bc);
    ReleaseHeld(callable);
    SmallInt(code, LirReg(in.dst));
  }

  // chr(i) for a small int 0 <= i < 128: the interpreter's own one-character str.
  void InlineChr(const Instr& in, int slow) {
    const Operand callable = V(LirReg(in.args[1]));
    const int i = LirReg(in.args[2]);
    SlowIf(Cond::kNe, Type::kI64, callable, Imm(rt_.builtin_chr), slow);
    const Operand value = SmallIntOperand(in.args[2], slow);
    const int code = value.is_vreg() ? value.vreg : Mov(value, Type::kI64);
    SlowIf(Cond::kUgt, Type::kI64, V(code), Operand::Imm(127), slow);
    AsciiChar(code, LirReg(in.dst));
    Decref(i, false, in.bc);
    ReleaseHeld(callable);
  }

  // `s` is an exact str, compact and ASCII (its bytes follow the header), or a jump to `slow`.
  void RequireAsciiStr(Operand s, int slow) {
    const int type = Load(s, offsetof(PyObject, ob_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_str_type), slow);
    RequireCompactAscii(s, slow);
  }
  // A str's `state` has its ready, compact and ascii bits (its characters are the bytes after
  // the header), else a jump to `slow`.
  void RequireCompactAscii(Operand s, int slow) {
    const int state = Load(s, offsetof(PyASCIIObject, state), Type::kI32);
    const int64_t bits = StrCompactAsciiBits();
    const int has = Binary(lir::Op::kAnd, V(state), Operand::Imm(bits), Type::kI32);
    SlowIf(Cond::kNe, Type::kI32, V(has), Operand::Imm(bits), slow);
  }

  // dst = the interpreter's own one-character str for `code` (known to be below 128), a new
  // reference.
  void AsciiChar(int code, int dst) {
    const int offset =
        Binary(lir::Op::kMul, V(code), Operand::Imm(rt_.ascii_char_stride), Type::kI64);
    Binary(lir::Op::kAdd, V(offset), Imm(rt_.ascii_char_zero), Type::kPtr, dst);
    Incref(V(dst));
  }

  // isinstance(x, cls): True for x exactly of type cls, else a64_isinstance (what the
  // builtin calls after parsing its arguments, PyObject_IsInstance, with its __class__
  // lookup skipped where that can only find type(x)).
  void InlineIsInstance(const Instr& in, int slow) {
    const Operand callable = V(LirReg(in.args[1]));
    const int x = LirReg(in.args[2]), cls = LirReg(in.args[3]);
    SlowIf(Cond::kNe, Type::kI64, callable, Imm(rt_.builtin_isinstance), slow);
    const int type = Load(V(x), offsetof(PyObject, ob_type), Type::kPtr);
    const int result = out_.NewVReg(Type::kI64);
    const int exact = NewBlock(), other = NewBlock(), done = NewBlock();
    Br(Cond::kEq, V(type), V(cls), exact, other);
    cur_ = exact;
    Mov(Operand::Imm(1), Type::kI64, result);
    Jmp(done);
    cur_ = other;
    SetPrevInstr(in.bc);
    SExtInt(Call(Helper::a64_isinstance, {V(x), V(cls)}, -1, Type::kI64), result);
    Jmp(done);
    cur_ = done;
    prev_instr_known_ = -1;
    Decref(x, false, in.bc);
    Decref(cls, false, in.bc);
    ReleaseHeld(callable);
    const auto test = truth_tests_.find(&in);
    if (test != truth_tests_.end()) {  // 0 or 1, answered by the types: the IsTrue's int
      const int pure = NewBlock(), ran_code = NewBlock(), after = NewBlock();
      Br(Cond::kUlt, V(result), Operand::Imm(runtime::kIsInstanceRanCode), pure, ran_code);
      cur_ = pure;
      Mov(V(result), Type::kI64, LirReg(test->second.is_true->dst));
      Jmp(after);
      rejoin_after_[test->second.release] = after;
      cur_ = ran_code;
    }
    DeoptIf(in, Cond::kSlt, V(result), Operand::Imm(0));  // the references are released
    const int answer = Binary(lir::Op::kAnd, V(result), Operand::Imm(1), Type::kI64);
    Select(V(answer), Imm(rt_.py_true), Imm(rt_.py_false), Type::kPtr, LirReg(in.dst));
    Incref(V(LirReg(in.dst)));
  }

  // isinstance(x, cls) that only an `if` reads: the Call, the CheckTracing after it, an IsTrue
  // of its result and the result's release, in a row, the result read by nothing else. Where
  // the types alone answer (an exact match, or a64_isinstance without PyObject_IsInstance), no
  // other code ran, so InlineIsInstance gives the IsTrue its int and goes past the other three:
  // no bool made, tested and released, and no tracing test, as 3.11's PRECALL_NO_KW_ISINSTANCE
  // tests no eval breaker either. Any other outcome makes the bool and runs the three.
  void FindIsInstanceTests(const std::vector<int>& defs, const std::vector<int>& reads) {
    for (const Block& b : f_.blocks) {
      for (size_t i = 0; i + 3 < b.instrs.size(); i++) {
        const Instr &call = b.instrs[i], &check = b.instrs[i + 1], &is_true = b.instrs[i + 2],
                    &release = b.instrs[i + 3];
        const int r = call.dst;
        if (call.op != Op::kCall || r < 0 || known_calls_.Of(call) != KnownCall::kIsInstance ||
            defs.at(static_cast<size_t>(r)) != 1 || check.op != Op::kCheckTracing ||
            is_true.op != Op::kIsTrue || is_true.args[0] != r || release.op != Op::kDecref ||
            release.args[0] != r ||
            reads.at(static_cast<size_t>(r)) !=
                check.Reads(r) + is_true.Reads(r) + release.Reads(r) ||
            !Take(decisions_, Decision::kLowerIsinstanceTest, call.bc)) {
          continue;
        }
        truth_tests_[&call] = TruthTest{&is_true, &release};
      }
    }
  }

  // int(x) or str(x), `type` being the callable expected (&PyLong_Type, &PyUnicode_Type; a
  // static type, never freed): x itself when it is exactly of that type (its reference is
  // the result), else the conversion the type's tp_new makes of one positional argument
  // (a64_int_of, PyObject_Str), without the argument tuple and parsing of a type call.
  void InlineConversion(const Instr& in, uint64_t type, int slow) {
    const Operand callable = V(LirReg(in.args[1]));
    const int x = LirReg(in.args[2]), dst = LirReg(in.dst);
    SlowIf(Cond::kNe, Type::kI64, callable, Imm(type), slow);
    const int x_type = Load(V(x), offsetof(PyObject, ob_type), Type::kPtr);
    const int same = NewBlock(), other = NewBlock(), done = NewBlock();
    Br(Cond::kEq, V(x_type), Imm(type), same, other);
    cur_ = same;
    Mov(V(x), Type::kPtr, dst);
    Jmp(done);
    cur_ = other;
    SetPrevInstr(in.bc);
    if (type == rt_.py_long_type) {
      Call(Helper::a64_int_of, {V(tstate_), V(x)}, dst);
    } else {
      Call(Helper::PyObject_Str, {V(x)}, dst);
    }
    Decref(x, false, in.bc);
    Jmp(done);
    cur_ = done;
    prev_instr_known_ = -1;
    ReleaseHeld(callable);
    DeoptIf(in, Cond::kEq, V(dst), Operand::Imm(0));  // the references are released
  }

  // list.append(x) on an exact list with room for one more item (3.11's
  // _PyList_AppendTakeRef): the item's reference moves into the list; the result is None.
  void InlineListAppend(const Instr& in, int slow) {
    const Operand method = V(LirReg(in.args[0]));
    const int self = LirReg(in.args[1]);
    const Operand item = V(LirReg(in.args[2]));
    SlowIf(Cond::kNe, Type::kI64, method, Imm(rt_.list_append), slow);
    const int type = Load(V(self), offsetof(PyObject, ob_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_list_type), slow);
    AppendInPlace(V(self), item, false, slow);
    Decref(self, false, in.bc);
    ReleaseHeld(method);
    Mov(Imm(rt_.py_none), Type::kPtr, LirReg(in.dst));
    Incref(V(LirReg(in.dst)));
  }

  // list.append(item) when the exact list `list` has room, else a jump to `slow`: the item
  // stored after the last, with a new reference when `incref` (else the caller's moves in).
  void AppendInPlace(Operand list, Operand item, bool incref, int slow) {
    const int size = Load(list, offsetof(PyVarObject, ob_size), Type::kI64);
    const int allocated = Load(list, offsetof(PyListObject, allocated), Type::kI64);
    SlowIf(Cond::kSge, Type::kI64, V(size), V(allocated), slow);
    if (incref) Incref(item);
    const int items = Load(list, offsetof(PyListObject, ob_item), Type::kPtr);
    const int offset = Binary(lir::Op::kShl, V(size), Operand::Imm(3), Type::kI64);
    Store(item, V(Binary(lir::Op::kAdd, V(items), V(offset), Type::kPtr)), 0, Type::kPtr);
    Store(V(Binary(lir::Op::kAdd, V(size), Operand::Imm(1), Type::kI64)), list,
          offsetof(PyVarObject, ob_size), Type::kI64);
  }

  // A method descriptor's call (KnownCall::kMethodDescriptor) inline: what the call stub's C
  // path does (call_stub.cc, bb1-bb10) for the descriptor `cache` holds, without the stub's
  // prologue, argument spill and shape tests (about 65 guest instructions a call). Guarded by
  // the cached descriptor and self's exact type (3.11's PRECALL_NO_KW_METHOD_DESCRIPTOR_*
  // test the same), and the recursion limit; then the C entry with self and the argument
  // (METH_O), NULL (METH_NOARGS) or the argument vector (METH_FASTCALL), the references
  // released, and a set eval breaker handled after the call. Anything else, an empty cache
  // included, is `slow`: the stub's call with this cache, which fills it.
  void InlineMethodDescriptorCall(const Instr& in, runtime::CCallCache* cache, int slow) {
    using runtime::CCallCache;
    const Operand method = V(LirReg(in.args[0]));
    const int self = LirReg(in.args[1]);
    const SiteRef c = SiteRefOf(cache);
    const int cached = LoadSite(c, offsetof(CCallCache, callable), Type::kPtr);
    SlowIf(Cond::kNe, Type::kI64, method, V(cached), slow);
    // NULL unless the cache holds a descriptor: no object's type matches it then.
    const int self_type = LoadSite(c, offsetof(CCallCache, self_type), Type::kPtr);
    const int type = Load(V(self), offsetof(PyObject, ob_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kI64, V(type), V(self_type), slow);
    Operand arg = Operand::Imm(0);  // METH_NOARGS, or METH_FASTCALL with no arguments
    if (in.args.size() > 2) {
      const int vector = Spill(std::vector<int>(in.args.begin() + 2, in.args.end()));
      const int fastcall = LoadSite(c, offsetof(CCallCache, fastcall), Type::kI64);
      if (in.args.size() == 3) {
        arg = V(Select(V(fastcall), V(vector), V(LirReg(in.args[2])), Type::kPtr));
      } else {
        SlowIf(Cond::kEq, Type::kI64, V(fastcall), Operand::Imm(0), slow);
        arg = V(vector);
      }
    }
    const int remaining = Load(V(tstate_), kRecursionRemaining, Type::kI32);
    SlowIf(Cond::kSle, Type::kI32, V(remaining), Operand::Imm(0), slow);
    Store(V(Binary(lir::Op::kSub, V(remaining), Operand::Imm(1), Type::kI32)), V(tstate_),
          kRecursionRemaining, Type::kI32);
    const int entry = LoadSite(c, offsetof(CCallCache, entry), Type::kPtr);
    SetPrevInstr(in.bc);
    const int result = CallThrough(entry, {V(self), arg, Operand::Imm(in.imm), Operand::Imm(0)});
    prev_instr_known_ = -1;
    const int after = Load(V(tstate_), kRecursionRemaining, Type::kI32);
    Store(V(Binary(lir::Op::kAdd, V(after), Operand::Imm(1), Type::kI32)), V(tstate_),
          kRecursionRemaining, Type::kI32);
    for (size_t i = 2; i < in.args.size(); i++) Decref(LirReg(in.args[i]), false, in.bc);
    Decref(self, false, in.bc);
    ReleaseHeld(method);  // the cache holds the descriptor too
    const int dst = LirReg(in.dst);
    Mov(V(result), Type::kPtr, dst);
    const int breaker = Load(V(Mov(Imm(rt_.eval_breaker), Type::kPtr)), 0, Type::kI32);
    const int handle = ColdBlock(), cont = NewBlock();
    Emit(BrInstr(Cond::kNe, Type::kI32, V(breaker), Operand::Imm(0), handle, cont));
    cur_ = handle;
    Call(Helper::a64_after_c_call, {V(tstate_), V(dst)}, dst);
    Jmp(cont);
    cur_ = cont;
    DeoptIf(in, Cond::kEq, V(dst), Operand::Imm(0));
  }

  // [i64] call *%target(args...): a call of machine code whose address is known at run time.
  int CallThrough(int target, lir::Operands args) {
    lir::Instr in;
    in.op = lir::Op::kCall;
    in.base = V(target);
    in.args = InRegisters(std::move(args));
    in.dst = out_.NewVReg(Type::kI64);
    return Emit(std::move(in)).dst;
  }

  // Operations that are one libpython call on their operands.
  void LowerObjectProtocol(const Instr& in) {
    const Operand a = V(LirReg(in.args[0]));
    if (in.op == Op::kBinaryOp) {
      if (in.imm < 0 || in.imm >= kBinaryCount) throw Unsupported(-1, in.bc * 2, "BINARY_OP");
      LowerArithmetic(in);
    } else if (in.op == Op::kCompareOp) {
      LowerCompareOp(in);
    } else if (in.op == Op::kUnaryOp) {
      CallChecked(in, kUnaryHelpers[in.imm], {a});
    } else if (in.op == Op::kGetItem) {
      const bool lists = rt_.py_list_type != 0 && Allows(in, Feedback::kListInt);
      const bool tuples = rt_.py_tuple_type != 0 && Allows(in, Feedback::kTupleInt);
      // 3.11 does not specialise a str index: a site it quickened is not one
      const bool strs =
          rt_.py_str_type != 0 && rt_.ascii_char_zero != 0 && in.feedback == Feedback::kNone;
      if (lists || tuples || strs) return LowerIndex(in, lists, tuples, strs);
      CallChecked(in, Helper::PyObject_GetItem, {a, V(LirReg(in.args[1]))});
    } else if (in.op == Op::kSetItem) {
      if (rt_.py_list_type != 0 && Allows(in, Feedback::kListInt)) return LowerListStore(in);
      CallStatus(in, Helper::PyObject_SetItem, {a, V(LirReg(in.args[1])), V(LirReg(in.args[2]))});
    } else if (in.op == Op::kContains) {
      CallInt(in, Helper::PySequence_Contains, {V(LirReg(in.args[1])), a}, LirReg(in.dst));
    } else if (in.op == Op::kGetIter) {
      CallChecked(in, Helper::PyObject_GetIter, {a});
    } else {
      NoRuleIn("LowerObjectProtocol", in);
    }
  }

  // A family function given an op it has no rule for (routed there by mistake): failing names
  // the op, where lowering it as the family's last member would compile wrong code.
  [[noreturn]] static void NoRuleIn(const char* family, const Instr& in) {
    throw std::logic_error(std::string("lowering: ") + family + " has no rule for HIR op " +
                           hir::OpName(in.op));
  }

  // BUILD_TUPLE of up to this many items: PyTuple_New, then the items' references stored
  // straight into the tuple; a failed allocation goes to the generic path (`slow`), which
  // tries again and, failing, releases the items and reports the error. Each item's spill and
  // a64_build_tuple's loop cost more than the stores.
  static constexpr size_t kInlineTupleMax = 8;
  void BuildTupleInline(const Instr& in, int slow) {
    SetPrevInstr(in.bc);  // the allocation may collect garbage, and run finalizers
    const int tuple =
        Call(Helper::PyTuple_New, {Operand::Imm(static_cast<int64_t>(in.args.size()))});
    SlowIf(Cond::kEq, Type::kI64, V(tuple), Operand::Imm(0), slow);
    for (size_t i = 0; i < in.args.size(); i++) {
      Store(V(LirReg(in.args[i])), V(tuple),
            static_cast<int64_t>(offsetof(PyTupleObject, ob_item) + 8 * i), Type::kPtr);
    }
    Mov(V(tuple), Type::kPtr, LirReg(in.dst));
  }

  void LowerBuild(const Instr& in) {
    const auto count = [&] { return Operand::Imm(static_cast<int64_t>(in.args.size())); };
    if (in.op == Op::kBuildSlice) {
      return CallChecked(in, Helper::PySlice_New,
                         {V(LirReg(in.args[0])), V(LirReg(in.args[1])),
                          in.args.size() > 2 ? V(LirReg(in.args[2])) : Operand::Imm(0)});
    }
    if (in.op == Op::kFormatValue) {
      return CallChecked(
          in, Helper::a64_format_value,
          {V(LirReg(in.args[0])), in.args.size() > 1 ? V(LirReg(in.args[1])) : Operand::Imm(0),
           Operand::Imm(in.imm)});
    }
    if (in.op == Op::kBuildTuple && !in.args.empty() && in.args.size() <= kInlineTupleMax) {
      return FastOrGeneric(
          Decision::kLowerBuildTupleInline, in, [&](int slow) { BuildTupleInline(in, slow); },
          [&] {
            CallChecked(in, Helper::a64_build_tuple, {V(Spill(in.args)), count()});
          });
    }
    const int p = Spill(in.args);
    if (in.op == Op::kBuildList) return CallChecked(in, Helper::a64_build_list, {V(p), count()});
    if (in.op == Op::kBuildSet) return CallChecked(in, Helper::a64_build_set, {V(p), count()});
    if (in.op == Op::kBuildTuple) return CallChecked(in, Helper::a64_build_tuple, {V(p), count()});
    if (in.op == Op::kBuildMap) {
      return CallChecked(in, Helper::a64_build_map, {V(p), Operand::Imm(in.imm)});
    }
    if (in.op == Op::kBuildString) {
      return CallChecked(in, Helper::a64_build_string, {V(p), Operand::Imm(in.imm)});
    }
    if (in.op == Op::kBuildConstKeyMap) {
      return CallChecked(in, Helper::a64_build_const_key_map,
                         {V(p), Operand::Imm(in.imm), Imm(Const(in.keys_const))});
    }
    if (in.op == Op::kMakeFunction) {
      return CallChecked(in, Helper::a64_make_function,
                         {V(frame_), V(p), count(), Operand::Imm(in.imm)});
    }
    NoRuleIn("LowerBuild", in);
  }

  // LIST_APPEND: a comprehension's list, which only its BUILD_LIST made (an exact list, as
  // 3.11's LIST_APPEND assumes too). With room, the item goes in place with a new
  // reference, as _PyList_AppendTakeRef does; a full list grows in PyList_Append.
  void LowerListAppend(const Instr& in) {
    const Operand list = V(LirReg(in.args[0]));
    const Operand item = V(LirReg(in.args[1]));
    FastOrGeneric(
        Decision::kLowerListAppendInline, in,
        [&](int slow) { AppendInPlace(list, item, true, slow); },
        [&] {
          CallStatus(in, Helper::PyList_Append, {list, item});
        });
  }

  void LowerSequence(const Instr& in) {
    if (in.op == Op::kListExtend) {
      CallStatus(in, Helper::a64_list_extend, {V(LirReg(in.args[0])), V(LirReg(in.args[1]))});
    } else if (in.op == Op::kListAppend) {
      LowerListAppend(in);
    } else if (in.op == Op::kUnpackSequence) {
      LowerUnpackSequence(in);
    } else if (in.op == Op::kUnpackEx) {
      scratch_addr_ = ScratchAddr();
      CallStatus(in, Helper::a64_unpack_ex,
                 {V(LirReg(in.args[0])), Operand::Imm(in.imm & 0xff), Operand::Imm(in.imm >> 8),
                  V(scratch_addr_)});
    } else if (in.op == Op::kScratchLoad) {
      Load(V(scratch_addr_), 8 * in.imm, Type::kPtr, LirReg(in.dst));
    } else {
      NoRuleIn("LowerSequence", in);
    }
  }

  // UNPACK_SEQUENCE n: an exact tuple or list of exactly n items is unpacked inline (3.11's
  // UNPACK_SEQUENCE_TUPLE and _LIST), anything else through a64_unpack_sequence. Either way
  // the items land in the scratch slot, last first, for ScratchLoad.
  void LowerUnpackSequence(const Instr& in) {
    scratch_addr_ = ScratchAddr();
    const Operand seq = V(LirReg(in.args[0]));
    const auto generic = [&] {
      CallStatus(in, Helper::a64_unpack_sequence, {seq, Operand::Imm(in.imm), V(scratch_addr_)});
    };
    if (rt_.py_tuple_type == 0 || rt_.py_list_type == 0 || in.imm > kUnpackLoopLimit) {
      return generic();
    }
    FastOrGeneric(
        Decision::kLowerUnpackInline, in,
        [&](int slow) {
          const int items = SequenceItems(seq, in.imm, in.feedback, slow);
          if (in.imm > kInlineUnpackLimit) return CopyItemsReversed(items, in.imm);
          for (int64_t i = 0; i < in.imm; i++) {
            const int item = Load(V(items), 8 * i, Type::kPtr);
            Incref(V(item));
            Store(V(item), V(scratch_addr_), 8 * (in.imm - 1 - i), Type::kPtr);
          }
        },
        generic);
  }

  // The `n` items at `items`, each with a new reference, into the scratch slot last first, by
  // a loop: the same 9 instructions for any n (inline, each item takes 5).
  void CopyItemsReversed(int items, int64_t n) {
    const int from = Mov(V(items), Type::kPtr);
    const int end = Binary(lir::Op::kAdd, V(items), Operand::Imm(8 * n), Type::kPtr);
    const int to = Binary(lir::Op::kAdd, V(scratch_addr_), Operand::Imm(8 * (n - 1)), Type::kPtr);
    const int loop = NewBlock(), done = NewBlock();
    Jmp(loop);
    cur_ = loop;
    const int item = Load(V(from), 0, Type::kPtr);
    Incref(V(item));
    Store(V(item), V(to), 0, Type::kPtr);
    Binary(lir::Op::kAdd, V(from), Operand::Imm(8), Type::kPtr, from);
    Binary(lir::Op::kSub, V(to), Operand::Imm(8), Type::kPtr, to);
    Emit(BrInstr(Cond::kNe, Type::kI64, V(from), V(end), loop, done));
    cur_ = done;
  }

  // The address of `seq`'s first item when it is an exact tuple or list of `n` items, else a
  // jump to `slow`. Feedback kTuple or kList (UNPACK_SEQUENCE_TUPLE, _LIST) tests that type
  // alone.
  int SequenceItems(Operand seq, int64_t n, Feedback seen, int slow) {
    const int items =
        FirstItemAddress(seq, seen != Feedback::kTuple, seen != Feedback::kList, true, slow);
    const int size = Load(seq, offsetof(PyVarObject, ob_size), Type::kI64);
    SlowIf(Cond::kNe, Type::kI64, V(size), Operand::Imm(n), slow);
    return items;
  }

  // The address of the first item of `seq` when it is an exact list (if `lists`) or tuple (if
  // `tuples`; tested first when `tuple_first`); any other type jumps to `other` before anything
  // else of it is read. Both keep their length in ob_size.
  int FirstItemAddress(Operand seq, bool lists, bool tuples, bool tuple_first, int other) {
    const int items = out_.NewVReg(Type::kPtr);
    const int type = Load(seq, offsetof(PyObject, ob_type), Type::kPtr);
    const int have = NewBlock();
    for (const bool tuple : {tuple_first, !tuple_first}) {
      if (!(tuple ? tuples : lists)) continue;
      const int is = NewBlock(), is_not = NewBlock();
      Br(Cond::kEq, V(type), Imm(tuple ? rt_.py_tuple_type : rt_.py_list_type), is, is_not,
         Type::kPtr);
      cur_ = is;
      if (tuple) {  // the items follow the header; a list points at them
        Binary(lir::Op::kAdd, seq, Operand::Imm(offsetof(PyTupleObject, ob_item)), Type::kPtr,
               items);
      } else {
        Load(seq, offsetof(PyListObject, ob_item), Type::kPtr, items);
      }
      Jmp(have);
      cur_ = is_not;
    }
    Jmp(other);
    cur_ = have;
    return items;
  }

  // FOR_ITER: a list, tuple or range iterator with items left steps inline; anything else,
  // and the step that finds an iterator exhausted (which also releases its sequence), through
  // a64_for_iter.
  void LowerForIter(const Instr& in) {
    const Operand iter = V(LirReg(in.args[0]));
    const int dst = LirReg(in.dst);
    const auto generic = [&] {
      SetPrevInstr(in.bc);
      Call(Helper::a64_for_iter, {iter}, dst);
      DeoptIf(in, Cond::kEq, V(dst), Operand::Imm(1));
    };
    if (rt_.py_list_iter_type == 0 || rt_.py_tuple_iter_type == 0 || rt_.py_range_iter_type == 0) {
      return generic();
    }
    FastOrGeneric(
        Decision::kLowerForIterInline, in,
        [&](int slow) {
          const int type = Load(iter, offsetof(PyObject, ob_type), Type::kPtr);
          const int list = NewBlock(), other = NewBlock(), tuple = NewBlock(), range = NewBlock();
          const int done = NewBlock();
          Emit(BrInstr(Cond::kEq, Type::kPtr, V(type), Imm(rt_.py_list_iter_type), list, other));
          cur_ = other;
          Emit(BrInstr(Cond::kEq, Type::kPtr, V(type), Imm(rt_.py_tuple_iter_type), tuple, range));
          cur_ = list;
          NextSequenceItem(iter, offsetof(PyListObject, ob_item), true, dst, slow);
          Jmp(done);
          cur_ = tuple;
          NextSequenceItem(iter, offsetof(PyTupleObject, ob_item), false, dst, slow);
          Jmp(done);
          cur_ = range;
          SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_range_iter_type), slow);
          NextRangeValue(in, iter, slow);
          Jmp(done);
          cur_ = done;
        },
        generic);
  }

  // A list or tuple iterator's next item into `dst` (a new reference), the index advanced;
  // `slow` when it has none left. `items_at`: where the sequence keeps its items (`indirect`:
  // a pointer to them there, as a list has).
  void NextSequenceItem(Operand iter, int64_t items_at, bool indirect, int dst, int slow) {
    const int seq = Load(iter, offsetof(SequenceIterLayout, it_seq), Type::kPtr);
    SlowIf(Cond::kEq, Type::kPtr, V(seq), Operand::Imm(0), slow);
    const int index = Load(iter, offsetof(SequenceIterLayout, it_index), Type::kI64);
    const int size = Load(V(seq), offsetof(PyVarObject, ob_size), Type::kI64);
    SlowIf(Cond::kSge, Type::kI64, V(index), V(size), slow);
    const int items = indirect ? Load(V(seq), items_at, Type::kPtr)
                               : Binary(lir::Op::kAdd, V(seq), Operand::Imm(items_at), Type::kPtr);
    const int offset = Binary(lir::Op::kShl, V(index), Operand::Imm(3), Type::kI64);
    const int item = Load(V(Binary(lir::Op::kAdd, V(items), V(offset), Type::kPtr)), 0, Type::kPtr);
    Incref(V(item));
    Store(V(Binary(lir::Op::kAdd, V(index), Operand::Imm(1), Type::kI64)), iter,
          offsetof(SequenceIterLayout, it_index), Type::kI64);
    Mov(V(item), Type::kPtr, dst);
  }

  // A range iterator's next value, start + index * step, boxed (BoxInt: a small int, else
  // a64_box_int where rangeiter_next calls PyLong_FromLong) into in.dst; `slow` when it has
  // none left.
  void NextRangeValue(const Instr& in, Operand iter, int slow) {
    const int index = Load(iter, offsetof(RangeIterLayout, index), Type::kI64);
    const int len = Load(iter, offsetof(RangeIterLayout, len), Type::kI64);
    SlowIf(Cond::kSge, Type::kI64, V(index), V(len), slow);
    const int step = Load(iter, offsetof(RangeIterLayout, step), Type::kI64);
    const int start = Load(iter, offsetof(RangeIterLayout, start), Type::kI64);
    const int value = Binary(lir::Op::kAdd, V(start),
                             V(Binary(lir::Op::kMul, V(index), V(step), Type::kI64)), Type::kI64);
    Store(V(Binary(lir::Op::kAdd, V(index), Operand::Imm(1), Type::kI64)), iter,
          offsetof(RangeIterLayout, index), Type::kI64);
    BoxInt(in, value);
  }

  void LowerIdentity(const Instr& in) {
    if (in.op == Op::kIsSame)
      return (void)Compare(V(LirReg(in.args[0])), V(LirReg(in.args[1])), Cond::kEq, LirReg(in.dst));
    if (in.op == Op::kIsNone)
      return (void)Compare(V(LirReg(in.args[0])), Imm(rt_.py_none), Cond::kEq, LirReg(in.dst));
    if (in.op == Op::kIsNull)
      return (void)Compare(V(LirReg(in.args[0])), Operand::Imm(0), Cond::kEq, LirReg(in.dst));
    const int t = Mov(Imm(rt_.py_true), Type::kPtr);  // kBoolFromCInt
    const int f = Mov(Imm(rt_.py_false), Type::kPtr);
    Select(V(LirReg(in.args[0])), V(in.imm != 0 ? f : t), V(in.imm != 0 ? t : f), Type::kPtr,
           LirReg(in.dst));
  }

  void LowerReference(const Instr& in) {
    if (in.op == Op::kMov || in.op == Op::kDup) {
      Mov(V(LirReg(in.args[0])), Type::kPtr, LirReg(in.dst));
    } else if (in.op == Op::kIncref) {
      Incref(V(LirReg(in.args[0])));
    } else {
      const bool maybe_null = in.op == Op::kXDecref || IsUnboxed(in.args[0]);
      Decref(LirReg(in.args[0]), maybe_null, in.bc, IsFloatLike(in.args[0]));
    }
  }

  void LowerTerminator(const Instr& in) {
    if (in.op == Op::kJump) return Jmp(block_of_[static_cast<size_t>(in.targets[0])]);
    if (in.op == Op::kBranch) {
      return Br(Cond::kNe, V(LirReg(in.args[0])), Operand::Imm(0),
                block_of_[static_cast<size_t>(in.targets[0])],
                block_of_[static_cast<size_t>(in.targets[1])]);
    }
    if (in.op == Op::kDeopt) return EmitDeopt(in.state);
    if (hir::IsGenerator(f_.code.flags)) return Ret(V(LirReg(in.args[0])));
    // Every return of a function frame goes through one block that clears the locals.
    if (return_block_ < 0) {
      return_block_ = NewBlock();
      return_value_ = out_.NewVReg(Type::kPtr);
      return_units_ = ReturnUnits();
      if (return_units_.size() > 1) return_unit_ = out_.NewVReg(Type::kI64);
    }
    if (return_unit_ >= 0) Mov(Operand::Imm(in.bc), Type::kI64, return_unit_);
    Mov(V(LirReg(in.args[0])), Type::kPtr, return_value_);
    Jmp(return_block_);
  }

  // The code units of the function's RETURN_VALUEs.
  std::set<int> ReturnUnits() const {
    std::set<int> units;
    for (const hir::Block& b : f_.blocks) {
      if (!b.instrs.empty() && b.instrs.back().op == Op::kReturn) units.insert(b.instrs.back().bc);
    }
    return units;
  }

  // prev_instr at the RETURN_VALUE the function is leaving by, as the interpreter leaves it:
  // a frame object that outlives the frame shows that line (f_lineno). Only the return
  // block's frame-object path needs it; with several returns, each says which (return_unit_).
  void SetReturnPrevInstr() {
    if (return_unit_ < 0) return SetPrevInstr(*return_units_.begin());
    const int offset = Binary(lir::Op::kShl, V(return_unit_), Operand::Imm(1), Type::kI64);
    Store(V(Binary(lir::Op::kAdd, V(first_instr_), V(offset), Type::kPtr)), V(frame_), kPrevInstr,
          Type::kPtr);
  }
  // The return of a function frame releases its locals here, as 3.11's _PyFrame_Clear would,
  // and leaves stacktop 0, so that whoever pops the frame (a64_call_leave, the compiled
  // caller's own leave path, CPython) finds nothing left to release. A frame that has a frame
  // object keeps its locals: the frame object may take the frame over (and show them).
  void LowerReturnBlock() {
    cur_ = return_block_;
    group_now_ = group_[static_cast<size_t>(return_block_)] =
        static_cast<int>(f_.blocks.size()) + 1;
    prev_instr_known_ = -1;
    const int keep = NewBlock();
    const int frame_object = Load(V(frame_), kFrameObject, Type::kPtr);
    // A frame object (rare: a traceback, sys._getframe) is out of line.
    const int has_object = ColdBlock(), clear = NewBlock();
    Br(Cond::kNe, V(frame_object), Operand::Imm(0), has_object, clear);
    cur_ = has_object;
    SetReturnPrevInstr();
    Jmp(keep);  // its frame is cleared by whoever pops it
    cur_ = clear;
    prev_instr_known_ = -1;
    // Off the thread's stack first, as 3.11 pops a frame before clearing it (gh-99729): a
    // finalizer the releases run must not find this half-cleared frame. Whoever pops the
    // frame afterwards makes its caller current again, to the same effect.
    MakeCallerCurrent(frame_);
    Store(Operand::Imm(0), V(frame_), kStackTop, Type::kI32);
    const int64_t n = f_.code.nlocalsplus;
    if (rt_.null_sink != 0 && n <= kUnrolledLocals) {
      // One branch per local (its dealloc), not two: under Unicorn each conditional branch
      // ends a translated block, the unit emulation pays for. A NULL local releases the sink;
      // a local bound at every return (an argument never deleted, say) needs no test at all.
      const bool known = !f_.bound_at_return.empty() && BoundAtSomeReturn() &&
                         Take(decisions_, Decision::kLowerReleaseBoundLocals);
      for (int64_t i = 0; i < n; i++) {
        const int local = Load(V(frame_), kLocalsPlus + 8 * i, Type::kPtr);
        if (known && f_.bound_at_return[static_cast<size_t>(i)]) {
          Decref(local, false, -1);
          continue;
        }
        Decref(Select(V(local), V(local), V(Mov(Imm(rt_.null_sink), Type::kPtr)), Type::kPtr),
               false, -1);
      }
    } else if (n > 0) {
      // A loop rather than n copies: code size matters more than its few branches.
      const int p = Binary(lir::Op::kAdd, V(frame_), Operand::Imm(kLocalsPlus), Type::kPtr);
      const int end = Binary(lir::Op::kAdd, V(p), Operand::Imm(8 * n), Type::kPtr);
      const int loop = NewBlock(), done = NewBlock();
      Jmp(loop);
      cur_ = loop;
      Decref(Load(V(p), 0, Type::kPtr), true, -1);
      Binary(lir::Op::kAdd, V(p), Operand::Imm(8), Type::kPtr, p);
      Br(Cond::kUlt, V(p), V(end), loop, done);
      cur_ = done;
    }
    Jmp(keep);
    cur_ = keep;
    Ret(V(return_value_));
  }

  // store_targets_: each BINARY_OP result (one definition, one use) that the next instruction
  // stores into a local, past releases of the operands only, for a64_box_int_reusing and
  // BoxFloatResult. Nothing else runs between the two, so the local still holds its old value
  // when the result is made (a borrowed copy of that value still in use gets its own
  // reference before the store, which then does not follow).
  void FindStoreTargets(const std::vector<int>& defs, const std::vector<int>& reads) {
    for (const Block& b : f_.blocks) {
      for (size_t i = 0; i + 1 < b.instrs.size(); i++) {
        const Instr& op = b.instrs[i];
        if (op.op == Op::kForIter && op.dst >= 0 && defs.at(static_cast<size_t>(op.dst)) == 1) {
          FindLoopTarget(b, i);
          continue;
        }
        if (op.op != Op::kBinaryOp || op.dst < 0) continue;
        size_t next = i + 1;
        while (next < b.instrs.size() && ReleasesOperandOf(b.instrs[next], op)) next++;
        if (next == b.instrs.size()) continue;
        const Instr& store = b.instrs[next];
        if (store.op == Op::kStoreLocal && store.args[0] == op.dst &&
            defs.at(static_cast<size_t>(op.dst)) == 1 && !f_.IsStackReg(op.dst) &&
            reads[static_cast<size_t>(op.dst)] == 1) {
          store_targets_[op.dst] =
              StoreTarget{&store, OperandHoldingLocal(b, i, store.imm), ReleaseMask(b, i, next)};
        }
      }
    }
  }
  // A FOR_ITER whose value the loop body's first instruction stores into a local (`for i in
  // range(n)`): the value is a store target too, so a range's next int may be made in the
  // local's old one (a64_box_int_reusing: one allocation and one deallocation fewer an
  // iteration once the values pass the small ints). Between the two only the end-of-loop test
  // and copies of the value run: b.instrs[at] is followed by IsNull of it, copies of it and
  // the Branch whose not-null target starts with the StoreLocal of one of those copies.
  void FindLoopTarget(const Block& b, size_t at) {
    const int value = b.instrs[at].dst;
    std::set<int> copies{value};
    int null_test = -1;
    for (size_t k = at + 1; k + 1 < b.instrs.size(); k++) {
      const Instr& x = b.instrs[k];
      if (x.op == Op::kIsNull && x.args[0] == value) {
        null_test = x.dst;
      } else if (x.op == Op::kMov && copies.count(x.args[0]) != 0) {
        copies.insert(x.dst);
      } else {
        return;
      }
    }
    const Instr& branch = b.instrs.back();
    if (branch.op != Op::kBranch || null_test < 0 || branch.args[0] != null_test) return;
    const Block& body = f_.blocks.at(static_cast<size_t>(branch.targets[1]));
    if (body.instrs.empty()) return;
    const Instr& store = body.instrs.front();
    if (store.op == Op::kStoreLocal && copies.count(store.args[0]) != 0) {
      store_targets_[value] = StoreTarget{&store, -1, 0};
    }
  }
  // Which operands of b.instrs[op] the Decrefs b.instrs[op + 1, end) release: bit 0 the
  // first, bit 1 the second (a64_binary_op_into_local's `releases`); -1 if that cannot say.
  static int ReleaseMask(const Block& b, size_t op, size_t end) {
    const std::vector<int>& args = b.instrs[op].args;
    int mask = 0;
    for (size_t k = op + 1; k < end; k++) {
      const int reg = b.instrs[k].args[0];
      if (args.size() != 2) return -1;
      if (reg == args[0] && (mask & 1) == 0) {
        mask |= 1;
      } else if (reg == args[1] && (mask & 2) == 0) {
        mask |= 2;
      } else {
        return -1;
      }
    }
    return mask;
  }
  // Which operand of b.instrs[at] (0 or 1) is the value local `local` holds: a LoadLocal of it
  // earlier in the block, with no write of the local since. -1 if neither.
  static int OperandHoldingLocal(const Block& b, size_t at, int64_t local) {
    const Instr& op = b.instrs[at];
    for (size_t k = 0; k < op.args.size() && k < 2; k++) {
      for (size_t i = at; i-- > 0;) {
        const Instr& x = b.instrs[i];
        if (x.dst == op.args[k] || x.dst2 == op.args[k]) {
          if (x.op == Op::kLoadLocal && x.imm == local) return static_cast<int>(k);
          break;
        }
        if (WritesLocal(x, local)) break;
      }
    }
    return -1;
  }
  // `in` is a Decref of one of `op`'s operands. Between a BINARY_OP and its store that runs no
  // Python code when the result is made inline: the operands are then exact ints or floats,
  // whose deallocation calls nothing (`s += math.sqrt(x)` releases the call's result there).
  static bool ReleasesOperandOf(const Instr& in, const Instr& op) {
    return in.op == Op::kDecref &&
           std::find(op.args.begin(), op.args.end(), in.args[0]) != op.args.end();
  }

  // Whether some local is bound at every return (hir::Function::bound_at_return).
  bool BoundAtSomeReturn() const {
    return std::find(f_.bound_at_return.begin(), f_.bound_at_return.end(), true) !=
           f_.bound_at_return.end();
  }

  // dst:i64 = (a c b) ? 1 : 0, over operands of type `t` (i64 or f64: lir.h's EvalCond).
  int Compare(Operand a, Operand b, Cond c = Cond::kEq, int dst = -1, Type t = Type::kI64) {
    lir::Instr in;
    in.op = lir::Op::kCmp;
    in.dst = dst >= 0 ? dst : out_.NewVReg(Type::kI64);
    in.cond = c;
    in.cmp_type = t;
    in.args = {a, b};
    return Emit(std::move(in)).dst;
  }
  // dst:t = c != 0 ? a : b.
  int Select(Operand c, Operand a, Operand b, Type t, int dst = -1) {
    lir::Instr in;
    in.op = lir::Op::kSelect;
    in.dst = dst >= 0 ? dst : out_.NewVReg(t);
    in.args = {c, a, b};
    return Emit(std::move(in)).dst;
  }

  // HIR register `reg` is LoadNull's (null_regs_).
  bool IsNullReg(int reg) const { return null_regs_.count(reg) != 0; }
  bool IsFloatLike(int reg) const { return float_like_regs_.count(reg) != 0; }
  // The LoadLocal or LoadConst that is HIR register `reg`'s one definition, or null.
  const Instr* BorrowSource(int reg) const {
    return reg >= 0 && static_cast<size_t>(reg) < borrow_source_.size()
               ? borrow_source_[static_cast<size_t>(reg)]
               : nullptr;
  }
  // The co_consts index of the constant HIR register `reg` holds, if it holds one.
  std::optional<size_t> ConstIndex(int reg) const {
    const Instr* source = BorrowSource(reg);
    if (source == nullptr || source->op != Op::kLoadConst) return {};
    return static_cast<size_t>(source->imm);
  }
  // The value of HIR register `reg` when it holds a constant small int (see RuntimeAddresses).
  std::optional<int64_t> SmallIntConst(int reg) const {
    const std::optional<size_t> i = ConstIndex(reg);
    return i && *i < rt_.small_int_consts.size() ? rt_.small_int_consts[*i] : std::nullopt;
  }

  using ConstKind = RuntimeAddresses::ConstKind;
  // What HIR register `reg` is known to be when it holds a constant; kUnknown otherwise.
  ConstKind ConstKindOf(int reg) const {
    const std::optional<size_t> i = ConstIndex(reg);
    return i && *i < rt_.const_kinds.size() ? rt_.const_kinds[*i] : ConstKind::kUnknown;
  }
  // `reg` holds a constant of a known type other than `kind` (kInt or kFloat).
  bool KnownNot(int reg, ConstKind kind) const {
    const ConstKind k = ConstKindOf(reg);
    return k != ConstKind::kUnknown && k != kind;
  }
  // The character code of a one-character ASCII str constant in `reg`, or -1.
  int AsciiCharConst(int reg) const {
    const std::optional<size_t> i = ConstIndex(reg);
    return i && *i < rt_.ascii_char_consts.size() ? rt_.ascii_char_consts[*i] : -1;
  }
  bool IsStrConst(int reg) const {
    const ConstKind k = ConstKindOf(reg);
    return k == ConstKind::kStr || k == ConstKind::kInternedStr;
  }

  // The value of an int object of at most one digit (|ob_size| <= 1), or a jump to `slow`.
  int SmallIntValue(Operand obj, int slow) {
    const int type = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kI64, V(type), Imm(rt_.py_long_type), slow);
    const int size = Load(obj, offsetof(PyVarObject, ob_size), Type::kI64);
    SlowIf(Cond::kUgt, Type::kI64, V(BiasedSize(size)), Operand::Imm(kBiasedSizeMax), slow);
    return OneDigitValue(obj, size);
  }
  // An int's ob_size + 1, at most kBiasedSizeMax (unsigned) exactly when |ob_size| <= 1: one
  // test for "at most one digit".
  static constexpr int64_t kBiasedSizeMax = 2;
  int BiasedSize(int size) { return Binary(lir::Op::kAdd, V(size), Operand::Imm(1), Type::kI64); }
  // The value of int `obj` whose ob_size `size` is -1, 0 or 1.
  int OneDigitValue(Operand obj, int size) {
    const int digit = Load(obj, offsetof(PyLongObject, ob_digit), Type::kI32);
    return Binary(lir::Op::kMul, V(size), V(ZExt(V(digit))), Type::kI64);
  }

  // HIR register `reg` as a small int: its constant, or its value (a jump to `slow` when it
  // is not an int of at most one digit). A temporary of both kinds that holds a double goes
  // to `float_form` (the consumer's float form, which reads it unboxed).
  Operand SmallIntOperand(int reg, int slow, int float_form = -1) {
    const std::optional<int64_t> k = SmallIntConst(reg);
    if (k) return Operand::Imm(*k);
    if (unboxed_.count(reg) != 0) return V(UnboxedSmallInt(reg, slow, float_form));
    return V(SmallIntValue(V(LirReg(reg)), slow));
  }

  // Both operands of `in` as SmallIntOperand reads them. When both are objects (not
  // constants, not unboxed temporaries) their guards go in pairs, each pair one branch
  // (SlowIfEither): the two type tests, then the two size tests.
  std::pair<Operand, Operand> SmallIntOperands(const Instr& in, int slow, int float_form) {
    const int ra = in.args[0], rb = in.args[1];
    if (ra == rb) {
      const Operand a = SmallIntOperand(ra, slow, float_form);
      return {a, a};
    }
    const auto boxed = [this](int reg) { return !SmallIntConst(reg) && !IsUnboxed(reg); };
    if (!boxed(ra) || !boxed(rb)) {
      const Operand a = SmallIntOperand(ra, slow, float_form);
      return {a, SmallIntOperand(rb, slow, float_form)};
    }
    const Operand oa = V(LirReg(ra)), ob = V(LirReg(rb));
    const int ta = Load(oa, offsetof(PyObject, ob_type), Type::kPtr);
    const int tb = Load(ob, offsetof(PyObject, ob_type), Type::kPtr);
    const Operand long_type = Imm(rt_.py_long_type);
    SlowIfEither(Cond::kNe, Type::kPtr, V(ta), long_type, Cond::kNe, V(tb), long_type, slow, in.bc);
    operand_types_ = {ra, rb, ta, tb, slow};
    const int sa = Load(oa, offsetof(PyVarObject, ob_size), Type::kI64);
    const int sb = Load(ob, offsetof(PyVarObject, ob_size), Type::kI64);
    const int ba = BiasedSize(sa), bb = BiasedSize(sb);
    const Operand max = Operand::Imm(kBiasedSizeMax);
    SlowIfEither(Cond::kUgt, Type::kI64, V(ba), max, Cond::kUgt, V(bb), max, slow, in.bc);
    const Operand a = V(OneDigitValue(oa, sa));
    return {a, V(OneDigitValue(ob, sb))};
  }

  // An unboxed temporary's value, from its C value while its object is NULL (a jump to
  // `slow` outside the small-int range: |v| < 2^30, as an int of one digit), else from the
  // object as SmallIntValue reads it. A temporary of both kinds holding a double goes to
  // `float_form`.
  int UnboxedSmallInt(int reg, int slow, int float_form) {
    const auto raw = [&] {
      // A double's mark fails the range test too: for a temporary of both kinds, the cold
      // block that test leaves for tells the two apart.
      int out_of_range = slow;
      if (IsDual(reg)) {
        if (float_form < 0) throw std::logic_error("a temporary of both kinds read as an int only");
        const int saved = cur_;
        out_of_range = ColdBlock();
        cur_ = out_of_range;
        Br(Cond::kEq, V(RawOf(reg)), Operand::Imm(kRawFloatMark), float_form, slow);
        cur_ = saved;
      }
      constexpr int64_t kDigitMax = (int64_t{1} << 30) - 1;
      const int biased = Binary(lir::Op::kAdd, V(RawOf(reg)), Operand::Imm(kDigitMax), Type::kI64);
      SlowIf(Cond::kUgt, Type::kI64, V(biased), Operand::Imm(2 * kDigitMax), out_of_range);
      return RawOf(reg);
    };
    return RawOrBoxed(reg, Type::kI64, raw, [&] { return SmallIntValue(V(LirReg(reg)), slow); });
  }

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

  // The small-int form of NB_* `nb`, if it has one; `divisor` is b's constant, if any.
  static bool HasSmallIntForm(int64_t nb, std::optional<int64_t> divisor) {
    switch (BinaryOf(nb)) {
      case NB_FLOOR_DIVIDE:
      case NB_REMAINDER:
        return !divisor || *divisor > 0;  // a variable divisor is guarded > 0
      default:
        return SmallIntOp(BinaryOf(nb)).has_value();
    }
  }
  // The i64 operation of NB_* `nb` on small ints, when one instruction makes it (& | ^: two's
  // complement in 64 bits is Python's infinite one for ints of one digit).
  static std::optional<lir::Op> SmallIntOp(int64_t nb) {
    switch (nb) {
      case NB_ADD:
        return lir::Op::kAdd;
      case NB_SUBTRACT:
        return lir::Op::kSub;
      case NB_MULTIPLY:
        return lir::Op::kMul;
      case NB_AND:
        return lir::Op::kAnd;
      case NB_OR:
        return lir::Op::kOr;
      case NB_XOR:
        return lir::Op::kXor;
      default:
        return std::nullopt;
    }
  }
  // The f64 operation of NB_* `nb`, if it has an inline float form.
  static std::optional<lir::Op> FloatFormOf(int64_t nb) {
    switch (BinaryOf(nb)) {
      case NB_ADD:
        return lir::Op::kFAdd;
      case NB_SUBTRACT:
        return lir::Op::kFSub;
      case NB_MULTIPLY:
        return lir::Op::kFMul;
      case NB_TRUE_DIVIDE:
        return lir::Op::kFDiv;
      default:
        return std::nullopt;
    }
  }

  // BINARY_OP with inline forms, as 3.11's specialised BINARY_OPs have: ints of at most one
  // digit (|v| < 2**30) for + - * // % (a divisor > 0), exact in 64 bits and boxed by
  // a64_box_int; exact floats for + - * / (a divisor other than +-0.0, which raises),
  // computed in D registers and boxed by PyFloat_FromDouble. An operand that is an int
  // constant rules the float form out (int op float is mixed: stock takes it generically
  // too), a float constant the int form, and a constant of any other type (`"%d" % n`) both.
  // Anything else, and a failed guard, through PyNumber_*.
  void LowerArithmetic(const Instr& in) {
    const bool ints = HasIntForm(in);
    // An unboxed result's C value is read only while its object is NULL, but is defined on
    // every path.
    if (unboxed_.count(in.dst) != 0) Mov(Operand::Imm(0), Type::kI64, RawOf(in.dst));
    if (unboxed_floats_.count(in.dst) != 0) {
      Mov(Operand::FImm(0.0), Type::kF64, RawFloatOf(in.dst));
    }
    const std::optional<lir::Op> fop = FloatFormOf(in.imm);
    const bool floats = HasFloatForm(in);
    const auto generic = [&] {
      if (GenericIntoLocal(in)) return;  // after the fast path, which decides it
      CallChecked(in, kBinaryHelpers[in.imm], {V(LirReg(in.args[0])), V(LirReg(in.args[1]))});
    };
    if (!ints && !floats) return generic();
    FastOrGeneric(  // with an unboxed operand, the fast path without a choice
        HasUnboxedOperand(in) ? std::nullopt : std::optional(Decision::kLowerArithmeticInline), in,
        [&](int slow) {
          if (!floats) return SmallIntArithmetic(in, slow);
          if (!ints) return FloatArithmetic(in, *fop, slow);
          const int not_ints = NewBlock(), done = NewBlock();
          const int known = prev_instr_known_;
          SmallIntArithmetic(in, not_ints);
          Jmp(done);
          cur_ = not_ints;
          prev_instr_known_ = known;
          FloatArithmetic(in, *fop, slow);
          Jmp(done);
          Join(done, known, in.bc);
        },
        generic);
  }

  // The small-int form of in.imm (HasSmallIntForm) into in.dst; `slow` when an operand is
  // not a small int or a variable divisor is not positive. An operand that is an unboxed
  // float goes straight to `not_ints` (the float form, which reads it unboxed).
  void SmallIntArithmetic(const Instr& in, int not_ints) {
    LeaveIfFloatOnly(in, not_ints);
    const int slow = BoxingFirst(in, not_ints);
    const auto [a, b] = SmallIntOperands(in, slow, not_ints);
    const int lhs = a.is_vreg() ? a.vreg : Mov(a, Type::kI64);
    const int64_t nb = BinaryOf(in.imm);
    int r;
    if (std::optional<lir::Op> op = SmallIntOp(nb)) {
      r = Binary(*op, V(lhs), b, Type::kI64);  // |a * b| < 2**60
    } else {
      const int divisor = b.is_vreg() ? b.vreg : Mov(b, Type::kI64);
      if (b.is_vreg()) SlowIf(Cond::kSle, Type::kI64, V(divisor), Operand::Imm(0), slow);
      r = FloorDivOrMod(lhs, divisor, nb == NB_REMAINDER);
    }
    if (unboxed_.count(in.dst) == 0) return BoxInt(in, r);
    Mov(V(r), Type::kI64, RawOf(in.dst));  // the object stays NULL: unboxed_temporaries.h
    Mov(Operand::Imm(0), Type::kPtr, LirReg(in.dst));
  }

  // An int form's first step: operands that are unboxed floats only (not of both kinds) go to
  // `float_form` while their object is NULL, since the int form reads objects.
  void LeaveIfFloatOnly(const Instr& in, int float_form) {
    for (int a : in.args) {
      if (unboxed_floats_.count(a) != 0 && !IsDual(a)) {
        SlowIf(Cond::kEq, Type::kPtr, V(LirReg(a)), Operand::Imm(0), float_form);
      }
    }
  }

  // Whether an operand of `in` is an unboxed temporary (its consumer must take its inline
  // forms: it is the only reader of the raw value).
  bool HasUnboxedOperand(const Instr& in) const {
    return std::any_of(in.args.begin(), in.args.end(), [this](int a) { return IsUnboxed(a); });
  }
  bool IsUnboxed(int reg) const { return unboxed_.count(reg) != 0 || unboxed_floats_.count(reg); }
  // Unboxed as an int or as a float, whichever the producer's path made (RawOf holds
  // kRawFloatMark when it is a float).
  bool IsDual(int reg) const { return unboxed_.count(reg) != 0 && unboxed_floats_.count(reg); }

  // The bytecode offset of the instruction defining `reg` (single-definition registers).
  int BcOfDefinition(int reg) const {
    for (const Block& b : f_.blocks) {
      for (const Instr& in : b.instrs) {
        if (in.dst == reg) return in.bc;
      }
    }
    return -1;
  }

  // Whether `in`'s type feedback (hir/feedback.h) leaves inline form `form` possible: without
  // feedback every form is; with it, only the one 3.11's interpreter specialised the site to.
  static bool Allows(const Instr& in, Feedback form) {
    return in.feedback == Feedback::kNone || in.feedback == form;
  }
  // The instance attribute and method probes: not for a site 3.11 found a module attribute,
  // a slot or a class method at, where the probe could only fail.
  static bool InstanceProbe(const Instr& in) { return Allows(in, Feedback::kInstance); }

  // Without feedback, an operand guessed to be a float (probable_floats.h) rules the
  // small-int form out.
  bool GuessedFloat(const Instr& in) const {
    return in.feedback == Feedback::kNone &&
           std::any_of(in.args.begin(), in.args.end(),
                       [this](int a) { return probable_floats_.count(a) != 0; });
  }

  // Whether `in` has the float form here: a BINARY_OP + - * / or a comparison whose operands
  // may be exact floats (an int constant rules it out: int op float is mixed, which stock
  // takes generically too). A comparison has it only with a reason to expect floats (3.11's
  // COMPARE_OP_FLOAT_JUMP, a float constant, an operand guessed to be one): most compares are
  // of ints, and a second form behind the first would cost every one of them code.
  bool HasFloatForm(const Instr& in) const {
    const bool compare = (in.op == Op::kCompareBool || in.op == Op::kCompareOp) &&
                         (in.feedback == Feedback::kFloat || GuessedFloat(in) ||
                          ConstKindOf(in.args[0]) == ConstKind::kFloat ||
                          ConstKindOf(in.args[1]) == ConstKind::kFloat);
    const bool arithmetic = in.op == Op::kBinaryOp && FloatFormOf(in.imm);
    return (compare || arithmetic) && rt_.py_float_type != 0 && !SmallIntConst(in.args[0]) &&
           !SmallIntConst(in.args[1]) && !KnownNot(in.args[0], ConstKind::kFloat) &&
           !KnownNot(in.args[1], ConstKind::kFloat) && Allows(in, Feedback::kFloat);
  }

  // Whether `in` (kBinaryOp or kCompareBool) has a small-int form here.
  bool HasIntForm(const Instr& in) const {
    // Asked of any consumer of a temporary (UnboxedTemporaries): an op with one operand
    // must not get as far as reading a second (AddressSanitizer found that read).
    const bool compare = in.op == Op::kCompareBool || in.op == Op::kCompareOp;
    if (!compare && in.op != Op::kBinaryOp) return false;
    const bool maybe_ints = !KnownNot(in.args[0], ConstKind::kInt) &&
                            !KnownNot(in.args[1], ConstKind::kInt) && Allows(in, Feedback::kInt) &&
                            !GuessedFloat(in);
    if (compare) return maybe_ints;
    return maybe_ints && HasSmallIntForm(in.imm, SmallIntConst(in.args[1]));
  }

  // The LIR register holding unboxed temporary `reg`'s C value while its object is NULL: an
  // int (RawOf) or a double (RawFloatOf). A temporary of both kinds holding a double has
  // kRawFloatMark as its int, a value no small-int form makes (they stay below 2^61).
  int RawOf(int reg) { return RawVReg(&raw_, reg, Type::kI64); }
  int RawFloatOf(int reg) { return RawVReg(&raw_float_, reg, Type::kF64); }
  int RawVReg(std::map<int, int>* regs, int reg, Type t) {
    auto it = regs->find(reg);
    if (it == regs->end()) it = regs->emplace(reg, out_.NewVReg(t)).first;
    return it->second;
  }
  static constexpr int64_t kRawFloatMark = INT64_MIN;

  // The block `in`'s small-int form leaves for when a guard fails: `target` itself, or, when
  // an operand is an unboxed temporary, a cold block that boxes those still unboxed (the
  // other forms and the generic call take objects) and then goes to `target`.
  int BoxingFirst(const Instr& in, int target) {
    std::vector<int> raw_operands;
    for (int a : in.args) {
      if (IsUnboxed(a)) raw_operands.push_back(a);
    }
    if (raw_operands.empty()) return target;
    const int saved = cur_, known = prev_instr_known_;
    const int box = ColdBlock();
    cur_ = box;
    for (int a : raw_operands) {
      const int boxed = NewBlock(), unboxed = NewBlock();
      Br(Cond::kEq, V(LirReg(a)), Operand::Imm(0), unboxed, boxed);
      cur_ = unboxed;
      SetPrevInstr(in.bc);
      BoxRaw(a);
      DeoptIf(in, Cond::kEq, V(LirReg(a)), Operand::Imm(0));  // the state may hold NULLs
      Jmp(boxed);
      cur_ = boxed;
    }
    Jmp(target);
    cur_ = saved;
    prev_instr_known_ = known;
    return box;
  }

  // Unboxed temporary `a`'s object from its raw value (NULL when out of memory).
  void BoxRaw(int a) {
    const auto box_int = [&] { Call(Helper::a64_box_int, {V(RawOf(a))}, LirReg(a)); };
    const auto box_float = [&] { Call(Helper::PyFloat_FromDouble, {V(RawFloatOf(a))}, LirReg(a)); };
    const int done = NewBlock();
    if (IsDual(a)) {
      const int as_int = NewBlock(), as_float = NewBlock();
      Br(Cond::kEq, V(RawOf(a)), Operand::Imm(kRawFloatMark), as_float, as_int);
      cur_ = as_int;
      box_int();
      Jmp(done);
      cur_ = as_float;
      box_float();
    } else if (unboxed_.count(a) != 0) {
      box_int();
    } else {
      box_float();
    }
    Jmp(done);
    cur_ = done;
  }

  // Python's a // b or a % b for b > 0: C's truncating quotient and remainder, moved down by
  // one step when the remainder is negative (the quotient rounds toward -inf, the remainder
  // takes b's sign).
  int FloorDivOrMod(int a, int b, bool mod) {
    const int rem = Binary(lir::Op::kSRem, V(a), V(b), Type::kI64);
    const int neg = Compare(V(rem), Operand::Imm(0), Cond::kSlt);
    const int exact = mod ? rem : Binary(lir::Op::kSDiv, V(a), V(b), Type::kI64);
    const int stepped = mod ? Binary(lir::Op::kAdd, V(rem), V(b), Type::kI64)
                            : Binary(lir::Op::kSub, V(exact), Operand::Imm(1), Type::kI64);
    return Select(V(neg), V(stepped), V(exact), Type::kI64);
  }

  // a op b of two exact floats into in.dst; `slow` when either is not one, or for a division
  // by +-0.0.
  void FloatArithmetic(const Instr& in, lir::Op op, int not_floats) {
    const int slow = BoxingFirst(in, not_floats);
    const auto [fa, fb] = FloatOperands(in, slow);
    if (op == lir::Op::kFDiv) {
      // The divisor's bits (LIR has no f64 compare): from its object, or, when it may be an
      // unboxed float, through the scratch slot.
      int bits;
      if (unboxed_floats_.count(in.args[1]) != 0) {
        const int scratch = ScratchAddr();
        Store(V(fb), V(scratch), 0, Type::kF64);
        bits = Load(V(scratch), 0, Type::kI64);
      } else {
        bits = Load(V(LirReg(in.args[1])), offsetof(PyFloatObject, ob_fval), Type::kI64);
      }
      const int magnitude =
          Binary(lir::Op::kAnd, V(bits), Operand::Imm(INT64_MAX), Type::kI64);  // sign off
      SlowIf(Cond::kEq, Type::kI64, V(magnitude), Operand::Imm(0), slow);
    }
    const int r = Binary(op, V(fa), V(fb), Type::kF64);
    if (unboxed_floats_.count(in.dst) == 0) return BoxFloatResult(in, r, slow);
    Mov(V(r), Type::kF64, RawFloatOf(in.dst));  // the object stays NULL: unboxed_temporaries.h
    if (IsDual(in.dst)) Mov(Operand::Imm(kRawFloatMark), Type::kI64, RawOf(in.dst));
    Mov(Operand::Imm(0), Type::kPtr, LirReg(in.dst));
  }

  // HIR register `reg`'s double: a float constant's, its raw value while it is an unboxed
  // float, else its object's when that is an exact float; else a jump to `slow` (a temporary
  // of both kinds, or an int one, that holds an int goes there too).
  int FloatOperand(int reg, int slow) {
    if (ConstKindOf(reg) == ConstKind::kFloat) {  // a float constant: no type test
      return Load(V(LirReg(reg)), offsetof(PyFloatObject, ob_fval), Type::kF64);
    }
    if (unboxed_floats_.count(reg) == 0) {
      if (unboxed_.count(reg) != 0) {  // an int temporary: NULL while it holds a C int
        SlowIf(Cond::kEq, Type::kPtr, V(LirReg(reg)), Operand::Imm(0), slow);
      }
      return FloatValue(V(LirReg(reg)), slow);
    }
    const auto raw = [&] {
      if (IsDual(reg)) {
        const int is_float = NewBlock();
        Br(Cond::kEq, V(RawOf(reg)), Operand::Imm(kRawFloatMark), is_float, slow);
        cur_ = is_float;
      }
      return RawFloatOf(reg);
    };
    return RawOrBoxed(reg, Type::kF64, raw, [&] { return FloatValue(V(LirReg(reg)), slow); });
  }

  // `obj`'s double when it is an exact float, else a jump to `slow`.
  int FloatValue(Operand obj, int slow) {
    const int type = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_float_type), slow);
    return Load(obj, offsetof(PyFloatObject, ob_fval), Type::kF64);
  }

  // Both operands of `in` as FloatOperand reads them. When both are objects that need a type
  // test (not float constants, not unboxed temporaries), the two tests are one branch
  // (SlowIfEither).
  std::pair<int, int> FloatOperands(const Instr& in, int slow) {
    const int ra = in.args[0], rb = in.args[1];
    if (ra == rb) {
      const int a = FloatOperand(ra, slow);
      return {a, a};
    }
    const auto tested = [this](int reg) {
      return ConstKindOf(reg) != ConstKind::kFloat && !IsUnboxed(reg);
    };
    if (!tested(ra) || !tested(rb)) {
      const int a = FloatOperand(ra, slow);
      return {a, FloatOperand(rb, slow)};
    }
    const Operand oa = V(LirReg(ra)), ob = V(LirReg(rb));
    // Straight after the int form's failure (only its paired tests lead here), the types it
    // loaded are still in their registers.
    const OperandTypes& known = operand_types_;
    const bool reuse = known.fail == cur_ && known.a == ra && known.b == rb;
    const int ta = reuse ? known.ta : Load(oa, offsetof(PyObject, ob_type), Type::kPtr);
    const int tb = reuse ? known.tb : Load(ob, offsetof(PyObject, ob_type), Type::kPtr);
    const Operand float_type = Imm(rt_.py_float_type);
    SlowIfEither(Cond::kNe, Type::kPtr, V(ta), float_type, Cond::kNe, V(tb), float_type, slow,
                 in.bc);
    const int a = Load(oa, offsetof(PyFloatObject, ob_fval), Type::kF64);
    return {a, Load(ob, offsetof(PyFloatObject, ob_fval), Type::kF64)};
  }

  // `fast`, given the cold block to jump to when its guards fail, then in that block
  // `generic`; both continue at one join, where prev_instr is known only if both agree.
  // The fast path is optional decision `kind` (jit/decisions.h); with none (a path an earlier
  // decision already chose) it is always taken. Declined, `generic` alone is the code.
  template <typename Fast, typename Generic>
  void FastOrGeneric(std::optional<Decision> kind, const Instr& in, Fast fast, Generic generic) {
    if (kind && !Take(decisions_, *kind, in.bc)) return generic();
    const int slow = ColdBlock(), done = NewBlock();
    const int known = prev_instr_known_;
    fast(slow);
    Jmp(done);
    cur_ = slow;
    prev_instr_known_ = known;
    generic();
    Jmp(done);
    Join(done, known, in.bc);
  }

  // Where a pointer is: items + scale * index + disp (index -1: none). The scale is 8 for a
  // sequence's items and 1 for a byte offset (an attribute's, AttrSlot::At).
  struct ItemAddress {
    int items = -1;
    int index = -1;
    int64_t disp = 0;
    int scale = 8;
  };
  // The pointer at `at`, into `dst` (or a new vreg).
  int LoadItem(const ItemAddress& at, int dst = -1) {
    lir::Instr in;
    in.op = lir::Op::kLoad;
    in.dst = dst >= 0 ? dst : out_.NewVReg(Type::kPtr);
    AddressOf(at, in);
    return Emit(std::move(in)).dst;
  }
  void StoreItem(Operand value, const ItemAddress& at) {
    lir::Instr in;
    in.op = lir::Op::kStore;
    in.store_type = Type::kPtr;
    in.args = {value};
    AddressOf(at, in);
    Emit(std::move(in));
  }
  static void AddressOf(const ItemAddress& at, lir::Instr& in) {
    in.base = V(at.items);
    if (at.index >= 0) {
      in.index = V(at.index);
      in.scale = at.scale;
    }
    in.disp = at.disp;
  }

  // Where seq[i] is (in.args[0], in.args[1]) when the container is an exact list (if
  // `lists`) or tuple (if `tuples`) and the index an int of at most one digit with
  // 0 <= i < len; else a jump to `slow`. One unsigned compare against the length rejects
  // negative indexes too. A constant index (`t[1]`) is compared as an immediate and becomes
  // the access's displacement; any other is the access's scaled index register: one load
  // or store, not a shift, an add and the access.
  ItemAddress ItemSlot(const Instr& in, int slow, int other, bool lists, bool tuples) {
    const Operand seq = V(LirReg(in.args[0]));
    const int items = FirstItemAddress(seq, lists, tuples, false, other);
    const Operand index = SmallIntOperand(in.args[1], slow);
    const int size = Load(seq, offsetof(PyVarObject, ob_size), Type::kI64);
    if (index.is_imm() && index.imm >= 0 && index.imm < kConstantIndexLimit) {
      SlowIf(Cond::kUle, Type::kI64, V(size), index, slow);
      return ItemAddress{items, -1, 8 * index.imm};
    }
    const int i = index.is_vreg() ? index.vreg : Mov(index, Type::kI64);
    SlowIf(Cond::kUge, Type::kI64, V(i), V(size), slow);
    return ItemAddress{items, i, 0};
  }
  // Constant indexes below this are a displacement that a load's scaled offset encodes
  // (8 * 511 bytes, with room for the tuple header: immediates.h).
  static constexpr int64_t kConstantIndexLimit = 512;

  // container[i] = value: for a list slot (ItemSlot), the value stored and the old item
  // released inline (3.11's STORE_SUBSCR_LIST_INT); anything else through PyObject_SetItem.
  void LowerListStore(const Instr& in) {
    const Operand value = V(LirReg(in.args[2]));
    FastOrGeneric(
        Decision::kLowerListStoreInline, in,
        [&](int slow) {
          const ItemAddress slot = ItemSlot(in, slow, slow, true, false);
          Incref(value);
          const int old = LoadItem(slot);
          StoreItem(value, slot);
          if (Planted(decisions_, Plant::kDropDecref)) return;
          Decref(old, false, in.bc, IsFloatLike(in.args[2]));
        },
        [&] {
          CallStatus(in, Helper::PyObject_SetItem,
                     {V(LirReg(in.args[0])), V(LirReg(in.args[1])), value});
        });
  }

  // container[i]: for a list or tuple slot (ItemSlot: those `lists` and `tuples` allow), the
  // item, inline (3.11's BINARY_SUBSCR_LIST_INT and BINARY_SUBSCR_TUPLE_INT); anything else
  // through PyObject_GetItem.
  void LowerIndex(const Instr& in, bool lists, bool tuples, bool strs) {
    FastOrGeneric(
        Decision::kLowerListIndexInline, in,
        [&](int slow) {
          const int not_sequence = strs ? NewBlock() : slow, done = NewBlock();
          if (lists || tuples) {
            const ItemAddress slot = ItemSlot(in, slow, not_sequence, lists, tuples);
            const int item = LoadItem(slot);
            Incref(V(item));
            Mov(V(item), Type::kPtr, LirReg(in.dst));
            Jmp(done);
          } else {
            Jmp(not_sequence);
          }
          if (strs) {
            cur_ = not_sequence;
            StrCharAt(in, slow);
            Jmp(done);
          }
          cur_ = done;
        },
        [&] {
          CallChecked(in, Helper::PyObject_GetItem, {V(LirReg(in.args[0])), V(LirReg(in.args[1]))});
        });
  }

  // str[i] for an exact compact ASCII str and 0 <= i < len, into in.dst: the interpreter's own
  // one-character str (as InlineChr finds it), which is what str's item lookup returns for a
  // character below 128. Anything else jumps to `slow`.
  void StrCharAt(const Instr& in, int slow) {
    const Operand s = V(LirReg(in.args[0]));
    RequireAsciiStr(s, slow);
    const Operand index = SmallIntOperand(in.args[1], slow);
    const int i = index.is_vreg() ? index.vreg : Mov(index, Type::kI64);
    const int length = Load(s, offsetof(PyASCIIObject, length), Type::kI64);
    SlowIf(Cond::kUge, Type::kI64, V(i), V(length), slow);
    const int at = Binary(lir::Op::kAdd, s, V(i), Type::kPtr);
    AsciiChar(ZExt(V(Load(V(at), sizeof(PyASCIIObject), Type::kI8))), LirReg(in.dst));
  }

  // The inline forms a comparison has: small ints; exact floats (ordered: false with a NaN but
  // for !=); a str constant tested for (in)equality (StrEquality); a str ordered against a
  // one-character one (StrOrderAgainstChar). An operand that is a constant of another type
  // than int rules the small-int form out, one of another type than float the float form.
  struct CompareForms {
    bool ints = false, floats = false, strs = false, str_order = false;
    bool any() const { return ints || floats || strs || str_order; }
  };
  CompareForms CompareFormsOf(const Instr& in) const {
    CompareForms forms;
    forms.ints = HasIntForm(in);
    forms.floats = HasFloatForm(in);
    const bool equality = in.imm == Py_EQ || in.imm == Py_NE;
    const bool str_feedback = rt_.py_str_type != 0 && Allows(in, Feedback::kStr);
    forms.strs = str_feedback && equality && (IsStrConst(in.args[0]) || IsStrConst(in.args[1]));
    forms.str_order = str_feedback && !equality &&
                      (AsciiCharConst(in.args[0]) >= 0 || AsciiCharConst(in.args[1]) >= 0);
    return forms;
  }
  // Whether `in` gets its inline forms: an unboxed operand is read only by the int form
  // (unboxed_temporaries.h), so that one is not optional.
  bool TakeCompareForms(const Instr& in, const CompareForms& forms) {
    return forms.any() &&
           (HasUnboxedOperand(in) || Take(decisions_, Decision::kLowerCompareInline, in.bc));
  }
  // The forms `forms` picks (small ints, then floats; or one str form), deciding `in` into `c`
  // (an i64, 0 or 1) and jumping to `done`; a failed guard jumps to `slow`.
  void EmitCompareForm(const Instr& in, const CompareForms& forms, int c, int slow, int done) {
    static const Cond kConds[] = {Cond::kSlt, Cond::kSle, Cond::kEq,
                                  Cond::kNe,  Cond::kSgt, Cond::kSge};
    if (forms.ints || forms.floats) {
      const int known = prev_instr_known_;
      if (forms.ints) {
        const int not_ints = forms.floats ? NewBlock() : slow;
        if (forms.floats) LeaveIfFloatOnly(in, not_ints);
        const int fail = BoxingFirst(in, not_ints);
        const auto [a, b] = SmallIntOperands(in, fail, not_ints);
        Compare(a, b, kConds[in.imm], c);
        Jmp(done);
        if (!forms.floats) return;
        cur_ = not_ints;
        prev_instr_known_ = known;
      }
      const int fail = BoxingFirst(in, slow);
      const auto [a, b] = FloatOperands(in, fail);
      Compare(V(a), V(b), kConds[in.imm], c, Type::kF64);
      Jmp(done);
    } else if (forms.strs) {
      StrEquality(in, c, slow, done);
    } else {
      StrOrderAgainstChar(in, kConds, c, slow, done);
    }
  }

  // bool(a op b): an inline form (CompareFormsOf), else and on its slow path a64_compare_bool.
  void LowerCompareBool(const Instr& in) {
    const int c = LirReg(in.dst);
    const auto helper = [&] {
      CallInt(in, Helper::a64_compare_bool,
              {V(LirReg(in.args[0])), V(LirReg(in.args[1])), Operand::Imm(in.imm)}, c);
    };
    const CompareForms forms = CompareFormsOf(in);
    if (!TakeCompareForms(in, forms)) return helper();  // the call is the hot path
    const int slow = ColdBlock(), done = NewBlock();
    const int known = prev_instr_known_;
    EmitCompareForm(in, forms, c, slow, done);
    cur_ = slow;
    prev_instr_known_ = known;
    helper();
    Jmp(done);
    Join(done, known, in.bc);
  }

  // a op b kept as a value (`return a < b`, `x = a == b`, a generator's `yield a <= b`), which
  // 3.11 never specialises (its COMPARE_OP forms need a jump after them): an inline form
  // decides it and the result is True or False; else and on its slow path
  // PyObject_RichCompare.
  void LowerCompareOp(const Instr& in) {
    const auto helper = [&] {
      CallChecked(in, Helper::PyObject_RichCompare,
                  {V(LirReg(in.args[0])), V(LirReg(in.args[1])), Operand::Imm(in.imm)});
    };
    const CompareForms forms = CompareFormsOf(in);
    if (!TakeCompareForms(in, forms)) return helper();
    const int slow = ColdBlock(), decided = NewBlock(), done = NewBlock();
    const int known = prev_instr_known_;
    const int c = out_.NewVReg(Type::kI64);
    EmitCompareForm(in, forms, c, slow, decided);
    cur_ = decided;
    const int dst = LirReg(in.dst);
    Select(V(c), Imm(rt_.py_true), Imm(rt_.py_false), Type::kPtr, dst);
    Incref(V(dst));
    Jmp(done);
    cur_ = slow;
    prev_instr_known_ = known;
    helper();
    Jmp(done);
    Join(done, known, in.bc);
  }

  // a == b or a != b (in.imm) into `c`, where one operand is a str constant, as 3.11's
  // COMPARE_OP_STR_JUMP decides it without comparing characters when it can: the same
  // object is equal; two distinct interned strs are not (interning keeps one object per
  // value). Anything else jumps to `slow`.
  void StrEquality(const Instr& in, int c, int slow, int done) {
    const bool const_first = IsStrConst(in.args[0]);
    const int k = const_first ? in.args[0] : in.args[1];
    const int other = const_first ? in.args[1] : in.args[0];
    const int same = NewBlock(), differ = NewBlock();
    Br(Cond::kEq, V(LirReg(k)), V(LirReg(other)), same, differ);
    cur_ = same;
    Mov(Operand::Imm(in.imm == Py_EQ), Type::kI64, c);
    Jmp(done);
    cur_ = differ;
    if (ConstKindOf(k) != ConstKind::kInternedStr) return Jmp(slow);
    const Operand x = V(LirReg(other));
    const int type = Load(x, offsetof(PyObject, ob_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_str_type), slow);
    // PyASCIIObject.state's first bit field, `interned` (2 bits), is its low bits.
    const int state = Load(x, offsetof(PyASCIIObject, state), Type::kI32);
    const int interned = Binary(lir::Op::kAnd, V(ZExt(V(state))), Operand::Imm(3), Type::kI64);
    SlowIf(Cond::kEq, Type::kI64, V(interned), Operand::Imm(0), slow);
    Mov(Operand::Imm(in.imm == Py_NE), Type::kI64, c);
    Jmp(done);
  }

  // a op b (an ordering, in.imm: `"a" <= ch`, `ch < "0"`) into `c`, where one operand is a
  // one-character ASCII str constant k and the other an exact compact ASCII str x of at least
  // one character. 3.11 has no specialised form and compares through unicode_compare; here
  // x's first character decides unless it is k's, and then x is the greater exactly when it is
  // longer. So each side is keyed 2 * first character + (longer than one), and the keys
  // compare as the strs do. Anything else (not an exact str, not ASCII, empty) jumps to `slow`.
  void StrOrderAgainstChar(const Instr& in, const Cond* conds, int c, int slow, int done) {
    const bool const_first = AsciiCharConst(in.args[0]) >= 0;
    const int k = AsciiCharConst(const_first ? in.args[0] : in.args[1]);
    const Operand x = V(LirReg(const_first ? in.args[1] : in.args[0]));
    RequireAsciiStr(x, slow);
    const int length = Load(x, offsetof(PyASCIIObject, length), Type::kI64);
    SlowIf(Cond::kEq, Type::kI64, V(length), Operand::Imm(0), slow);
    const int first = ZExt(V(Load(x, sizeof(PyASCIIObject), Type::kI8)));
    const int longer = Compare(V(length), Operand::Imm(1), Cond::kNe);
    const int key =
        Binary(lir::Op::kOr, V(Binary(lir::Op::kShl, V(first), Operand::Imm(1), Type::kI64)),
               V(longer), Type::kI64);
    // `k op x` is `x op' k` with the operands' roles swapped (< for >, <= for >=).
    static const int kSwapped[] = {Py_GT, Py_GE, Py_EQ, Py_NE, Py_LT, Py_LE};
    const int op = const_first ? kSwapped[in.imm] : static_cast<int>(in.imm);
    Compare(V(key), Operand::Imm(2 * int64_t{k}), conds[op], c);
    Jmp(done);
  }

  // ---- Inline cache checks: a hit runs no call at all; the helper on the slow path fills
  // the cache (jit/runtime/site_cache.h) ----

  lir::Instr BrInstr(Cond c, Type t, Operand a, Operand b, int if_true, int if_false) {
    lir::Instr br;
    br.op = lir::Op::kBr;
    br.cond = c;
    br.cmp_type = t;
    br.args = {a, b};
    br.targets[0] = if_true;
    br.targets[1] = if_false;
    return br;
  }
  // Continues in a new block when `a c b` does not hold, jumps to `slow` when it does.
  void SlowIf(Cond c, Type t, Operand a, Operand b, int slow) {
    const int next = NewBlock();
    Emit(BrInstr(c, t, a, b, slow, next));
    cur_ = next;
  }
  // Two guards with one failure block: `slow` when `a c b` or `x c2 y` holds. Decision
  // lower.guard-pair makes them one branch (lir.h's either form: cmp, ccmp, b.cond), which
  // under QEMU also ends one translation block where two did; declined, two SlowIfs.
  void SlowIfEither(Cond c, Type t, Operand a, Operand b, Cond c2, Operand x, Operand y, int slow,
                    int bc) {
    EmitEither(BrInstr(c, t, a, b, slow, -1), c2, t, x, y, bc);
  }
  // `first` (a compare-form branch to its targets[0]) or `x c2 y` (as `t2`, 32 bits or more):
  // one either branch to first.targets[0] when decision lower.guard-pair is taken, else two
  // branches; either way the code continues in a new block.
  void EmitEither(lir::Instr first, Cond c2, Type t2, Operand x, Operand y, int bc) {
    const int slow = first.targets[0];
    if (!Take(decisions_, Decision::kLowerGuardPair, bc)) {
      SlowIf(first.cond, first.cmp_type, first.args[0], first.args[1], slow);
      return SlowIf(c2, t2, x, y, slow);
    }
    EmitEitherBranch(std::move(first), c2, t2, x, y);
  }
  // EmitEither's one branch, without the decision.
  void EmitEitherBranch(lir::Instr first, Cond c2, Type t2, Operand x, Operand y) {
    first.targets[1] = NewBlock();
    first.cond2 = c2;
    first.cmp_type2 = t2;
    first.args.push_back(x);
    first.args.push_back(y);
    cur_ = Emit(std::move(first)).targets[1];
  }
  int ColdBlock() {
    const int b = NewBlock();
    cold_[static_cast<size_t>(b)] = 1;
    return b;
  }
  // After the fast path (ending in `done`) and the slow path: prev_instr is known at `done`
  // only if both agree.
  void Join(int done, int known_before, int bc) {
    cur_ = done;
    prev_instr_known_ = known_before == bc ? known_before : -1;
  }

  // The address of the entry, among the kPolymorphicEntries entries of `stride` bytes from
  // `first` in `site`'s cache, whose 32-bit type version (each entry's first field) is
  // `version`; `slow` if none is (or `version` is 0). Entry 0 is checked inline and the others
  // by a loop in cold blocks, so a site that sees several types stays out of the helper (a base
  // class's method run on subclasses: Richards' Task methods see four) while the hot path stays
  // one branch (SlowIfEither: version 0, or not entry 0's; the cold blocks tell them apart). A
  // loop rather than one compare for each: 7 instructions a site instead of 15.
  int MatchEntry(int version, const void* site, int64_t first, int64_t stride, int slow) {
    static_assert(
        offsetof(AttrEntry, type_version) == 0 && offsetof(MethodEntry, type_version) == 0,
        "an entry's version first");
    const int entry = SiteAddress(site, first);
    const int others = ColdBlock();
    const int entry0 = Load(V(entry), 0, Type::kI32);
    SlowIfEither(Cond::kEq, Type::kI32, V(version), Operand::Imm(0), Cond::kNe, V(version),
                 V(entry0), others, lowering_ != nullptr ? lowering_->bc : -1);
    const int matched = cur_;
    SearchOtherEntries(version, site, first, stride, others, matched, slow, entry, [](int) {});
    return entry;
  }
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
  // The byte offset, in `obj`'s inline values, of the attribute whose AttrCache entry holds
  // obj's type version; `slow` if none does (or the version is 0). As MatchEntry, but entry
  // 0's version and offset are loaded straight from the site (SiteRefOf: the room's register
  // and a displacement), and the loop over the others, in cold blocks, loads each one's offset
  // with its version: the blocks join on the offset, not on the entry's address. The hot path
  // computes no address and its access is indexed by the offset: two instructions fewer than
  // MatchEntry's add, load and add, for two more in the loop (its start and each offset).
  int MatchAttrOffset(int version, const void* site, int slow) {
    constexpr int64_t kFirst = offsetof(AttrCache, entries);
    static_assert(offsetof(AttrEntry, type_version) == 0, "an entry's version first");
    const SiteRef ref = SiteRefOf(site);
    const int others = ColdBlock();
    const int entry0 = LoadSite(ref, kFirst, Type::kI32);
    const int offset = LoadSite(ref, kFirst + offsetof(AttrEntry, offset), Type::kI64);
    SlowIfEither(Cond::kEq, Type::kI32, V(version), Operand::Imm(0), Cond::kNe, V(version),
                 V(entry0), others, lowering_ != nullptr ? lowering_->bc : -1);
    const int matched = cur_;
    SearchOtherEntries(
        version, site, kFirst, sizeof(AttrEntry), others, matched, slow, -1,
        [&](int entry) { Load(V(entry), offsetof(AttrEntry, offset), Type::kI64, offset); });
    return offset;
  }
  // The cached attribute's place in `obj`'s inline values, for the AttrCache entry of obj's
  // type: the values and the slot's byte offset in them (the accesses' index register).
  struct AttrSlot {
    int values, offset;
    ItemAddress At(int64_t disp) const { return ItemAddress{values, offset, disp, 1}; }
  };
  AttrSlot GuardedAttrSlot(Operand obj, const void* site, int slow) {
    const int tp = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
    const int version = Load(V(tp), offsetof(PyTypeObject, tp_version_tag), Type::kI32);
    const int offset = MatchAttrOffset(version, site, slow);
    const int values = Load(obj, runtime::kInlineValuesOffset, Type::kPtr);
    SlowIf(Cond::kEq, Type::kI64, V(values), Operand::Imm(0), slow);
    return {values, offset};
  }

  // A new attribute in inline values joins their insertion order, as 3.11's
  // _PyDictValues_AddToInsertionOrder does: the byte before the values counts the
  // attributes present (the one before it is the capacity), and the bytes below those list
  // their indexes in order: size += 1, then values[-2 - size] = index, values[-2] = size.
  void AddToInsertionOrder(int values, int offset) {
    const int size = ZExt(V(Load(V(values), -2, Type::kI8)));
    const int grown = Binary(lir::Op::kAdd, V(size), Operand::Imm(1), Type::kI64);
    const int at = Binary(lir::Op::kSub, V(values), V(grown), Type::kPtr);
    const int index = Binary(lir::Op::kLShr, V(offset), Operand::Imm(3), Type::kI64);
    Store(V(Truncate(index, Type::kI8)), V(at), -2, Type::kI8);
    Store(V(Truncate(grown, Type::kI8)), V(values), -2, Type::kI8);
  }
  // The low bits of i64 `v` as a `t` value.
  int Truncate(int v, Type t) {
    lir::Instr trunc;
    trunc.op = lir::Op::kTrunc;
    trunc.dst = out_.NewVReg(t);
    trunc.args = {V(v)};
    return Emit(std::move(trunc)).dst;
  }

  void LowerLoadAttr(const Instr& in) {
    SiteCache* site =
        Take(decisions_, Decision::kLowerLoadAttrInline, in.bc) ? NewSiteCache() : nullptr;
    const Operand obj = V(LirReg(in.args[0]));
    if (site == nullptr) {
      CallChecked(in, Helper::PyObject_GetAttr, {obj, Imm(Name(in.imm))});
      return;
    }
    const auto cached = [&] {
      SiteCallChecked(in, Helper::a64_load_attr_cached, {obj, V(SiteAddress(site))});
    };
    if (InlineModuleProbe(in)) {
      return ModuleAttribute(in, obj, site, offsetof(AttrCache, module), LirReg(in.dst), -1,
                             cached);
    }
    if (!InstanceProbe(in)) return cached();
    // Asked here, while this site's own decision is the last one taken (the guards below take
    // lower.guard-pair decisions).
    const bool planted = Planted(decisions_, Plant::kCacheIndex);
    const int known = prev_instr_known_;
    const int slow = ColdBlock(), done = NewBlock();
    LoadItem(GuardedAttrSlot(obj, site, slow).At(planted ? 8 : 0), LirReg(in.dst));
    SlowIf(Cond::kEq, Type::kI64, V(LirReg(in.dst)), Operand::Imm(0), slow);
    Incref(V(LirReg(in.dst)));
    Jmp(done);
    cur_ = slow;
    SiteCallChecked(in, Helper::a64_load_attr_cached, {obj, V(SiteAddress(site))});
    Jmp(done);
    Join(done, known, in.bc);
  }

  void LowerStoreAttr(const Instr& in) {
    SiteCache* site =
        Take(decisions_, Decision::kLowerStoreAttrInline, in.bc) ? NewSiteCache() : nullptr;
    const Operand obj = V(LirReg(in.args[0])), value = V(LirReg(in.args[1]));
    if (site == nullptr) {
      CallStatus(in, Helper::PyObject_SetAttr, {obj, Imm(Name(in.imm)), value});
      return;
    }
    if (!InstanceProbe(in)) {
      SiteCallInt(in, Helper::a64_store_attr_cached, {obj, value, V(SiteAddress(site))});
      return;
    }
    const int known = prev_instr_known_;
    const int slow = ColdBlock(), done = NewBlock();
    const AttrSlot place = GuardedAttrSlot(obj, site, slow);
    const int old = LoadItem(place.At(0));
    Incref(value);
    StoreItem(value, place.At(0));
    // 3.11's STORE_ATTR_INSTANCE_VALUE: a new attribute (as in __init__) joins the insertion
    // order, a replaced one is released.
    const int added = NewBlock(), replaced = NewBlock();
    Br(Cond::kEq, V(old), Operand::Imm(0), added, replaced);
    cur_ = added;
    AddToInsertionOrder(place.values, place.offset);
    Jmp(done);
    cur_ = replaced;
    Decref(old, false, in.bc, IsFloatLike(in.args[1]));
    Jmp(done);
    cur_ = slow;
    SiteCallInt(in, Helper::a64_store_attr_cached, {obj, value, V(SiteAddress(site))});
    Jmp(done);
    Join(done, known, in.bc);
  }

  // A site whose feedback says module, with its cache (the site's decision was taken when the
  // cache was made): the ModuleEntry at `at` in it checked inline into `dst` (and NULL into
  // `null_dst`, if any: LOAD_METHOD's first result), `cached` behind it. Without feedback, an
  // attribute of a global that held a module at compile time (`math.sqrt`) is guessed so.
  bool InlineModuleProbe(const Instr& in) const {
    const bool guessed = in.feedback == Feedback::kNone && module_global_regs_.count(in.args[0]);
    return (in.feedback == Feedback::kModule || guessed) && rt_.py_module_type != 0;
  }
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
  // dst = the value the ModuleEntry at `cache + at` remembers, with a new reference, when
  // `obj` is its module and the module's dict still has the version tag it had (3.11's
  // LOAD_ATTR_MODULE, for sites with that feedback); else a jump to `slow`.
  // `unless_ne`, when given, is a pair of values that must be equal too, tested in one guard
  // with the module's identity (`obj` must be safe to compare before that pair is).
  void ModuleProbe(Operand obj, SiteRef cache, int64_t at, int dst, int slow,
                   std::optional<std::pair<int, int>> unless_ne = std::nullopt, int bc = -1) {
    const int module = LoadSite(cache, at + offsetof(ModuleEntry, module), Type::kPtr);
    if (unless_ne) {
      SlowIfEither(Cond::kNe, Type::kI64, V(unless_ne->first), V(unless_ne->second), Cond::kNe, obj,
                   V(module), slow, bc);
    } else {
      SlowIf(Cond::kNe, Type::kI64, obj, V(module), slow);
    }
    // The entry's module is borrowed: another object may have its address now.
    const int type = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_module_type), slow);
    const int dict = Load(obj, offsetof(PyModuleObject, md_dict), Type::kPtr);
    CheckVersion(dict, cache, at + offsetof(ModuleEntry, version), slow);
    LoadSite(cache, at + offsetof(ModuleEntry, value), Type::kPtr, dst);
    Incref(V(dst));
  }

  // Goes to `slow` unless the frame's globals have the version tag GlobalCache `cache` holds.
  void CheckGlobalsVersion(SiteRef cache, int slow) {
    const auto [version, cached] = GlobalsVersion(cache);
    SlowIf(Cond::kNe, Type::kI64, V(version), V(cached), slow);
  }
  // The frame's globals' version tag and the one GlobalCache `cache` holds (loads only: the
  // globals dict and the cache are always there to read).
  std::pair<int, int> GlobalsVersion(SiteRef cache) {
    const int globals = Load(V(frame_), offsetof(_PyInterpreterFrame, f_globals), Type::kPtr);
    const int version = Load(V(globals), offsetof(PyDictObject, ma_version_tag), Type::kI64);
    return {version, LoadSite(cache, offsetof(GlobalCache, globals_version), Type::kI64)};
  }

  // Goes to `slow` unless dict `dict`'s version tag equals the one cached at `cache + at`.
  void CheckVersion(int dict, SiteRef cache, int64_t at, int slow) {
    const int version = Load(V(dict), offsetof(PyDictObject, ma_version_tag), Type::kI64);
    const int cached = LoadSite(cache, at, Type::kI64);
    SlowIf(Cond::kNe, Type::kI64, V(version), V(cached), slow);
  }

  // Whether a LOAD_GLOBAL's name is in the globals (3.11 specialised it LOAD_GLOBAL_MODULE, or,
  // not quickened yet, the name was a key of the function's globals when it was compiled):
  // its site then checks the globals' version alone, and its cache holds only values found
  // there (a64_load_global_module_cached). A guess that stops being true costs speed only.
  bool InGlobals(const Instr& in) const {
    if (in.feedback != Feedback::kNone) return in.feedback == Feedback::kGlobalModule;
    return GlobalKindOf(in.imm) != hir::CodeInfo::kNotGlobal;
  }
  uint8_t GlobalKindOf(int64_t name) const {
    const std::vector<uint8_t>& kinds = f_.code.global_kinds;
    return static_cast<size_t>(name) < kinds.size() ? kinds[name] : hir::CodeInfo::kNotGlobal;
  }

  // Goes to `slow` unless the globals' tag, and unless `module_only` the builtins' tag too
  // (both in one guard), are the ones GlobalCache `cache` holds.
  void CheckGlobalTags(SiteRef cache, bool module_only, int slow, int bc) {
    if (module_only) return CheckGlobalsVersion(cache, slow);
    const auto [globals, cached_globals] = GlobalsVersion(cache);
    const int builtins = Load(V(frame_), offsetof(_PyInterpreterFrame, f_builtins), Type::kPtr);
    const int version = Load(V(builtins), offsetof(PyDictObject, ma_version_tag), Type::kI64);
    const int cached = LoadSite(cache, offsetof(GlobalCache, builtins_version), Type::kI64);
    SlowIfEither(Cond::kNe, Type::kI64, V(globals), V(cached_globals), Cond::kNe, V(version),
                 V(cached), slow, bc);
  }

  void LowerLoadGlobal(const Instr& in) {
    SiteCache* site =
        Take(decisions_, Decision::kLowerLoadGlobalInline, in.bc) ? NewSiteCache() : nullptr;
    const int dst = LirReg(in.dst);
    if (site == nullptr) {
      SetPrevInstr(in.bc);
      Call(Helper::a64_load_global, {V(frame_), Imm(Name(in.imm))}, dst);
      DeoptIf(in, Cond::kEq, V(dst), Operand::Imm(0));
      return;
    }
    const int known = prev_instr_known_;
    const int slow = ColdBlock(), done = NewBlock();
    const SiteRef cache = SiteRefOf(site);
    const bool module_only = InGlobals(in);
    // The version tags alone: 3.11 gives every dict, and every change to one, a version tag no
    // other dict has or had (docs/cpython311.md), so equal tags mean the very dicts the cache
    // was filled from, unchanged since; the cache's dict pointers are the helper's.
    if (UseSiteStub(in.bc)) {
      const int value = CallNamed(module_only ? kGlobalStubName : kGlobalBuiltinStubName,
                                  {V(frame_), V(AddressOf(cache, site))});
      SlowIf(Cond::kEq, Type::kI64, V(value), Operand::Imm(0), slow);
      Mov(V(value), Type::kPtr, dst);
    } else {
      CheckGlobalTags(cache, module_only, slow, in.bc);
      LoadSite(cache, offsetof(GlobalCache, value), Type::kPtr, dst);
      Incref(V(dst));
    }
    Jmp(done);
    cur_ = slow;
    SiteCallChecked(
        in, module_only ? Helper::a64_load_global_module_cached : Helper::a64_load_global_cached,
        {V(AddressOf(cache, site))});
    Jmp(done);
    Join(done, known, in.bc);
  }

  // `module.attr` where the module is a global: LoadGlobal %g, LoadAttr %a = %g or LoadMethod
  // %null, %a = %g (a module probe, InlineModuleProbe) and Decref %g in a row, %g read by
  // nothing else. Lowered as one, the hot path never takes a reference to the module: the
  // globals hold it for as long as their version tag is the cached one.
  void FindModuleAttrsOfGlobals(const std::vector<int>& defs, const std::vector<int>& reads) {
    for (const Block& b : f_.blocks) {
      for (size_t i = 0; i + 2 < b.instrs.size(); i++) {
        const Instr &global = b.instrs[i], &attr = b.instrs[i + 1], &release = b.instrs[i + 2];
        const int g = global.dst;
        const bool attr_op = attr.op == Op::kLoadAttr || attr.op == Op::kLoadMethod;
        if (global.op != Op::kLoadGlobal || g < 0 || defs.at(static_cast<size_t>(g)) != 1 ||
            !InGlobals(global) || !attr_op || attr.args[0] != g || !InlineModuleProbe(attr) ||
            release.op != Op::kDecref || release.args[0] != g) {
          continue;
        }
        // Read by the attribute load, its error state (which holds the module) and the release.
        const bool in_state =
            attr.has_state && std::count(attr.state.stack.begin(), attr.state.stack.end(), g) == 1;
        if (reads[static_cast<size_t>(g)] != 2 + (in_state ? 1 : 0)) continue;
        fused_attr_[&global] = {&attr, &release};
        fused_tail_.insert(&attr);
        fused_tail_.insert(&release);
      }
    }
  }

  // The hot path: the globals' version checked (LowerLoadGlobal's), the module read from the
  // global's cache without a reference, then the module probe (ModuleProbe) into attr.dst.
  // Any failed guard runs the three instructions as they are, in a cold block.
  void LowerModuleAttrOfGlobal(const Instr& global) {
    const Instr& attr = *fused_attr_.at(&global).first;
    const Instr& release = *fused_attr_.at(&global).second;
    if (!Take(decisions_, Decision::kLowerModuleAttrOfGlobal, global.bc)) {
      // Each lowered on its own, as if never found: the load here, the other two when the
      // block's loop reaches them.
      fused_attr_.erase(&global);
      fused_tail_.erase(&attr);
      fused_tail_.erase(&release);
      return LowerLoadGlobal(global);
    }
    SiteCache* global_site = NewSiteCache(&global);
    SiteCache* attr_site = NewSiteCache(&attr);
    const SiteRef cache = SiteRefOf(global_site);
    // The stub and the one-call cold path take the global's cache alone and find the
    // attribute's after it, where the function's room put it (a cache past the room is not).
    const bool adjacent = runtime::NextSiteCache(global_site) == attr_site;
    const bool stub = adjacent && UseSiteStub(global.bc);
    if (stub && rt_.set_miss_how && OneExitFits(global.state, attr.state)) {
      return ModuleAttrByStub(global, attr, cache, global_site);
    }
    const int known = prev_instr_known_;
    const int slow = ColdBlock(), done = NewBlock();
    const bool method = attr.op == Op::kLoadMethod;  // [NULL, the module's attribute]
    const int64_t at = method ? offsetof(MethodCache, module) : offsetof(AttrCache, module);
    const int value_dst = ModuleAttrValueReg(attr);
    if (stub) {
      const int value =
          CallNamed(kModuleAttrStubName, {V(frame_), V(AddressOf(cache, global_site))});
      lowering_ = &attr;
      SlowIf(Cond::kEq, Type::kI64, V(value), Operand::Imm(0), slow);
      Mov(V(value), Type::kPtr, value_dst);
    } else {
      // The globals' tag and the module's identity in one guard: the cached value is only
      // compared (not read through) before the tag says the globals still hold it.
      const std::pair<int, int> globals_version = GlobalsVersion(cache);
      const int module = LoadSite(cache, offsetof(GlobalCache, value), Type::kPtr);
      lowering_ = &attr;
      ModuleProbe(V(module), SiteRefOf(attr_site), at, value_dst, slow, globals_version, global.bc);
    }
    if (method) Mov(Operand::Imm(0), Type::kPtr, LirReg(attr.dst));
    Jmp(done);
    cur_ = slow;  // both loads and the module's release in one call: half the code
    prev_instr_known_ = known;
    lowering_ = &global;
    const SiteRefs caches{cache, global_site, attr_site};
    if (adjacent && OneExitFits(global.state, attr.state)) {
      ModuleAttrByOneCall(global, attr, caches);
    } else {
      ModuleAttrByStatus(global, attr, caches);
    }
    lowering_ = &release;
    Jmp(done);
    cur_ = done;
    prev_instr_known_ = -1;  // the cold path stored it (the two paths need not agree)
  }

  // `module.attr` of a global as one call of the stub whose miss calls the helper itself
  // (site_stubs.h): the hot path and the cold path of ModuleAttrByOneCall in one, with no
  // cold block but the exit. The helper's `how` goes into the global's cache.
  void ModuleAttrByStub(const Instr& global, const Instr& attr, const SiteRef& cache,
                        SiteCache* global_site) {
    rt_.set_miss_how(global_site, ModuleAttrHow(attr));
    // Lowered as the global (lowering_): its resume exit, which ModuleAttrExit makes too, must
    // name the global's instruction, where the interpreter starts again.
    const int value =
        CallNamed(kModuleAttrOrHelperStubName, {V(frame_), V(AddressOf(cache, global_site))});
    ModuleAttrExitIfNull(global, attr, value, ModuleAttrValueReg(attr));
  }
  // After the call that gave the attribute `value` or NULL (having stored prev_instr, the
  // global's or the attribute's): the one exit, else the value in `value_dst` and
  // LOAD_METHOD's NULL below it.
  void ModuleAttrExitIfNull(const Instr& global, const Instr& attr, int value, int value_dst) {
    prev_instr_known_ = -1;
    const int exit = ModuleAttrExit(global.state, attr.state);
    const int cont = NewBlock();
    Emit(BrInstr(Cond::kEq, Type::kI64, V(value), Operand::Imm(0), exit, cont));
    cur_ = cont;
    if (value != value_dst) Mov(V(value), Type::kPtr, value_dst);
    if (attr.op == Op::kLoadMethod) Mov(Operand::Imm(0), Type::kPtr, LirReg(attr.dst));
  }
  // Where the attribute goes: LOAD_ATTR's result, or the second of LOAD_METHOD's pair.
  int ModuleAttrValueReg(const Instr& attr) {
    return LirReg(attr.op == Op::kLoadMethod ? attr.dst2 : attr.dst);
  }
  // a64_module_attr_into_frame's `how`: method | slot << 1, the slot the module's stack entry
  // takes in the attribute's frame state.
  int64_t ModuleAttrHow(const Instr& attr) const {
    const int64_t slot = f_.code.nlocalsplus + static_cast<int64_t>(attr.state.stack.size()) - 1;
    return (attr.op == Op::kLoadMethod ? 1 : 0) | slot << 1;
  }

  // A module attribute's two caches (LowerModuleAttrOfGlobal).
  struct SiteRefs {
    SiteRef global;
    SiteCache* global_site;
    SiteCache* attr_site;  // its address made where a path needs it (SiteAddress)
  };
  // Its cold path as one call (the attribute's cache after the global's): the value or NULL,
  // and one exit for the global's failure and the attribute's (ModuleAttrExit).
  void ModuleAttrByOneCall(const Instr& global, const Instr& attr, const SiteRefs& caches) {
    const int value_dst = ModuleAttrValueReg(attr);
    Call(Helper::a64_module_attr_into_frame,
         {V(frame_), V(AddressOf(caches.global, caches.global_site)),
          Operand::Imm(ModuleAttrHow(attr))},
         value_dst);
    ModuleAttrExitIfNull(global, attr, value_dst, value_dst);
  }
  // Its cold path with a status: an exit for the global's failure (1) and one for the
  // attribute's (2), whose state holds the module.
  void ModuleAttrByStatus(const Instr& global, const Instr& attr, const SiteRefs& caches) {
    const bool method = attr.op == Op::kLoadMethod;
    const int g = LirReg(global.dst);
    const int out = ScratchAddr();
    const int status =
        Call(Helper::a64_module_attr_of_global,
             {V(frame_), V(AddressOf(caches.global, caches.global_site)),
              V(SiteAddress(caches.attr_site)), V(out), Operand::Imm(method ? 1 : 0)},
             -1, Type::kI64);
    prev_instr_known_ = -1;  // the global's, or the attribute's once the global loaded
    DeoptIf(global, Cond::kEq, V(status), Operand::Imm(1));
    lowering_ = &attr;
    Load(V(out), 0, Type::kPtr, g);  // the module when the attribute failed, for its exit
    DeoptIf(attr, Cond::kEq, V(status), Operand::Imm(2));
    Mov(V(g), Type::kPtr, LirReg(attr.dst));
    if (method) Load(V(out), 8, Type::kPtr, LirReg(attr.dst2));
  }

  // Whether one exit can stand for both of a module attribute's failures (ModuleAttrExit):
  // the global's is a resume exit, the attribute's an error that leaves for the interpreter
  // (no compiled handler), and the attribute's stack begins with the global's, entry for
  // entry and borrowed alike (then LOAD_GLOBAL's NULL, if it pushes one, and the module).
  static bool OneExitFits(const FrameState& global, const FrameState& attr) {
    return global.kind == FrameState::Kind::kResume && attr.kind == FrameState::Kind::kError &&
           attr.catch_block < 0 && attr.stack.size() > global.stack.size() &&
           StackBeginsWith(attr, global);
  }
  // The attribute's error exit, with the entries below the module stored from registers and
  // the module's entry the helper's (a64_module_attr_into_frame): when that is NULL, the
  // runtime takes the global's resume exit instead (DeoptSite::code_if_top_null).
  int ModuleAttrExit(const FrameState& global, const FrameState& attr) {
    return OutOfLine([&] {
      const int64_t resume = static_cast<int64_t>(AddDeoptSite(global, false));
      FrameState below = attr;
      below.stack.pop_back();
      if (below.borrowed.size() > below.stack.size()) below.borrowed.resize(below.stack.size());
      const uint64_t code = AddDeoptSite(below, true, resume);
      deopt_sites_->back().depth++;  // the module's entry, which the helper wrote
      Ret(Imm(static_cast<int64_t>(code)));
    });
  }

  void LowerLoadMethod(const Instr& in) {
    const Operand obj = V(LirReg(in.args[0]));
    SiteCache* site =
        Take(decisions_, Decision::kLowerLoadMethodInline, in.bc) ? NewSiteCache() : nullptr;
    if (site == nullptr) {
      const int p = ScratchAddr();
      CallStatus(in, Helper::a64_load_method, {obj, Imm(Name(in.imm)), V(p)});
      Load(V(p), 0, Type::kPtr, LirReg(in.dst));
      Load(V(p), 8, Type::kPtr, LirReg(in.dst2));
      return;
    }
    if (InlineModuleProbe(in)) {  // [NULL, the module's attribute]
      return ModuleAttribute(in, obj, site, offsetof(MethodCache, module), LirReg(in.dst2),
                             LirReg(in.dst),
                             [&] { LoadMethodCached(in, obj, V(SiteAddress(site))); });
    }
    if (!InstanceProbe(in)) return LoadMethodCached(in, obj, V(SiteAddress(site)));
    const int known = prev_instr_known_;
    const int slow = ColdBlock(), done = NewBlock(), hit = NewBlock();
    const int tp = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
    const int version = Load(V(tp), offsetof(PyTypeObject, tp_version_tag), Type::kI32);
    const int entry =
        MatchEntry(version, site, offsetof(MethodCache, entries), sizeof(MethodEntry), slow);
    const int keys = Load(V(entry), offsetof(MethodEntry, keys), Type::kPtr);
    const int check = NewBlock();
    Emit(BrInstr(Cond::kEq, Type::kI64, V(keys), Operand::Imm(0), hit, check));  // no __dict__
    cur_ = check;
    // The entry's type has instances with inline values (keys set) and is a heap type: both
    // places are there to read, so one guard for the values and the type's shared keys.
    const int values = Load(obj, runtime::kInlineValuesOffset, Type::kPtr);
    const int type_keys = Load(V(tp), offsetof(PyHeapTypeObject, ht_cached_keys), Type::kPtr);
    SlowIfEither(Cond::kEq, Type::kI64, V(values), Operand::Imm(0), Cond::kNe, V(type_keys),
                 V(keys), slow, in.bc);
    // Read through the keys only once they are the type's (alive).
    const int n = Load(V(keys), offsetof(PyDictKeysObject, dk_nentries), Type::kI64);
    const int n32 = Load(V(entry), offsetof(MethodEntry, nentries), Type::kI32);
    lir::Instr ext;
    ext.op = lir::Op::kZExt;
    ext.dst = out_.NewVReg(Type::kI64);
    ext.args = {V(n32)};
    const int cached_n = Emit(std::move(ext)).dst;
    SlowIf(Cond::kNe, Type::kI64, V(n), V(cached_n), slow);
    Jmp(hit);
    cur_ = hit;
    Load(V(entry), offsetof(MethodEntry, method), Type::kPtr, LirReg(in.dst));
    Incref(V(LirReg(in.dst)));
    Mov(obj, Type::kPtr, LirReg(in.dst2));
    Incref(V(LirReg(in.dst2)));
    Jmp(done);
    cur_ = slow;
    LoadMethodCached(in, obj, V(SiteAddress(site)));
    Jmp(done);
    Join(done, known, in.bc);
  }
  // LOAD_METHOD through a64_load_method_cached, which checks and fills the site's cache.
  void LoadMethodCached(const Instr& in, Operand obj, Operand cache) {
    const int p = ScratchAddr();
    SiteCallInt(in, Helper::a64_load_method_cached, {obj, V(p), cache});
    Load(V(p), 0, Type::kPtr, LirReg(in.dst));
    Load(V(p), 8, Type::kPtr, LirReg(in.dst2));
  }

  // True/False/None inline, anything else through PyObject_IsTrue.
  void LowerIsTrue(const Instr& in) {
    const int c = LirReg(in.dst);
    const Operand v = V(LirReg(in.args[0]));
    const int done = NewBlock();
    if (unboxed_.count(in.args[0]) != 0) {  // `if x & 1:` tests the C value (an int temporary)
      const int raw = NewBlock(), boxed = NewBlock();
      Br(Cond::kEq, v, Operand::Imm(0), raw, boxed);
      cur_ = raw;
      Compare(V(RawOf(in.args[0])), Operand::Imm(0), Cond::kNe, c);
      Jmp(done);
      cur_ = boxed;
    }
    Mov(Operand::Imm(1), Type::kI64, c);
    int next = NewBlock();
    Br(Cond::kEq, v, Imm(rt_.py_true), done, next);
    cur_ = next;
    Mov(Operand::Imm(0), Type::kI64, c);
    next = NewBlock();
    Br(Cond::kEq, v, Imm(rt_.py_false), done, next);
    cur_ = next;
    next = NewBlock();
    cold_[static_cast<size_t>(next)] = 1;  // neither a bool nor None: rare in conditions
    Br(Cond::kEq, v, Imm(rt_.py_none), done, next);
    cur_ = next;
    const int known = prev_instr_known_;
    if (rt_.py_long_type != 0) {  // an exact int is true unless 0 (ob_size 0)
      const int other = NewBlock(), is_int = NewBlock();
      const int type = Load(v, offsetof(PyObject, ob_type), Type::kPtr);
      Br(Cond::kEq, V(type), Imm(rt_.py_long_type), is_int, other);
      cur_ = is_int;
      const int size = Load(v, offsetof(PyVarObject, ob_size), Type::kI64);
      Compare(V(size), Operand::Imm(0), Cond::kNe, c);
      Jmp(done);
      cur_ = other;
    }
    CallInt(in, Helper::PyObject_IsTrue, {v}, c);
    Jmp(done);
    cur_ = done;
    prev_instr_known_ = known == in.bc ? known : -1;
  }

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
  struct StoreTarget {
    const Instr* store;      // the StoreLocal taking a BINARY_OP's (or FOR_ITER's) result
    int local_operand = -1;  // the operand that is the local's own value (OperandHoldingLocal)
    int release_mask = 0;    // which operands are released between the two (ReleaseMask)
  };
  std::map<int, StoreTarget> store_targets_;  // BINARY_OP, FOR_ITER result -> where it goes
  std::set<const Instr*> fused_stores_;       // StoreLocals their BINARY_OP did
  struct TruthTest {
    const Instr* is_true;
    const Instr* release;
  };
  std::map<const Instr*, TruthTest> truth_tests_;  // FindIsInstanceTests' calls
  std::map<const Instr*, int> rejoin_after_;       // a release -> where the inline answer waits
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
  // `module.attr` lowered as one (FindModuleAttrsOfGlobals): each LoadGlobal's LoadAttr, and
  // the LoadAttr and Decref the LoadGlobal's lowering takes over.
  std::map<const Instr*, std::pair<const Instr*, const Instr*>> fused_attr_;
  std::set<const Instr*> fused_tail_;
  std::vector<std::pair<int64_t, int64_t>> loops_;  // FindLoops: [target, jump] code units
  bool recursive_ = false;                          // FindLoops: LoadsOwnName()
  std::set<int64_t> float_like_locals_;
  std::set<int> in_place_floats_;  // BINARY_OP results BoxFloatResult may write in place
  // Temporaries kept unboxed (unboxed_temporaries.h) as ints, as floats (a register in both
  // may be either), and the LIR registers of their raw values.
  std::set<int> unboxed_, unboxed_floats_;
  std::set<int> probable_floats_;  // probable_floats.h: no small-int form for them
  std::map<int, int> raw_, raw_float_;
  int scratch_addr_ = -1;            // the scratch slot's address after kUnpackSequence
  int prev_instr_known_ = -1;        // the unit prev_instr holds on every path here, or -1
  const Instr* lowering_ = nullptr;  // the HIR instruction being lowered (deopt sites, caches)
  // ReserveSiteCaches: the room's first cache and the vreg holding its address.
  const void* site_room_ = nullptr;
  int cframe_ = -1;  // HoistCFrame's vreg, or -1
  int site_room_reg_ = -1;
  // Caches farther than this from the room's start (a runtime that placed one elsewhere)
  // take a literal; nearer ones an add of at most two instructions.
  static constexpr int64_t kSiteRoomReach = int64_t{1} << 24;
  // SiteRefOf: a load of a 32-bit field at most this far from a register is one instruction
  // (a scaled 12-bit offset); a cache past it gets an add, not a longer form for each load.
  static constexpr int64_t kLoadReach = 4 * 4095;
  static constexpr int64_t kSiteCacheBytes = sizeof(SiteCache);
  const Instr* next_ = nullptr;  // the one after it in its block, if any
  // A call's NULL-result test left for the CheckTracing right after it (CallResultCheck).
  struct ResultCheck {
    FrameState state;
    int value;
  };
  std::optional<ResultCheck> pending_result_check_;
};

}  // namespace

lir::Function Lower(const Function& f, const RuntimeAddresses& rt, const std::string& name,
                    std::vector<DeoptSite>* deopt_sites, Decisions* decisions) {
  Lowerer l(f, rt, name, deopt_sites, decisions);
  return l.Run();
}

}  // namespace a64jit::lower
