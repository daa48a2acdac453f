#include "jit/codegen/codegen.h"

#include <asmjit/arm/a64assembler.h>
#include <asmjit/arm/a64utils.h>
#include <asmjit/core.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include "jit/codegen/constant_registers.h"
#include "jit/codegen/direct_encoding.h"
#include "jit/codegen/disassembly.h"
#include "jit/codegen/exit_tails.h"
#include "jit/codegen/immediates.h"
#include "jit/codegen/into_local_stub.h"
#include "jit/codegen/release_stubs.h"
#include "jit/codegen/sp_addresses.h"
#include "jit/lir/cfg.h"
#include "jit/lir/text.h"

namespace a64jit::codegen {

using asmjit::a64::Gp;
using asmjit::a64::Mem;
using asmjit::a64::Vec;
using asmjit::arm::CondCode;
using lir::Cond;
using lir::Instr;
using lir::Location;
using lir::Op;
using lir::Operand;
using lir::Type;
using runtime::EntryMove;

const lir::RegisterFile& Aarch64Registers() {
  static const lir::RegisterFile regs = [] {
    lir::RegisterFile r;
    for (int i = 0; i <= 14; i++) r.gp_caller_saved.push_back(i);
    for (int i = 19; i <= 28; i++) r.gp_callee_saved.push_back(i);
    for (int i = 0; i <= 7; i++) r.fp_caller_saved.push_back(i);
    for (int i = 16; i <= 28; i++) r.fp_caller_saved.push_back(i);
    for (int i = 8; i <= 15; i++) r.fp_callee_saved.push_back(i);
    for (int i = 0; i <= 7; i++) r.gp_args.push_back(i);  // AAPCS64: x0-x7, d0-d7, x0/d0
    for (int i = 0; i <= 7; i++) r.fp_args.push_back(i);
    r.gp_result = 0;
    r.fp_result = 0;
    return r;
  }();
  return regs;
}

namespace {

// Scratch registers: never allocated (see Aarch64Registers).
constexpr int kS0 = 16, kS1 = 17, kS2 = 15;       // x16, x17, x15
constexpr int kF0 = 31, kF1 = 30, kF2 = 29;       // d31, d30, d29
constexpr int64_t kMaxFrame = int64_t{1} << 31;   // sanity bound; past 16 MiB SP moves via x16/x17
constexpr uint64_t kBranchRange = 1u << 20;       // b.cond, cbz, ldr literal: +-1 MiB
constexpr int64_t kMaxSpillEnd = 8 * 4095;        // a spill slot's ldr/str reach from SP
constexpr uint64_t kTestBranchRange = 1u << 15;   // tbz, tbnz: +-32 KiB
constexpr int64_t kCallRange = int64_t{1} << 27;  // bl: +-128 MiB

Gp X(int n) { return asmjit::a64::x(static_cast<uint32_t>(n)); }
Gp W(int n) { return asmjit::a64::w(static_cast<uint32_t>(n)); }
Vec D(int n) { return asmjit::a64::d(static_cast<uint32_t>(n)); }

// The condition code after a compare of type `t`. After fcmp, an unordered result sets C and
// V: MI (less), LS (less or equal), GT and GE are false then, as Python's float < <= > >= are
// with a NaN; EQ is false and NE true.
CondCode ToCondCode(Cond c, Type t = Type::kI64) {
  if (lir::IsFloat(t)) {
    if (c == Cond::kSlt) return CondCode::kMI;
    if (c == Cond::kSle) return CondCode::kLS;
  }
  switch (c) {
    case Cond::kEq:
      return CondCode::kEQ;
    case Cond::kNe:
      return CondCode::kNE;
    case Cond::kSlt:
      return CondCode::kLT;
    case Cond::kSle:
      return CondCode::kLE;
    case Cond::kSgt:
      return CondCode::kGT;
    case Cond::kSge:
      return CondCode::kGE;
    case Cond::kUlt:
      return CondCode::kLO;
    case Cond::kUle:
      return CondCode::kLS;
    case Cond::kUgt:
      return CondCode::kHI;
    case Cond::kUge:
      return CondCode::kHS;
  }
  return CondCode::kAL;
}

// asmjit encodes opposite conditions as neighbours (EQ/NE, HS/LO, GE/LT, ...).
CondCode Negate(CondCode c) { return static_cast<CondCode>(static_cast<uint8_t>(c) ^ 1u); }

bool IsSigned(Cond c) {
  return c == Cond::kSlt || c == Cond::kSle || c == Cond::kSgt || c == Cond::kSge;
}

// Records the first asmjit error so the current LIR instruction can be named.
class ErrorRecorder : public asmjit::ErrorHandler {
 public:
  void handleError(asmjit::Error, const char* message, asmjit::BaseEmitter*) override {
    if (message_.empty()) message_ = message;
  }
  std::string message_;
};

struct Move {
  int dst, src;
};

// Where AAPCS64 puts each value of an argument list: the first 8 integer and the first 8 f64
// values in x0-x7 / d0-d7, the rest in 8-byte stack slots in argument order. Used for call
// arguments, incoming parameters and the size of the outgoing argument area alike.
struct AbiSlot {
  bool fp;
  int reg;    // register number, or -1
  int stack;  // stack slot (8 bytes each), or -1
};
// Calls rarely pass more than 8 values: these stay off the heap.
using TypeList = lir::SmallVector<Type, 8>;
using AbiSlots = lir::SmallVector<AbiSlot, 8>;

AbiSlots AssignAbi(const TypeList& types, int* stack_slots) {
  AbiSlots slots;
  int next_gp = 0, next_fp = 0, next_stack = 0;
  for (Type t : types) {
    const bool fp = lir::IsFloat(t);
    int& next = fp ? next_fp : next_gp;
    slots.push_back(next < 8 ? AbiSlot{fp, next++, -1} : AbiSlot{fp, -1, next_stack++});
  }
  if (stack_slots != nullptr) *stack_slots = next_stack;
  return slots;
}

class FunctionCompiler {
 public:
  // `f` is verified and `allocation` is its register allocation for Aarch64Registers().
  // `sign_tests`: branches on a value's sign are tbz/tbnz, which reach +-32 KiB only
  // (EmitAllocated takes them for functions that come out shorter than that).
  FunctionCompiler(const lir::Function& f, const lir::Allocation& allocation,
                   const CompileOptions& options, bool sign_tests = false)
      : f_(f), options_(options), alloc_(allocation), sign_tests_(sign_tests) {}

  CompiledFunction Run() {
    long_ranges_ = options_.force_long_ranges;
    pools_ = !long_ranges_;
    ChooseSavedRegisters();
    LayOutFrame();
    frameless_ = CanBeFrameless();

    code_.init(asmjit::Environment(asmjit::Arch::kAArch64), options_.base_address.value_or(0));
    code_.setErrorHandler(&errors_);
    a_ = std::make_unique<asmjit::a64::Assembler>(&code_);
    block_offset_.assign(f_.blocks.size(), -1);
    FindNarrowLoads();
    sp_slot_ = FindSpAddresses(f_);
    for (size_t v = 0; v < sp_slot_.size(); v++) {  // their registers are never written
      if (sp_slot_[v] >= 0) alloc_.where[v] = Location{};
    }
    exit_tails_ = FindExitTails(f_, alloc_, options_.exit_code_limit);
    tail_labels_.assign(exit_tails_.first_block.size(), asmjit::Label());
    epilogue_ = a_->newLabel();
    entry_ = a_->newLabel();

    static_assert(EntryMove::kFromSp == kSpId, "an entry move from SP names it as codegen does");
    for (const EntryMove& m : options_.entry_moves) {
      const std::optional<uint32_t> word =
          EncodeMovReg(true, static_cast<uint32_t>(m.arg), static_cast<uint32_t>(m.from));
      if (!word) Fail("an entry move names no register");
      EmitWord(*a_, *word);
    }
    a_->bind(entry_);
    current_ = nullptr;
    EmitPrologue();
    Check();
    epilogue_block_ = EpilogueBlock();
    for (size_t b = 0; b < f_.blocks.size(); b++) {
      block_ = static_cast<int>(b);
      PlaceBlock(block_);
      if (EmitExitByTail(block_)) continue;
      const auto& instrs = f_.blocks[b].instrs;
      EmitInstrs(instrs, instrs.size());
      if (block_ == epilogue_block_ && !frameless_) {
        current_ = nullptr;
        a_->bind(epilogue_);
        EmitEpilogue();
      }
    }
    current_ = nullptr;
    ResolveBlockBranches();
    EmitExitTails();
    EmitExitBlock();
    Check();
    stats_.code_bytes = a_->offset();
    EmitPool();
    Check();
    if (code_.flatten() != asmjit::kErrorOk || code_.resolveUnresolvedLinks() != asmjit::kErrorOk) {
      Fail("asmjit could not resolve labels (a branch out of range?)");
    }
    Check();
    asmjit::Section* text = code_.textSection();
    CompiledFunction out;
    out.bytes.assign(text->data(), text->data() + text->bufferSize());
    stats_.pool_bytes = out.bytes.size() - stats_.code_bytes;
    stats_.pool_entries = static_cast<int>(pool_.size());
    stats_.long_ranges = long_ranges_;
    stats_.frame_size = frame_size_;
    stats_.frameless = frameless_;
    stats_.spill_slots = alloc_.spill_slots;
    out.stats = stats_;
    out.exits = std::move(exits_);
    out.data_words = std::move(data_words_);
    out.entry_offset = static_cast<uint32_t>(4 * options_.entry_moves.size());
    return out;
  }

 private:
  // ---- diagnostics --------------------------------------------------------------------

  [[noreturn]] void Fail(const std::string& what) const {
    std::string where = "@" + f_.name;
    if (current_ != nullptr) {
      where += " bb" + std::to_string(block_) + " '" + lir::PrintInstr(f_, *current_) + "'";
      if (current_->line > 0) where += " (line " + std::to_string(current_->line) + ")";
    } else {
      where += " (prologue/epilogue)";
    }
    throw CompileError("codegen: " + where + ": " + what);
  }
  void Check() {
    if (!errors_.message_.empty()) Fail("asmjit: " + errors_.message_);
  }

  // ---- sizing and frame ---------------------------------------------------------------

  // Branches to blocks are encoded here (direct_encoding.h), not through asmjit's labels,
  // which cost about 350 host instructions a block (benchmarks/compile_time): a branch
  // backward gets its displacement at once, one forward is patched when its block is placed
  // (ResolveBlockBranches). A jmp to the next block emits nothing, and a br branches to each
  // target that does not follow (to the next block too when both targets are it):
  // EmitInstr's kJmp, EmitBranch.
  void PlaceBlock(int b) { block_offset_[static_cast<size_t>(b)] = a_->offset(); }

  // Emits `word`, a branch, to block `target`.
  void EmitBlockBranch(uint32_t word, int target) {
    const size_t here = a_->offset();
    if (block_offset_[static_cast<size_t>(target)] >= 0) {
      EmitWord(*a_, Retarget(word, here, target));
      return;
    }
    block_fixups_.push_back(BlockFixup{here, target});
    EmitWord(*a_, word);
  }
  void ResolveBlockBranches() {
    for (const BlockFixup& fix : block_fixups_) {
      uint8_t* at = a_->bufferData() + fix.at;
      uint32_t word = 0;
      std::memcpy(&word, at, sizeof word);
      word = Retarget(word, fix.at, fix.target);
      std::memcpy(at, &word, sizeof word);
    }
  }
  // The branch `word` at offset `at` made to go to placed block `target`.
  uint32_t Retarget(uint32_t word, size_t at, int target) {
    const int64_t to = block_offset_[static_cast<size_t>(target)];
    const std::optional<uint32_t> w =
        to < 0 ? std::nullopt : WithBranchDelta(word, to - static_cast<int64_t>(at));
    if (!w) Fail("a branch to bb" + std::to_string(target) + " is out of range");
    return *w;
  }
  void JumpToBlock(int target) { EmitBlockBranch(*EncodeB(0), target); }

  TypeList ArgTypes(const Instr& call) const {
    TypeList types;
    for (const Operand& o : call.args)
      types.push_back(o.is_vreg() ? f_.TypeOf(o.vreg) : Type::kI64);
    return types;
  }

  void LayOutFrame() {
    int max_stack_args = 0;
    for (const lir::Block& b : f_.blocks) {
      for (const Instr& in : b.instrs) {
        if (!lir::IsCall(in.op)) continue;
        int stack_args = 0;
        AssignAbi(ArgTypes(in), &stack_args);
        max_stack_args = std::max(max_stack_args, stack_args);
      }
    }
    out_bytes_ = (8 * max_stack_args + 15) & ~15;
    // The slots below the spill slots, so that a call's argument vector is at SP, where the
    // call stub's extra entry takes it (stub_entries.h); above them when the spill slots
    // would then be out of a load's reach.
    const int64_t spill_bytes = 8 * int64_t{alloc_.spill_slots};
    int64_t slot_bytes = 0;
    for (const lir::StackSlot& s : f_.slots) slot_bytes = ((slot_bytes + 15) & ~15) + s.size;
    const bool slots_lowest = out_bytes_ + slot_bytes + 15 + spill_bytes <= kMaxSpillEnd;
    spill_base_ = out_bytes_;  // unless the slots take that place
    int64_t offset = slots_lowest ? out_bytes_ : out_bytes_ + spill_bytes;
    for (const lir::StackSlot& s : f_.slots) {
      offset = (offset + 15) & ~int64_t{15};
      slot_offsets_.push_back(offset);
      offset += s.size;
    }
    if (slots_lowest) {
      spill_base_ = (offset + 7) & ~int64_t{7};
      offset = spill_base_ + spill_bytes;
    }
    const int64_t csr =
        8 * static_cast<int64_t>(saved_gp_.size() + alloc_.used_fp_callee_saved.size());
    frame_size_ = (offset + csr + 15) & ~int64_t{15};
    if (frame_size_ > kMaxFrame) {
      Fail("frame of " + std::to_string(frame_size_) + " bytes exceeds the limit of " +
           std::to_string(kMaxFrame));
    }
    if (spill_base_ + spill_bytes > kMaxSpillEnd) {
      Fail("too many spill slots (" + std::to_string(alloc_.spill_slots) + ")");
    }
  }

  int64_t SpillOffset(int slot) const { return spill_base_ + 8 * int64_t{slot}; }
  const Location& Loc(int vreg) const { return alloc_.where[static_cast<size_t>(vreg)]; }
  // The offset from SP of the slot `vreg` is the address of, when it has no register of its
  // own (sp_addresses.h).
  std::optional<int64_t> SpAddress(int vreg) const {
    const int slot = sp_slot_[static_cast<size_t>(vreg)];
    if (slot < 0) return std::nullopt;
    return slot_offsets_[static_cast<size_t>(slot)];
  }
  std::optional<int64_t> SpAddress(const Operand& o) const {
    return o.is_vreg() ? SpAddress(o.vreg) : std::nullopt;
  }

  // ---- immediates ---------------------------------------------------------------------

  asmjit::Label PoolLabel(uint64_t value) {
    auto it = pool_.find(value);
    if (it != pool_.end()) return it->second;
    asmjit::Label l = a_->newLabel();
    pool_.emplace(value, l);
    return l;
  }

  // dst = v, in as few instructions as the encodings allow.
  void MovImm(int dst, uint64_t v, int width) {
    if (width == 32) v &= 0xffffffffull;
    const Gp d = width == 32 ? W(dst) : X(dst);
    const int len = MovSequenceLength(v, width);
    if (len > 1 && IsLogicalImm(v, width)) {
      a_->orr(d, width == 32 ? Gp(asmjit::a64::wzr) : Gp(asmjit::a64::xzr), v);
      return;
    }
    if (len > 2 && width == 64 && pools_) {
      a_->ldr(d, asmjit::a64::ptr(PoolLabel(v)));
      return;
    }
    const int chunks = width / 16;
    int zeros = 0, ones = 0;
    for (int i = 0; i < chunks; i++) {
      zeros += ((v >> (16 * i)) & 0xffff) == 0;
      ones += ((v >> (16 * i)) & 0xffff) == 0xffff;
    }
    const bool inverted = ones > zeros;
    const uint64_t skip = inverted ? 0xffff : 0;
    bool first = true;
    for (int i = 0; i < chunks; i++) {
      const uint64_t c = (v >> (16 * i)) & 0xffff;
      if (c == skip && !(first && i == chunks - 1)) continue;
      if (first) {
        if (inverted) {
          a_->movn(d, ~c & 0xffff, 16 * i);
        } else {
          a_->movz(d, c, 16 * i);
        }
        first = false;
      } else {
        a_->movk(d, c, 16 * i);
      }
    }
  }

  // x<d> = sp + offset (offset >= 0), with no other register.
  void SpPlus(int d, int64_t offset) {
    const auto v = static_cast<uint64_t>(offset);
    if (v <= 0xffffff) return AddImm(X(d), asmjit::a64::sp, v, 64, d);
    MovImm(d, v, 64);
    a_->add(X(d), asmjit::a64::sp, X(d), asmjit::arm::uxtx(0));  // the extended form names SP
  }
  // d = s + imm (mod 2^width); d and s may be SP. Uses `scratch` only when the immediate
  // needs more than two add/sub instructions.
  void AddImm(const Gp& d, const Gp& s, uint64_t imm, int width, int scratch) {
    const uint64_t mask = width == 32 ? 0xffffffffull : ~uint64_t{0};
    const uint64_t v = imm & mask;
    const uint64_t neg = (0 - v) & mask;
    if (v == 0) {
      if (d.id() != s.id()) Mov(d, s);
    } else if (IsAddSubImm(v)) {
      Add(d, s, v);
    } else if (IsAddSubImm(neg)) {
      Sub(d, s, neg);
    } else if (v <= 0xffffff) {
      Add(d, s, v & 0xfff000);
      Add(d, d, v & 0xfff);
    } else if (neg <= 0xffffff) {
      Sub(d, s, neg & 0xfff000);
      Sub(d, d, neg & 0xfff);
    } else if (s.isSP() || d.isSP()) {
      // Beyond 24 bits with SP involved: the register form of add cannot name SP, so go
      // through x17 (the second scratch; `scratch` holds the immediate).
      MovImm(scratch, v, 64);
      Mov(X(kS1), s);
      Add(X(kS1), X(kS1), X(scratch));
      Mov(d, X(kS1));
    } else {
      MovImm(scratch, v, width);
      Add(d, s, width == 32 ? W(scratch) : X(scratch));
    }
  }

  void MovFpImm(int dst, uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    if (bits == 0) {
      a_->fmov(D(dst), asmjit::a64::xzr);
    } else if (asmjit::a64::Utils::isFP64Imm8(bits)) {
      a_->fmov(D(dst), d);
    } else if (pools_) {
      a_->ldr(D(dst), asmjit::a64::ptr(PoolLabel(bits)));
    } else {
      MovImm(kS1, bits, 64);
      a_->fmov(D(dst), X(kS1));
    }
  }

  // ---- the frequent forms, encoded directly (direct_encoding.h); the rest through asmjit --

  // Appends `word` when the form fit (the Encode* functions of direct_encoding.h).
  bool Emitted(std::optional<uint32_t> word) {
    if (word) EmitWord(*a_, *word);
    return word.has_value();
  }

  asmjit::Error LoadStore(bool load, int size, const Gp& rt, const Mem& m) {
    const bool base_and_offset = m.hasBaseReg() && !m.hasBaseLabel() && !m.hasIndex() &&
                                 m.isFixedOffset() && m.baseType() == asmjit::RegType::kARM_GpX;
    if (base_and_offset && Emitted(EncodeLoadStore(load, size, rt.id(), m.baseId(), m.offset()))) {
      return asmjit::kErrorOk;
    }
    switch (size) {
      case 1:
        return load ? a_->ldrb(rt, m) : a_->strb(rt, m);
      case 2:
        return load ? a_->ldrh(rt, m) : a_->strh(rt, m);
      default:
        return load ? a_->ldr(rt, m) : a_->str(rt, m);
    }
  }
  asmjit::Error Ldr(const Gp& rt, const Mem& m) {
    return LoadStore(true, rt.isGpX() ? 8 : 4, rt, m);
  }
  asmjit::Error Str(const Gp& rt, const Mem& m) {
    return LoadStore(false, rt.isGpX() ? 8 : 4, rt, m);
  }
  asmjit::Error Mov(const Gp& d, const Gp& s) {
    if (d.isGpX() == s.isGpX() && Emitted(EncodeMovReg(d.isGpX(), d.id(), s.id()))) {
      return asmjit::kErrorOk;
    }
    return a_->mov(d, s);
  }
  asmjit::Error AddSub(bool sub, const Gp& d, const Gp& s, uint64_t imm) {
    if (d.isGpX() == s.isGpX() &&
        Emitted(EncodeAddSubImm(sub, false, d.isGpX(), d.id(), s.id(), imm))) {
      return asmjit::kErrorOk;
    }
    return sub ? a_->sub(d, s, imm) : a_->add(d, s, imm);
  }
  asmjit::Error Add(const Gp& d, const Gp& s, uint64_t imm) { return AddSub(false, d, s, imm); }
  asmjit::Error Sub(const Gp& d, const Gp& s, uint64_t imm) { return AddSub(true, d, s, imm); }
  asmjit::Error AddSub(bool sub, const Gp& d, const Gp& a, const Gp& b) {
    if (d.isGpX() == a.isGpX() && a.isGpX() == b.isGpX() &&
        Emitted(EncodeAddSubReg(sub, false, d.isGpX(), d.id(), a.id(), b.id()))) {
      return asmjit::kErrorOk;
    }
    return sub ? a_->sub(d, a, b) : a_->add(d, a, b);
  }
  asmjit::Error Add(const Gp& d, const Gp& a, const Gp& b) { return AddSub(false, d, a, b); }
  asmjit::Error Sub(const Gp& d, const Gp& a, const Gp& b) { return AddSub(true, d, a, b); }
  asmjit::Error Cmp(const Gp& a, uint64_t imm) {
    if (Emitted(EncodeAddSubImm(true, true, a.isGpX(), kZrId, a.id(), imm))) {
      return asmjit::kErrorOk;
    }
    return a_->cmp(a, imm);
  }
  asmjit::Error Cmp(const Gp& a, const Gp& b) {
    if (a.isGpX() == b.isGpX() &&
        Emitted(EncodeAddSubReg(true, true, a.isGpX(), kZrId, a.id(), b.id()))) {
      return asmjit::kErrorOk;
    }
    return a_->cmp(a, b);
  }

  // ---- operands -----------------------------------------------------------------------

  // The register holding a GP operand (64-bit view), loading spills and materialising
  // immediates into `scratch`.
  int ReadGp(const Operand& o, int scratch, int width = 64) {
    if (o.is_vreg()) {
      const Location& l = Loc(o.vreg);
      if (l.is_reg()) return l.index;
      if (const std::optional<int64_t> offset = SpAddress(o.vreg)) {  // no location
        SpPlus(scratch, *offset);
        return scratch;
      }
      if (!l.is_spill()) Fail("internal: %" + std::to_string(o.vreg) + " has no location");
      Ldr(X(scratch),
          asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l.index))));
      return scratch;
    }
    if (const std::optional<int> held = ConstantRegister(static_cast<uint64_t>(o.imm))) {
      return *held;  // for 32 bits its low half, as MovImm would have truncated it
    }
    MovImm(scratch, static_cast<uint64_t>(o.imm), width);
    return scratch;
  }
  int ReadFp(const Operand& o, int scratch) {
    if (o.is_vreg()) {
      const Location& l = Loc(o.vreg);
      if (l.is_reg()) return l.index;
      a_->ldr(D(scratch),
              asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l.index))));
      return scratch;
    }
    uint64_t bits;
    std::memcpy(&bits, &o.fimm, sizeof bits);
    MovFpImm(scratch, bits);
    return scratch;
  }
  // Where to compute a definition: its register, or `scratch` when it lives in a spill slot.
  int DstReg(int vreg, int scratch) const {
    const Location& l = Loc(vreg);
    return l.is_reg() ? l.index : scratch;
  }
  void CommitGp(int vreg, int reg) {
    const Location& l = Loc(vreg);
    if (l.is_spill()) {
      Str(X(reg), asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l.index))));
    }
  }
  void CommitFp(int vreg, int reg) {
    const Location& l = Loc(vreg);
    if (l.is_spill()) {
      a_->str(D(reg),
              asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l.index))));
    }
  }
  // Extends the low `bits` of register `src` to 32 bits into `dst` (for i8/i16).
  void Extend32(int dst, int src, int bits, bool is_signed) {
    if (bits == 8) {
      is_signed ? a_->sxtb(W(dst), W(src)) : a_->uxtb(W(dst), W(src));
    } else {
      is_signed ? a_->sxth(W(dst), W(src)) : a_->uxth(W(dst), W(src));
    }
  }

  // ---- instructions -------------------------------------------------------------------

  void EmitInstr(const Instr& in) {
    switch (in.op) {
      case Op::kMov:
        return EmitMov(in);
      case Op::kAdd:
      case Op::kSub:
      case Op::kMul:
      case Op::kAnd:
      case Op::kOr:
      case Op::kXor:
        return EmitSimpleBinary(in);
      case Op::kShl:
      case Op::kLShr:
      case Op::kAShr:
        return EmitShift(in);
      case Op::kSDiv:
      case Op::kUDiv:
      case Op::kSRem:
      case Op::kURem:
        return EmitDivRem(in);
      case Op::kNot:
      case Op::kNeg:
        return EmitUnary(in);
      case Op::kSExt:
      case Op::kZExt:
      case Op::kTrunc:
        return EmitConvert(in);
      case Op::kFAdd:
      case Op::kFSub:
      case Op::kFMul:
      case Op::kFDiv:
        return EmitFloatBinary(in);
      case Op::kFNeg: {
        const int s = ReadFp(in.args[0], kF0);
        const int d = DstReg(in.dst, kF0);
        a_->fneg(D(d), D(s));
        return CommitFp(in.dst, d);
      }
      case Op::kSIToF:
        return EmitSIToF(in);
      case Op::kFToSI: {
        const int s = ReadFp(in.args[0], kF0);
        const int d = DstReg(in.dst, kS0);
        a_->fcvtzs(lir::TypeBits(f_.TypeOf(in.dst)) == 64 ? X(d) : W(d), D(s));
        return CommitGp(in.dst, d);
      }
      case Op::kCmp: {
        EmitCompare(in.cond, in.cmp_type, in.args[0], in.args[1]);
        const int d = DstReg(in.dst, kS0);
        a_->cset(X(d), ToCondCode(in.cond, in.cmp_type));
        return CommitGp(in.dst, d);
      }
      case Op::kSelect:
        return EmitSelect(in);
      case Op::kLoad:
        return EmitLoad(in);
      case Op::kStore:
        return EmitStore(in);
      case Op::kSlotAddr: {
        if (SpAddress(in.dst)) return;  // its uses address the slot from SP
        const int d = DstReg(in.dst, kS0);
        AddImm(X(d), asmjit::a64::sp,
               static_cast<uint64_t>(slot_offsets_[static_cast<size_t>(in.slot)]), 64, kS2);
        return CommitGp(in.dst, d);
      }
      case Op::kFramePtr: {
        const int d = DstReg(in.dst, kS0);
        Mov(X(d), asmjit::a64::x29);
        return CommitGp(in.dst, d);
      }
      case Op::kCall:
      case Op::kReleaseAt:  // a protocol without its stub (not in reach, or registers it has
      case Op::kBinaryOpIntoLocal:  // no entry for): the call as written
        return EmitCall(in);
      case Op::kPad:
        for (int64_t i = 0; i < in.count; i++) a_->nop();
        return;
      case Op::kJmp:
        if (in.targets[0] != block_ + 1) JumpToBlock(in.targets[0]);
        return;
      case Op::kBr:
        return EmitBranch(in);
      case Op::kRet:
        return EmitRet(in);
      case Op::kTailCall:
        return EmitTailCall(in);
    }
  }

  void EmitMov(const Instr& in) {
    const Type t = f_.TypeOf(in.dst);
    if (lir::IsFloat(t)) {
      const int d = DstReg(in.dst, kF0);
      if (in.args[0].is_vreg()) {
        const int s = ReadFp(in.args[0], kF0);
        if (s != d) a_->fmov(D(d), D(s));
      } else {
        uint64_t bits;
        std::memcpy(&bits, &in.args[0].fimm, sizeof bits);
        MovFpImm(d, bits);
      }
      return CommitFp(in.dst, d);
    }
    const int d = DstReg(in.dst, kS0);
    if (in.args[0].is_vreg()) {
      const int s = ReadGp(in.args[0], kS0);
      if (s != d) Mov(X(d), X(s));
    } else {
      MovImm(d, static_cast<uint64_t>(in.args[0].imm), lir::TypeBits(t) == 64 ? 64 : 32);
    }
    CommitGp(in.dst, d);
  }

  void EmitSimpleBinary(const Instr& in) {
    const Type t = f_.TypeOf(in.dst);
    const int width = lir::TypeBits(t) == 64 ? 64 : 32;
    auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
    const int a = ReadGp(in.args[0], kS0, width);
    const int d = DstReg(in.dst, kS0);
    const Operand& b = in.args[1];
    if (b.is_imm()) {
      const uint64_t v = static_cast<uint64_t>(b.imm) & (width == 32 ? 0xffffffffull : ~0ull);
      // An immediate form: add/sub of any constant (AddImm legalises it), and/orr/eor of
      // an encodable bitmask. mul and other constants go through a register.
      if (in.op == Op::kAdd || in.op == Op::kSub) {
        AddImm(GpOfWidth(d), GpOfWidth(a), in.op == Op::kAdd ? v : 0 - v, width, kS1);
        return CommitGp(in.dst, d);
      }
      const bool logical = in.op == Op::kAnd || in.op == Op::kOr || in.op == Op::kXor;
      if (logical && IsLogicalImm(v, width)) {
        if (in.op == Op::kAnd) a_->and_(GpOfWidth(d), GpOfWidth(a), v);
        if (in.op == Op::kOr) a_->orr(GpOfWidth(d), GpOfWidth(a), v);
        if (in.op == Op::kXor) a_->eor(GpOfWidth(d), GpOfWidth(a), v);
        return CommitGp(in.dst, d);
      }
    }
    const int r = ReadGp(b, kS1, width);
    if (in.op == Op::kAdd) {
      Add(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
    } else if (in.op == Op::kSub) {
      Sub(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
    } else if (in.op == Op::kMul) {
      a_->mul(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
    } else if (in.op == Op::kAnd) {
      a_->and_(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
    } else if (in.op == Op::kOr) {
      a_->orr(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
    } else if (in.op == Op::kXor) {
      a_->eor(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
    } else {
      Fail("internal: not a simple binary op");
    }
    CommitGp(in.dst, d);
  }

  void EmitShift(const Instr& in) {
    const Type t = f_.TypeOf(in.dst);
    const int bits = lir::TypeBits(t);
    const int width = bits == 64 ? 64 : 32;
    auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
    int a = ReadGp(in.args[0], kS0, width);
    if (bits < 32 && in.op != Op::kShl) {
      // Right shifts of i8/i16 see the bits above the type: make them the extension.
      Extend32(kS0, a, bits, in.op == Op::kAShr);
      a = kS0;
    }
    const int d = DstReg(in.dst, kS0);
    if (in.args[1].is_imm()) {
      const uint32_t k = static_cast<uint32_t>(static_cast<uint64_t>(in.args[1].imm) %
                                               static_cast<uint64_t>(width));
      if (k == 0) {
        if (d != a) Mov(GpOfWidth(d), GpOfWidth(a));
      } else if (in.op == Op::kShl) {
        a_->lsl(GpOfWidth(d), GpOfWidth(a), k);
      } else if (in.op == Op::kLShr) {
        a_->lsr(GpOfWidth(d), GpOfWidth(a), k);
      } else {
        a_->asr(GpOfWidth(d), GpOfWidth(a), k);
      }
      return CommitGp(in.dst, d);
    }
    const int s = ReadGp(in.args[1], kS1, width);
    if (in.op == Op::kShl) a_->lslv(GpOfWidth(d), GpOfWidth(a), GpOfWidth(s));
    if (in.op == Op::kLShr) a_->lsrv(GpOfWidth(d), GpOfWidth(a), GpOfWidth(s));
    if (in.op == Op::kAShr) a_->asrv(GpOfWidth(d), GpOfWidth(a), GpOfWidth(s));
    CommitGp(in.dst, d);
  }

  void EmitDivRem(const Instr& in) {
    const Type t = f_.TypeOf(in.dst);
    const int bits = lir::TypeBits(t);
    const int width = bits == 64 ? 64 : 32;
    auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
    const bool is_signed = in.op == Op::kSDiv || in.op == Op::kSRem;
    int a = ReadGp(in.args[0], kS0, width);
    int b = ReadGp(in.args[1], kS1, width);
    if (bits < 32) {
      Extend32(kS0, a, bits, is_signed);
      Extend32(kS1, b, bits, is_signed);
      a = kS0;
      b = kS1;
    }
    const int d = DstReg(in.dst, kS0);
    if (in.op == Op::kSDiv || in.op == Op::kUDiv) {
      is_signed ? a_->sdiv(GpOfWidth(d), GpOfWidth(a), GpOfWidth(b))
                : a_->udiv(GpOfWidth(d), GpOfWidth(a), GpOfWidth(b));
    } else {
      // rem = a - (a / b) * b; with b == 0 the quotient is 0 and rem == a.
      is_signed ? a_->sdiv(GpOfWidth(kS2), GpOfWidth(a), GpOfWidth(b))
                : a_->udiv(GpOfWidth(kS2), GpOfWidth(a), GpOfWidth(b));
      a_->msub(GpOfWidth(d), GpOfWidth(kS2), GpOfWidth(b), GpOfWidth(a));
    }
    CommitGp(in.dst, d);
  }

  void EmitUnary(const Instr& in) {
    const int width = lir::TypeBits(f_.TypeOf(in.dst)) == 64 ? 64 : 32;
    auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
    const int a = ReadGp(in.args[0], kS0, width);
    const int d = DstReg(in.dst, kS0);
    in.op == Op::kNot ? a_->mvn(GpOfWidth(d), GpOfWidth(a)) : a_->neg(GpOfWidth(d), GpOfWidth(a));
    CommitGp(in.dst, d);
  }

  void EmitConvert(const Instr& in) {
    const Type to = f_.TypeOf(in.dst);
    const Type from = f_.TypeOf(in.args[0].vreg);
    const int sb = lir::TypeBits(from), db = lir::TypeBits(to);
    const int s = ReadGp(in.args[0], kS0);
    const int d = DstReg(in.dst, kS0);
    if (in.op == Op::kSExt && sb < db) {
      if (sb == 32) {
        a_->sxtw(X(d), W(s));
      } else if (sb == 16) {
        db == 64 ? a_->sxth(X(d), W(s)) : a_->sxth(W(d), W(s));
      } else {
        db == 64 ? a_->sxtb(X(d), W(s)) : a_->sxtb(W(d), W(s));
      }
    } else if (in.op == Op::kZExt && sb < db && narrow_loads_[in.args[0].vreg]) {
      // Loaded by ldrb, ldrh or ldr w, each of which zero-extends to 64 bits: no extension
      // (spills and moves keep all 64 bits).
      if (d != s) Mov(X(d), X(s));
    } else if (in.op == Op::kZExt && sb < db) {
      // Writing a W register clears bits 32-63, so these zero-extend to 64 bits too.
      if (sb == 32) Mov(W(d), W(s));
      if (sb == 16) a_->uxth(W(d), W(s));
      if (sb == 8) a_->uxtb(W(d), W(s));
    } else if (d != s) {
      Mov(X(d), X(s));  // trunc, or same width: the bits above the type do not matter
    }
    CommitGp(in.dst, d);
  }

  void EmitFloatBinary(const Instr& in) {
    const int a = ReadFp(in.args[0], kF0);
    const int b = ReadFp(in.args[1], kF1);
    const int d = DstReg(in.dst, kF0);
    if (in.op == Op::kFAdd) {
      a_->fadd(D(d), D(a), D(b));
    } else if (in.op == Op::kFSub) {
      a_->fsub(D(d), D(a), D(b));
    } else if (in.op == Op::kFMul) {
      a_->fmul(D(d), D(a), D(b));
    } else if (in.op == Op::kFDiv) {
      a_->fdiv(D(d), D(a), D(b));
    } else {
      Fail("internal: not an f64 binary op");
    }
    CommitFp(in.dst, d);
  }

  void EmitSIToF(const Instr& in) {
    const int bits = lir::TypeBits(f_.TypeOf(in.args[0].vreg));
    int s = ReadGp(in.args[0], kS0);
    const int d = DstReg(in.dst, kF0);
    if (bits == 64) {
      a_->scvtf(D(d), X(s));
    } else {
      if (bits < 32) {
        Extend32(kS0, s, bits, true);
        s = kS0;
      }
      a_->scvtf(D(d), W(s));
    }
    CommitFp(in.dst, d);
  }

  // Sets the flags for `a cond b` over type t, extending i8/i16 operands first.
  void EmitCompare(Cond cond, Type t, const Operand& a_op, const Operand& b_op) {
    if (lir::IsFloat(t)) {
      a_->fcmp(D(ReadFp(a_op, kF0)), D(ReadFp(b_op, kF1)));
      return;
    }
    const int bits = lir::TypeBits(t);
    const int width = bits == 64 ? 64 : 32;
    const bool is_signed = IsSigned(cond);
    auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
    int a = ReadGp(a_op, kS0, width);
    if (bits < 32) {
      Extend32(kS0, a, bits, is_signed);
      a = kS0;
    }
    if (b_op.is_imm()) {
      // The immediate as the (extended) register value it is compared with.
      uint64_t v = static_cast<uint64_t>(b_op.imm);
      if (bits < 32) {
        v = is_signed ? static_cast<uint64_t>(lir::SignExtend(v, t)) : lir::Truncate(v, t);
      }
      const uint64_t mask = width == 32 ? 0xffffffffull : ~0ull;
      v &= mask;
      const uint64_t neg = (0 - v) & mask;
      if (IsAddSubImm(v)) {
        Cmp(GpOfWidth(a), v);
        return;
      }
      if (v != 0 && IsAddSubImm(neg)) {
        a_->cmn(GpOfWidth(a), neg);
        return;
      }
      const std::optional<int> held = ConstantRegister(v);
      if (!held) MovImm(kS1, v, width);
      Cmp(GpOfWidth(a), GpOfWidth(held.value_or(kS1)));
      return;
    }
    int b = ReadGp(b_op, kS1, width);
    if (bits < 32) {
      Extend32(kS1, b, bits, is_signed);
      b = kS1;
    }
    Cmp(GpOfWidth(a), GpOfWidth(b));
  }

  // Rule: a branch on either of two integer compares is a cmp, then a ccmp that compares the
  // second pair only when the first compare does not hold, and otherwise sets the flags to
  // ones under which the second condition holds; the branch then tests the second condition.
  // One conditional branch where two guards with one failure block took two.
  void EmitEitherCompare(const Instr& in) {
    if (lir::TypeBits(in.cmp_type) < 32 && ComparesWithZero(in)) {  // an i8 or i16 flag: a tst
      EmitTestNonZero(ReadGp(in.args[0], kS0), in.cmp_type);
    } else {
      EmitCompare(in.cond, in.cmp_type, in.args[0], in.args[1]);
    }
    const int width = lir::TypeBits(in.cmp_type2) == 64 ? 64 : 32;
    auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
    const asmjit::Imm when(static_cast<uint32_t>(Negate(ToCondCode(in.cond, in.cmp_type))));
    const asmjit::Imm flags(FlagsWhereHolds(ToCondCode(in.cond2, in.cmp_type2)));
    const Gp c = GpOfWidth(ReadGp(in.args[2], kS0, width));
    const Operand& d = in.args[3];
    if (!d.is_imm()) {
      a_->ccmp(c, GpOfWidth(ReadGp(d, kS1, width)), flags, when);
      return;
    }
    const uint64_t mask = width == 32 ? 0xffffffffull : ~0ull;
    const uint64_t v = static_cast<uint64_t>(d.imm) & mask;
    const uint64_t neg = (0 - v) & mask;
    if (v <= 31) {
      a_->ccmp(c, asmjit::Imm(v), flags, when);
    } else if (neg <= 31) {
      a_->ccmn(c, asmjit::Imm(neg), flags, when);
    } else {
      // The first compare left this immediate in kS1 when it could not encode it either.
      const Operand& b = in.args[1];
      const bool in_s1 = b.is_imm() && in.cmp_type == in.cmp_type2 &&
                         (static_cast<uint64_t>(b.imm) & mask) == v && !IsAddSubImm(v) &&
                         !IsAddSubImm(neg);
      const std::optional<int> held = ConstantRegister(v);
      if (!held && !in_s1) MovImm(kS1, v, width);
      a_->ccmp(c, GpOfWidth(held.value_or(kS1)), flags, when);
    }
  }

  // An either branch `i8 %flag != 0 or ptr %p == 0` (LowerCheckTracing's after a call).
  static bool FlagOrNullPointer(const Instr& in) {
    return in.cond == Cond::kNe && in.cmp_type == Type::kI8 && ComparesWithZero(in) &&
           in.cond2 == Cond::kEq && in.cmp_type2 == Type::kPtr && in.args[2].is_vreg() &&
           in.args[3].is_imm() && in.args[3].imm == 0;
  }
  // A compare form's first pair is `a == 0` or `a != 0`.
  // `a < 0` or `a >= 0` of a 32- or 64-bit integer (tbnz, tbz).
  static bool TestsSign(const Instr& in) {
    return !in.br_on_value && in.args[0].is_vreg() && in.args[1].is_imm() && in.args[1].imm == 0 &&
           (in.cond == Cond::kSlt || in.cond == Cond::kSge) && !lir::IsFloat(in.cmp_type) &&
           lir::TypeBits(in.cmp_type) >= 32;
  }
  static bool ComparesWithZero(const Instr& in) {
    return in.args[1].is_imm() && in.args[1].imm == 0 &&
           (in.cond == Cond::kEq || in.cond == Cond::kNe);
  }

  // The NZCV value (ccmp's immediate: N 8, Z 4, C 2, V 1) under which condition `cc` holds.
  static uint32_t FlagsWhereHolds(CondCode cc) {
    switch (cc) {
      case CondCode::kEQ:
      case CondCode::kLS:
      case CondCode::kLE:
        return 4;  // Z
      case CondCode::kHS:
      case CondCode::kHI:
        return 2;  // C, not Z
      case CondCode::kLT:
      case CondCode::kMI:
        return 8;  // N, not V
      case CondCode::kVS:
        return 1;
      default:
        return 0;  // NE, LO, GE, GT, PL, VC: all clear
    }
  }

  // Sets Z from "value != 0" for an integer register of type t (bits above t ignored).
  void EmitTestNonZero(int reg, Type t) {
    switch (lir::TypeBits(t)) {
      case 8:
        a_->tst(W(reg), 0xff);
        break;
      case 16:
        a_->tst(W(reg), 0xffff);
        break;
      case 32:
        Cmp(W(reg), 0);
        break;
      default:
        Cmp(X(reg), 0);
        break;
    }
  }

  void EmitSelect(const Instr& in) {
    const Type t = f_.TypeOf(in.dst);
    const int c = ReadGp(in.args[0], kS0);
    EmitTestNonZero(c, f_.TypeOf(in.args[0].vreg));
    if (lir::IsFloat(t)) {
      const int x = ReadFp(in.args[1], kF0);
      const int y = ReadFp(in.args[2], kF1);
      const int d = DstReg(in.dst, kF2);
      a_->fcsel(D(d), D(x), D(y), CondCode::kNE);
      return CommitFp(in.dst, d);
    }
    // Materialising immediates does not touch the flags (mov/movk/orr/ldr literal); a 0 is
    // the zero register.
    const auto value = [&](const Operand& v, int scratch) {
      return v.is_imm() && v.imm == 0 ? Gp(asmjit::a64::xzr) : X(ReadGp(v, scratch));
    };
    const Gp x = value(in.args[1], kS1);
    const Gp y = value(in.args[2], kS2);
    const int d = DstReg(in.dst, kS0);
    a_->csel(X(d), x, y, CondCode::kNE);
    CommitGp(in.dst, d);
  }

  // The memory operand of a load/store; uses x16 and x17.
  Mem Address(const Instr& in, int size) {
    if (const std::optional<int64_t> offset = SpAddress(in.base)) {  // without an index
      const int64_t disp = *offset + in.disp;
      if (IsScaledOffset(disp, size) || IsUnscaledOffset(disp)) {
        return asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(disp));
      }
      SpPlus(kS0, disp);
      return asmjit::a64::ptr(X(kS0));
    }
    int base = ReadGp(in.base, kS0);
    int64_t disp = in.disp;
    if (in.index.is_vreg()) {
      const int idx = ReadGp(in.index, kS1);
      const uint32_t shift = static_cast<uint32_t>(__builtin_ctz(static_cast<unsigned>(in.scale)));
      if (disp == 0 && (in.scale == 1 || in.scale == size)) {
        return shift == 0 ? asmjit::a64::ptr(X(base), X(idx))
                          : asmjit::a64::ptr(X(base), X(idx), asmjit::arm::lsl(shift));
      }
      if (shift == 0) {
        Add(X(kS0), X(base), X(idx));
      } else {
        a_->add(X(kS0), X(base), X(idx), asmjit::arm::lsl(shift));
      }
      base = kS0;
    }
    if (IsScaledOffset(disp, size) || IsUnscaledOffset(disp)) {
      return asmjit::a64::ptr(X(base), static_cast<int32_t>(disp));
    }
    AddImm(X(kS0), X(base), static_cast<uint64_t>(disp), 64, kS1);
    return asmjit::a64::ptr(X(kS0));
  }

  void EmitLoad(const Instr& in) {
    const Type t = f_.TypeOf(in.dst);
    const int size = lir::TypeBits(t) / 8;
    const Mem m = Address(in, size);
    if (lir::IsFloat(t)) {
      const int d = DstReg(in.dst, kF0);
      a_->ldr(D(d), m);
      return CommitFp(in.dst, d);
    }
    const int d = DstReg(in.dst, kS2);
    LoadStore(true, size, size == 8 ? X(d) : W(d), m);  // ldrb, ldrh and ldr w zero-extend
    CommitGp(in.dst, d);
  }

  void EmitStore(const Instr& in) {
    const Type t = in.store_type;
    const int size = lir::TypeBits(t) / 8;
    if (lir::IsFloat(t)) {
      const int v = ReadFp(in.args[0], kF0);
      a_->str(D(v), Address(in, size));
      return;
    }
    const bool zero =
        in.args[0].is_imm() && lir::Truncate(static_cast<uint64_t>(in.args[0].imm), t) == 0;
    const int v = zero ? 31 : ReadGp(in.args[0], kS2, size == 8 ? 64 : 32);
    const Gp vx = zero ? Gp(asmjit::a64::xzr) : X(v);
    const Gp vw = zero ? Gp(asmjit::a64::wzr) : W(v);
    LoadStore(false, size, size == 8 ? vx : vw, Address(in, size));
  }

  // Two 64-bit stores in a row to neighbouring words off one base register (a call's
  // arguments, cleared locals, a frame's fields) as one stp; false if they are not that.
  bool EmitStorePair(const Instr& a, const Instr& b) {
    auto pairable = [](const Instr& in) {
      return in.op == Op::kStore && !lir::IsFloat(in.store_type) &&
             lir::TypeBits(in.store_type) == 64 && in.base.is_vreg() && !in.index.is_vreg() &&
             (in.args[0].is_vreg() || (in.args[0].is_imm() && in.args[0].imm == 0));
    };
    if (!pairable(a) || !pairable(b) || a.base.vreg != b.base.vreg) return false;
    const Instr* low = &a;
    const Instr* high = &b;
    if (b.disp + 8 == a.disp) std::swap(low, high);
    const std::optional<int64_t> sp_offset = SpAddress(a.base);
    const int64_t disp = low->disp + sp_offset.value_or(0);
    if (low->disp + 8 != high->disp || disp % 8 != 0 || disp < -512 || disp > 504) return false;
    auto source = [&](const Operand& v, int scratch) {
      return v.is_imm() ? Gp(asmjit::a64::xzr) : X(ReadGp(v, scratch));
    };
    const Gp first = source(low->args[0], kS2);
    const Gp second = source(high->args[0], kS1);
    const Gp base = sp_offset ? Gp(asmjit::a64::sp) : X(ReadGp(a.base, kS0));
    a_->stp(first, second, asmjit::a64::ptr(base, static_cast<int32_t>(disp)));
    return true;
  }

  // A pointer stepped in place and then loaded through (`%p = add %p, k; %v = load [%p]`: a
  // walk over a cache's entries) as one pre-indexed load, `ldr v, [p, #k]!`; false if they
  // are not that.
  bool EmitPreIndexedLoad(const Instr& step, const Instr& load) {
    if (step.op != Op::kAdd || step.dst < 0 || !step.args[0].is_vreg() ||
        step.args[0].vreg != step.dst || !step.args[1].is_imm() || step.args[1].imm < -256 ||
        step.args[1].imm > 255 || load.op != Op::kLoad || !load.base.is_vreg() ||
        load.base.vreg != step.dst || load.index.is_vreg() || load.disp != 0 ||
        load.dst == step.dst || !Loc(step.dst).is_reg()) {
      return false;
    }
    const Type t = f_.TypeOf(load.dst);
    const int size = lir::TypeBits(t) / 8;
    if (lir::IsFloat(t) || (size != 4 && size != 8)) return false;
    const int p = Loc(step.dst).index;
    const int d = DstReg(load.dst, kS2);
    if (d == p) return false;  // a writeback load into its own base is unpredictable
    const auto m = asmjit::a64::ptr_pre(X(p), static_cast<int32_t>(step.args[1].imm));
    size == 8 ? Ldr(X(d), m) : Ldr(W(d), m);
    CommitGp(load.dst, d);
    return true;
  }

  // What a conditional branch tests: the flags (b.cond), or a register being zero or not
  // (cbz/cbnz, with no compare before it).
  struct BranchTest {
    CondCode cc = CondCode::kNE;
    int zero_reg = -1;  // >= 0: cbz/cbnz on this register, `bits` wide
    int bits = 64;
    int sign_bit = -1;    // >= 0: tbz/tbnz on this bit of zero_reg instead
    bool nonzero = true;  // cbnz, tbnz
    BranchTest Negated() const {
      BranchTest t = *this;
      t.cc = Negate(cc);
      t.nonzero = !nonzero;
      return t;
    }
  };

  void BranchIf(const BranchTest& test, int target) {
    if (long_ranges_) {  // b.cond and cbz reach +-1 MiB: skip over an unconditional b
      EmitWord(*a_, BranchTestWord(test.Negated(), 8));
      JumpToBlock(target);
    } else {
      EmitBlockBranch(BranchTestWord(test, 0), target);
    }
  }

  // The b.cond, cbz or cbnz of `test`, over `delta` bytes.
  uint32_t BranchTestWord(const BranchTest& test, int64_t delta) {
    const uint32_t reg = static_cast<uint32_t>(test.zero_reg);
    const std::optional<uint32_t> word =
        test.zero_reg < 0 ? EncodeBCond(test.cc, delta)
        : test.sign_bit < 0
            ? EncodeCbz(test.nonzero, test.bits == 64, reg, delta)
            : EncodeTbz(test.nonzero, static_cast<uint32_t>(test.sign_bit), reg, delta);
    if (!word) Fail("internal: no encoding for a branch test");
    return *word;
  }

  // Rule: a branch on a 32- or 64-bit value being zero or not is one cbz/cbnz, where the
  // general path takes a cmp and a b.cond. Otherwise the flags are set here.
  BranchTest EmitBranchCondition(const Instr& in) {
    BranchTest test;
    if (lir::IsEitherBranch(in)) {
      if (FlagOrNullPointer(in)) {
        // Rule: a byte flag set, or a pointer NULL (tracing on, or a call's error) is one
        // compare of the pointer with the flag's low byte shifted to the top byte: a
        // user-space address is below 2^56 (48 bits on aarch64 Linux and on x86-64), so the
        // pointer is at most that only when it is NULL or the flag is set. The flag here is
        // use_tracing, which 3.11 sets to 255 (docs/cpython311.md): above a pointer with a
        // hardware tag in its top byte too. Where cmp and ccmp took two instructions.
        const int flag = ReadGp(in.args[0], kS0);
        a_->cmp(X(ReadGp(in.args[2], kS1)), X(flag), asmjit::arm::lsl(56));
        test.cc = CondCode::kLS;
        return test;
      }
      EmitEitherCompare(in);
      test.cc = ToCondCode(in.cond2, in.cmp_type2);
      return test;
    }
    if (sign_tests_ && TestsSign(in)) {
      // Rule: a branch on a 32- or 64-bit value being negative or not (a helper's status)
      // is one tbnz/tbz on its sign bit, in a function short enough for their reach.
      test.bits = lir::TypeBits(in.cmp_type);
      test.zero_reg = ReadGp(in.args[0], kS0);
      test.sign_bit = test.bits - 1;
      test.nonzero = in.cond == Cond::kSlt;
      return test;
    }
    const bool against_zero = in.br_on_value || ComparesWithZero(in);
    const Type t = in.br_on_value ? f_.TypeOf(in.args[0].vreg) : in.cmp_type;
    if (against_zero && lir::TypeBits(t) >= 32) {
      test.zero_reg = ReadGp(in.args[0], kS0);
      test.bits = lir::TypeBits(t);
      test.nonzero = in.br_on_value || in.cond == Cond::kNe;
    } else if (in.br_on_value) {
      EmitTestNonZero(ReadGp(in.args[0], kS0), t);
    } else if (against_zero) {
      // An i8 or i16 against zero: one tst of its low bits, not a zero-extension and a cmp.
      EmitTestNonZero(ReadGp(in.args[0], kS0), t);
      test.cc = ToCondCode(in.cond);
    } else {
      EmitCompare(in.cond, in.cmp_type, in.args[0], in.args[1]);
      test.cc = ToCondCode(in.cond, in.cmp_type);
    }
    return test;
  }

  void EmitBranch(const Instr& in) {
    BranchTest test = EmitBranchCondition(in);
    int taken = in.targets[0], other = in.targets[1];
    if (taken == block_ + 1 && other != block_ + 1) {
      // Branch on the opposite condition and fall through into the taken block.
      std::swap(taken, other);
      test = test.Negated();
    } else if (other <= block_ && taken > block_ + 1) {
      // Neither follows: the conditional branch goes backward (a loop's back edge, where the
      // forward target is an exit lowering put out of line), so that the likely way is one
      // taken branch instead of a branch not taken and then a `b` (one block under QEMU).
      std::swap(taken, other);
      test = test.Negated();
    }
    BranchIf(test, taken);
    if (other != block_ + 1) JumpToBlock(other);
  }

  void EmitRet(const Instr& in) {
    if (f_.ret) {
      const Type t = *f_.ret;
      if (lir::IsFloat(t)) {
        const int s = ReadFp(in.args[0], kF0);
        if (s != 0) a_->fmov(D(0), D(s));
      } else if (in.args[0].is_imm()) {
        if (EmitExitByCall(static_cast<uint64_t>(in.args[0].imm))) return;
        // Straight into x0 (deopt exits return small codes).
        MovImm(0, static_cast<uint64_t>(lir::Truncate(static_cast<uint64_t>(in.args[0].imm), t)),
               64);
      } else {
        // Results are returned zero-extended to 64 bits.
        const int s = ReadGp(in.args[0], kS0);
        switch (lir::TypeBits(t)) {
          case 8:
            a_->uxtb(W(0), W(s));
            break;
          case 16:
            a_->uxth(W(0), W(s));
            break;
          case 32:
            Mov(W(0), W(s));
            break;
          default:
            if (s != 0) Mov(X(0), X(s));
            break;
        }
      }
    }
    if (frameless_) {
      a_->ret(asmjit::a64::x30);  // each return its own: no jump to a shared one
    } else if (block_ != epilogue_block_) {
      a_->b(epilogue_);
    }
  }

  // The vregs of fewer than 64 bits whose every definition is an integer load (EmitConvert).
  void FindNarrowLoads() {
    narrow_loads_.assign(f_.vreg_types.size(), true);
    for (const lir::Block& b : f_.blocks) {
      for (const Instr& in : b.instrs) {
        if (in.dst < 0) continue;
        const Type t = f_.TypeOf(in.dst);
        const bool narrow_load = in.op == Op::kLoad && !lir::IsFloat(t) && lir::TypeBits(t) < 64;
        if (!narrow_load) narrow_loads_[static_cast<size_t>(in.dst)] = false;
      }
    }
    for (int p : f_.params) narrow_loads_[static_cast<size_t>(p)] = false;
  }

  // CompileOptions::exit_code_limit: `code` returned by a `bl` to the shared exit block.
  bool EmitExitByCall(uint64_t code) {
    return IsExitCode(code, options_.exit_code_limit) && CallExit(code, exit_block_);
  }
  // An exit block whose stores a tail makes (exit_tails.h): `bl` to the tail, which stores
  // and goes on to the exit block with this bl's return address. False if it is not one.
  bool EmitExitByTail(int b) {
    const int tail = exit_tails_.tail_of_block[static_cast<size_t>(b)];
    if (tail < 0 || b == epilogue_block_) return false;
    current_ = &f_.blocks[static_cast<size_t>(b)].instrs.back();
    const bool called = CallExit(static_cast<uint64_t>(current_->args[0].imm),
                                 tail_labels_[static_cast<size_t>(tail)]);
    Check();
    return called;
  }
  // The exit `code` as a `bl` to `target` (made once needed) when its offset is below the
  // limit, recorded for ExitCodeAt; false if the offset is not.
  bool CallExit(uint64_t code, asmjit::Label& target) {
    const uint64_t at = a_->offset();
    if ((at | kExitByOffset) >= options_.exit_code_limit) return false;
    if (!target.isValid()) target = a_->newLabel();
    a_->bl(target);
    exits_.push_back(ExitByCall{static_cast<uint32_t>(at), static_cast<uint32_t>(code)});
    stats_.exits_by_call++;
    return true;
  }
  // The tails some exit called: its block's stores, then on to the exit block.
  void EmitExitTails() {
    for (size_t t = 0; t < tail_labels_.size(); t++) {
      if (!tail_labels_[t].isValid()) continue;
      a_->bind(tail_labels_[t]);
      const auto& instrs = f_.blocks[static_cast<size_t>(exit_tails_.first_block[t])].instrs;
      EmitInstrs(instrs, instrs.size() - 1);  // not its ret
      current_ = nullptr;
      if (!exit_block_.isValid()) exit_block_ = a_->newLabel();
      a_->b(exit_block_);
      Check();
    }
  }
  // instrs[0, end): each one, or two in one instruction where a rule pairs them.
  void EmitInstrs(const lir::InstrList& instrs, size_t end) {
    for (size_t i = 0; i < end; i++) {
      current_ = &instrs[i];
      const Op op = instrs[i].op;  // each rule starts with one op: the others skip it unasked
      if (const size_t n = op == Op::kReleaseAt ? EmitReleaseByStub(instrs, i) : 0; n > 0) {
        i += n - 1;  // the call, and the jump after it when the data word stands for it
      } else if (const size_t m = op == Op::kBinaryOpIntoLocal ? EmitIntoLocalByStub(instrs, i) : 0;
                 m > 0) {
        i += m - 1;  // the call, and the branch after it when the words stand for it
      } else if (i + 1 < end &&
                 ((op == Op::kStore && EmitStorePair(instrs[i], instrs[i + 1])) ||
                  (op == Op::kAdd && EmitPreIndexedLoad(instrs[i], instrs[i + 1])))) {
        i++;  // both in one instruction
      } else {
        EmitInstr(instrs[i]);
      }
      Check();
    }
  }

  // The exits' shared block: x0 = (the calling bl's offset) | kExitByOffset, which is the
  // return address's offset - 1, then the epilogue.
  void EmitExitBlock() {
    if (!exit_block_.isValid()) return;
    a_->bind(exit_block_);
    a_->adr(asmjit::a64::x16, entry_);
    Sub(asmjit::a64::x0, asmjit::a64::x30, asmjit::a64::x16);
    Sub(asmjit::a64::x0, asmjit::a64::x0, 4 - kExitByOffset);
    a_->b(epilogue_);
  }

  // The block the epilogue follows, so that its `ret` needs no jump there: the last one in
  // layout order that returns a register (a compiled function's return block, which lowering
  // puts straight after the hot code; the exits to the interpreter return constants), else
  // the last block. The blocks after it follow the epilogue.
  int EpilogueBlock() const {
    for (size_t b = f_.blocks.size(); b-- > 0;) {
      const Instr& t = f_.blocks[b].instrs.back();
      if (t.op == Op::kRet && !t.args.empty() && t.args[0].is_vreg()) return static_cast<int>(b);
    }
    return static_cast<int>(f_.blocks.size()) - 1;
  }

  // ---- parallel moves -----------------------------------------------------------------

  // Register-to-register moves that happen "at once" (sources read before any is
  // overwritten); a cycle is broken through `scratch`.
  // `moves` is used up.
  void ParallelMove(std::vector<Move>& moves, bool fp, int scratch) {
    moves.erase(
        std::remove_if(moves.begin(), moves.end(), [](const Move& m) { return m.dst == m.src; }),
        moves.end());
    auto emit = [&](int d, int s) { fp ? a_->fmov(D(d), D(s)) : Mov(X(d), X(s)); };
    while (!moves.empty()) {
      bool progress = false;
      for (size_t i = 0; i < moves.size(); i++) {
        const int d = moves[i].dst;
        const bool read_later =
            std::any_of(moves.begin(), moves.end(), [&](const Move& m) { return m.src == d; });
        if (!read_later) {
          emit(d, moves[i].src);
          moves.erase(moves.begin() + static_cast<long>(i));
          progress = true;
          break;
        }
      }
      if (progress) continue;
      // Every remaining destination is still to be read: a cycle. Park one source.
      const int s = moves[0].src;
      emit(scratch, s);
      for (Move& m : moves) {
        if (m.src == s) m.src = scratch;
      }
    }
  }

  // ---- calls, prologue, epilogue ------------------------------------------------------

  void EmitCall(const Instr& in) {
    // A call through a register: the target goes to x17 before any argument is placed
    // (the argument moves use x16 as their scratch, never x17).
    if (in.callee.empty()) {
      const int t = ReadGp(in.base, kS1);
      if (t != kS1) Mov(X(kS1), X(t));
    }
    const std::optional<uint64_t> target = CallTarget(in);
    if (const std::optional<StubEntryCall> entry = StubEntryFor(in, target)) {
      PlaceArguments(in, entry->placed_by_stub);
      EmitCallToAddress(entry->address);
      stats_.stub_entry_calls++;
    } else {
      PlaceArguments(in);
      if (in.callee.empty()) {
        a_->blr(X(kS1));
        stats_.register_calls++;
      } else if (target) {
        EmitTransferTo(*target, true);
      } else {
        EmitCallTo(in.callee);  // itself, or an unknown callee's error
      }
    }
    CommitCallResult(in);
  }
  // The address a call by name goes to, once resolved; nullopt for a call through a register,
  // of the function itself or of an unknown name.
  std::optional<uint64_t> CallTarget(const Instr& in) const {
    if (in.callee.empty() || in.callee == f_.name || !options_.resolve) return std::nullopt;
    return options_.resolve(in.callee);
  }
  struct StubEntryCall {
    uint64_t address;         // the word to call
    uint32_t placed_by_stub;  // the arguments its moves place, a bit each
  };
  // Rule (CompileOptions::stub_entries): a call of a stub with extra entries calls the first
  // from which every move takes an argument from where the call has it; nullopt if none does.
  std::optional<StubEntryCall> StubEntryFor(const Instr& in, std::optional<uint64_t> target) {
    if (options_.stub_entries == nullptr || !target) return std::nullopt;
    const auto stub = options_.stub_entries->find(*target);
    if (stub == options_.stub_entries->end()) return std::nullopt;
    for (const Operand& o : in.args) {  // so that argument k is in xk
      if (o.is_fimm() || (o.is_vreg() && lir::IsFloat(f_.TypeOf(o.vreg)))) return std::nullopt;
    }
    const std::vector<EntryMove>& moves = stub->second;
    StubEntryCall call{*target, 0};
    for (size_t k = moves.size(); k-- > 0;) {  // from the last word, nearest the stub
      const EntryMove& m = moves[k];
      const auto arg = static_cast<size_t>(m.arg);
      if (arg >= in.args.size() || arg >= 8) break;
      const Operand& o = in.args[arg];
      const bool there = m.from == EntryMove::kFromSp
                             ? SpAddress(o) == int64_t{0}
                             : o.is_vreg() && Loc(o.vreg).is_reg() && Loc(o.vreg).index == m.from;
      if (!there) break;
      call.address -= 4;
      call.placed_by_stub |= 1u << arg;
    }
    if (call.placed_by_stub == 0) return std::nullopt;
    return call;
  }
  // A call's result, from x0 or d0 to where `in.dst` lives.
  void CommitCallResult(const Instr& in) {
    if (in.dst < 0) return;
    if (lir::IsFloat(f_.TypeOf(in.dst))) {
      const int d = DstReg(in.dst, kF0);
      if (d != 0) a_->fmov(D(d), D(0));
      CommitFp(in.dst, d);
    } else {
      const int d = DstReg(in.dst, kS0);
      if (d != 0) Mov(X(d), X(0));
      CommitGp(in.dst, d);
    }
  }

  // The arguments are placed while the frame still holds the registers and spill slots they
  // come from; then the frame goes (its saved registers, x29 and x30 as the caller left them),
  // and the branch leaves x30 pointing at the caller, to which the callee returns.
  void EmitTailCall(const Instr& in) {
    PlaceArguments(in);
    if (!frameless_) EmitFrameTeardown();
    EmitTransferToCallee(in.callee, false);
  }

  // A call's arguments into their ABI registers and stack slots, but for those whose bits are
  // set in `placed_by_callee` (by an extra entry of the call stub).
  void PlaceArguments(const Instr& in, uint32_t placed_by_callee = 0) {
    // Stack arguments first (their sources are read before any argument register is
    // written), then the register arguments as one parallel move, then spilled ones.
    std::vector<Move>&gp_moves = call_moves_[0], &fp_moves = call_moves_[1];  // used up below
    struct SpillLoad {
      int reg;
      const Location* from;
    };
    lir::SmallVector<SpillLoad, 4> gp_loads, fp_loads;  // reg <- spill
    struct ImmLoad {
      int reg;
      int64_t imm;
    };
    lir::SmallVector<ImmLoad, 2> immediates;      // reg <- an immediate argument
    lir::SmallVector<ImmLoad, 2> slot_addresses;  // reg <- sp + offset (sp_addresses.h)
    const AbiSlots abi = AssignAbi(ArgTypes(in), nullptr);
    for (size_t i = 0; i < in.args.size(); i++) {
      if (i < 32 && (placed_by_callee >> i & 1) != 0) continue;
      const Operand& o = in.args[i];
      const AbiSlot& a = abi[i];
      if (a.stack >= 0) {
        const Mem slot = asmjit::a64::ptr(asmjit::a64::sp, 8 * a.stack);
        a.fp ? a_->str(D(ReadFp(o, kF0)), slot) : Str(X(ReadGp(o, kS0)), slot);
        continue;
      }
      if (o.is_imm()) {
        immediates.push_back(ImmLoad{a.reg, o.imm});  // placed after the moves
        continue;
      }
      if (const std::optional<int64_t> offset = SpAddress(o)) {
        slot_addresses.push_back(ImmLoad{a.reg, *offset});  // after the moves too
        continue;
      }
      const Location& l = Loc(o.vreg);
      if (l.is_reg()) {
        (a.fp ? fp_moves : gp_moves).push_back(Move{a.reg, l.index});
      } else {
        (a.fp ? fp_loads : gp_loads).push_back(SpillLoad{a.reg, &l});
      }
    }
    ParallelMove(gp_moves, false, kS0);
    ParallelMove(fp_moves, true, kF0);
    for (const auto& [reg, l] : gp_loads) {
      Ldr(X(reg), asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l->index))));
    }
    for (const auto& [reg, l] : fp_loads) {
      a_->ldr(D(reg),
              asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l->index))));
    }
    for (const auto& [reg, imm] : immediates) MovImm(reg, static_cast<uint64_t>(imm), 64);
    for (const auto& [reg, offset] : slot_addresses) SpPlus(reg, offset);
  }

  void EmitCallTo(const std::string& callee) { EmitTransferToCallee(callee, true); }

  // `bl` (link) or a tail call's `b` to a function named in the LIR.
  void EmitTransferToCallee(const std::string& callee, bool link) {
    if (callee == f_.name) {
      link ? a_->bl(entry_) : a_->b(entry_);  // self-recursion: always in range
      stats_.direct_calls++;
      return;
    }
    std::optional<uint64_t> target = options_.resolve ? options_.resolve(callee) : std::nullopt;
    if (!target) Fail(std::string(link ? "" : "tail ") + "call to unknown function @" + callee);
    EmitTransferTo(*target, link);
  }

  // CompileOptions::release_stubs: instrs[i], a release_at (a call of @a64_dealloc_at) with its
  // object and frame in registers, as a `bl` to their stub and a data word (release_stubs.h).
  // Returns how many instructions that stood for: 2 when the word also stands for the jump after
  // the call (to the next block, or back to one already placed and in reach), else 1; 0 when the
  // call is not of that form (EmitInstr emits it as written).
  size_t EmitReleaseByStub(const lir::InstrList& instrs, size_t i) {
    const Instr& in = instrs[i];
    if (options_.release_stubs == 0 || in.args.size() != 3 || !in.args[0].is_vreg() ||
        !in.args[1].is_vreg() || !in.args[2].is_imm() || !ReleaseDataWord(in.args[2].imm, 1)) {
      return 0;
    }
    const Location &object = Loc(in.args[0].vreg), &frame = Loc(in.args[1].vreg);
    if (!object.is_reg() || !frame.is_reg()) return 0;
    const std::optional<uint64_t> stub =
        ReleaseStubAddress(options_.release_stubs, object.index, frame.index);
    if (!stub) return 0;
    EmitCallToAddress(*stub);
    const auto at = static_cast<int64_t>(a_->offset());
    int64_t words = 1;
    size_t consumed = 1;
    if (i + 1 < instrs.size() && instrs[i + 1].op == Op::kJmp) {
      const int target = instrs[i + 1].targets[0];
      const int64_t placed = block_offset_[static_cast<size_t>(target)];
      if (target == block_ + 1) {
        consumed = 2;  // the jump emits nothing: the next block follows the word
      } else if (placed >= 0) {
        const int64_t back = (placed - at) / 4;
        if (ReleaseDataWord(in.args[2].imm, back)) {
          words = back;
          consumed = 2;
        }
      }
    }
    data_words_.push_back(static_cast<uint32_t>(at));
    a_->embedUInt32(*ReleaseDataWord(in.args[2].imm, words));
    stats_.release_calls++;
    return consumed;
  }

  // CompileOptions::into_local_stub: instrs[i], a binop_into_local (of @a64_binary_op_into_local)
  // with its operands in registers, as a `bl` to the stub and two data words (into_local_stub.h).
  // Returns 2 when the words also stand for the branch after it (on its status, read nowhere
  // else, with the failure's block next and the join placed and in reach), 1 when the stub
  // returns the status in x0 for the branch as written, 0 when the call is not of that form.
  size_t EmitIntoLocalByStub(const lir::InstrList& instrs, size_t i) {
    const Instr& in = instrs[i];
    if (options_.into_local_stub == 0 || in.args.size() != 4 || !in.args[0].is_vreg() ||
        !in.args[1].is_vreg() || !in.args[2].is_imm() || !in.args[3].is_imm()) {
      return 0;
    }
    const Location &a = Loc(in.args[0].vreg), &b = Loc(in.args[1].vreg);
    if (!a.is_reg() || !b.is_reg()) return 0;
    IntoLocalSite site{a.index, b.index, in.args[2].imm, in.args[3].imm, 0};
    if (!IntoLocalDataWords(site)) return 0;
    EmitCallToAddress(options_.into_local_stub);
    const auto at = static_cast<int64_t>(a_->offset());
    const int64_t join = IntoLocalJoin(instrs, i);
    IntoLocalSite continued = site;
    continued.continuation = (join - at) / 4;
    const auto words = join >= 0 ? IntoLocalDataWords(continued) : std::nullopt;
    const auto written = words ? *words : *IntoLocalDataWords(site);
    data_words_.push_back(static_cast<uint32_t>(at));
    data_words_.push_back(static_cast<uint32_t>(at + 4));
    a_->embedUInt32(written.first);
    a_->embedUInt32(written.second);
    stats_.into_local_calls++;
    if (words) return 2;
    CommitCallResult(in);  // the status, for the branch as written
    return 1;
  }
  // The placed offset of the join that the branch after instrs[i] (a call) takes when the
  // call's result is nonzero, if the branch is `br.i64 eq %result, 0, next block, join` and
  // reads the only use of the result; else -1.
  int64_t IntoLocalJoin(const lir::InstrList& instrs, size_t i) {
    const Instr& in = instrs[i];
    if (i + 2 != instrs.size() || in.dst < 0) return -1;
    const Instr& br = instrs[i + 1];
    if (BranchValue(br) != in.dst || br.br_on_value || br.cond != Cond::kEq ||
        br.targets[0] != block_ + 1 || UseCount(in.dst) != 1) {
      return -1;
    }
    return block_offset_[static_cast<size_t>(br.targets[1])];
  }
  // How many instructions read `vreg`, counted over the function once it is first asked.
  int UseCount(int vreg) {
    if (use_counts_.empty()) {
      use_counts_.assign(f_.vreg_types.size(), 0);
      for (const lir::Block& block : f_.blocks) {
        for (const Instr& in : block.instrs) {
          lir::ForEachUse(in, [&](int v) { use_counts_[static_cast<size_t>(v)]++; });
        }
      }
    }
    return use_counts_[static_cast<size_t>(vreg)];
  }

  void EmitCallToAddress(uint64_t target) { EmitTransferTo(target, true); }

  // `bl` (link) or `b` to an absolute address: direct in range, else through x16 (free at a
  // tail call once the arguments are placed).
  void EmitTransferTo(uint64_t target, bool link) {
    if (options_.base_address) {
      const int64_t pc = static_cast<int64_t>(*options_.base_address + a_->offset());
      const int64_t delta = static_cast<int64_t>(target) - pc;
      if (delta >= -kCallRange && delta < kCallRange && (delta & 3) == 0) {
        // bl/b <target>: encoded by hand because the target is an absolute address.
        const uint32_t opcode = link ? 0x94000000u : 0x14000000u;
        a_->embedUInt32(opcode | (static_cast<uint32_t>(delta >> 2) & 0x03ffffffu));
        stats_.direct_calls++;
        return;
      }
    }
    if (pools_) {
      Ldr(X(kS0), asmjit::a64::ptr(PoolLabel(target)));  // one entry per target
      stats_.pool_calls++;
    } else {
      MovImm(kS0, target, 64);  // no pool in range: movz/movk
      stats_.far_calls++;
    }
    link ? a_->blr(X(kS0)) : a_->br(X(kS0));
  }

  // Nothing needs the frame record: nothing on the stack (spills, slots, saved registers,
  // parameters passed there: all are addressed from sp or x29), no call and no exit by call
  // (both `bl`, which overwrites x30), no frame_ptr.
  bool CanBeFrameless() const {
    if (frame_size_ != 0 || options_.exit_code_limit != 0) return false;
    int stack_params = 0;
    ParamAbi(&stack_params);
    if (stack_params != 0) return false;
    for (const lir::Block& b : f_.blocks) {
      for (const Instr& in : b.instrs) {
        if (lir::IsCall(in.op) || in.op == Op::kFramePtr) return false;
      }
    }
    return true;
  }

  // Where the ABI passes the parameters; `stack_slots`, if given, counts those on the stack.
  AbiSlots ParamAbi(int* stack_slots = nullptr) const {
    TypeList types;
    for (int p : f_.params) types.push_back(f_.TypeOf(p));
    return AssignAbi(types, stack_slots);
  }

  void EmitPrologue() {
    if (!frameless_) EmitFrameRecord();
    EmitParameterMoves();
    for (const auto& [value, reg] : constant_regs_) MovImm(reg, value, 64);
  }
  // The callee-saved registers the prologue saves: allocation's, and the constant registers
  // (constant_registers.h) with CompileOptions::constant_registers.
  void ChooseSavedRegisters() {
    if (options_.constant_registers) {
      constant_regs_ = ChooseConstantRegisters(f_, alloc_.used_gp_callee_saved);
    }
    saved_gp_ = alloc_.used_gp_callee_saved;
    for (const auto& [value, reg] : constant_regs_) saved_gp_.push_back(reg);
    std::sort(saved_gp_.begin(), saved_gp_.end());
    stats_.constant_registers = static_cast<int>(constant_regs_.size());
  }
  // The register holding `v` for the whole function, if one does (constant_registers.h). Only
  // constants wider than 32 bits are held, so a 32-bit operand (masked) never finds one.
  std::optional<int> ConstantRegister(uint64_t v) const {
    const auto it = constant_regs_.find(v);
    return it == constant_regs_.end() ? std::nullopt : std::optional<int>(it->second);
  }
  void EmitFrameRecord() {
    a_->stp(asmjit::a64::x29, asmjit::a64::x30, asmjit::a64::ptr_pre(asmjit::a64::sp, -16));
    Mov(asmjit::a64::x29, asmjit::a64::sp);
    AddImm(asmjit::a64::sp, asmjit::a64::sp, 0 - static_cast<uint64_t>(frame_size_), 64, kS0);
    SaveCalleeSaved(true);
  }
  // Parameters: from the ABI's places to their allocated ones, as one parallel move.
  void EmitParameterMoves() {
    std::vector<Move> gp_moves, fp_moves;
    std::vector<std::pair<int, int>> stack_loads;  // param vreg, incoming stack slot
    const AbiSlots abi = ParamAbi();
    for (size_t i = 0; i < f_.params.size(); i++) {
      const int p = f_.params[i];
      const AbiSlot& a = abi[i];
      const Location& l = Loc(p);
      if (l.kind == Location::Kind::kNone) continue;  // unused parameter
      if (a.stack >= 0) {
        stack_loads.emplace_back(p, a.stack);
      } else if (l.is_reg()) {
        (a.fp ? fp_moves : gp_moves).push_back(Move{l.index, a.reg});
      } else {
        // Spilled: store before any register move can overwrite the ABI register.
        const Mem slot =
            asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l.index)));
        a.fp ? a_->str(D(a.reg), slot) : Str(X(a.reg), slot);
      }
    }
    ParallelMove(gp_moves, false, kS0);
    ParallelMove(fp_moves, true, kF0);
    for (const auto& [p, incoming] : stack_loads) {
      const Mem src = asmjit::a64::ptr(asmjit::a64::x29, 16 + 8 * incoming);
      const bool fp = lir::IsFloat(f_.TypeOf(p));
      const int d = DstReg(p, fp ? kF0 : kS0);
      if (fp) {
        a_->ldr(D(d), src);
        CommitFp(p, d);
      } else {
        Ldr(X(d), src);
        CommitGp(p, d);
      }
    }
  }

  // Stores (save) or loads the callee-saved registers the allocation uses, just below the
  // frame record: the i-th at x29 - 8 * (i + 1), general registers first. Neighbours go in
  // pairs (stp/ldp reach 512 bytes below x29, more than 18 registers take).
  void SaveCalleeSaved(bool save) {
    std::vector<std::pair<int, bool>> regs;  // register, fp
    regs.reserve(saved_gp_.size() + alloc_.used_fp_callee_saved.size());
    for (int r : saved_gp_) regs.emplace_back(r, false);
    for (int r : alloc_.used_fp_callee_saved) regs.emplace_back(r, true);
    for (size_t i = 0; i < regs.size();) {
      const int32_t off = -8 * static_cast<int32_t>(i + 1);
      const auto [r, fp] = regs[i];
      if (i + 1 < regs.size() && regs[i + 1].second == fp) {
        // The pair's lower address holds the next register.
        const Mem m = asmjit::a64::ptr(asmjit::a64::x29, off - 8);
        const int next = regs[i + 1].first;
        if (fp) {
          save ? a_->stp(D(next), D(r), m) : a_->ldp(D(next), D(r), m);
        } else {
          save ? a_->stp(X(next), X(r), m) : a_->ldp(X(next), X(r), m);
        }
        i += 2;
        continue;
      }
      const Mem m = asmjit::a64::ptr(asmjit::a64::x29, off);
      if (fp) {
        save ? a_->str(D(r), m) : a_->ldr(D(r), m);
      } else {
        save ? Str(X(r), m) : Ldr(X(r), m);
      }
      i++;
    }
  }

  void EmitEpilogue() {
    EmitFrameTeardown();
    a_->ret(asmjit::a64::x30);
  }
  // The saved registers back, then sp, x29 and x30 as the caller left them.
  void EmitFrameTeardown() {
    SaveCalleeSaved(false);
    Mov(asmjit::a64::sp, asmjit::a64::x29);
    a_->ldp(asmjit::a64::x29, asmjit::a64::x30, asmjit::a64::ptr_post(asmjit::a64::sp, 16));
  }

  void EmitPool() {
    if (pool_.empty()) return;
    while (a_->offset() % 8 != 0) a_->embedUInt32(0);  // udf #0 padding: never executed
    for (const auto& [value, label] : pool_) {
      a_->bind(label);
      a_->embedUInt64(value);
    }
  }

  const lir::Function& f_;
  const CompileOptions& options_;
  lir::Allocation alloc_;
  asmjit::CodeHolder code_;
  ErrorRecorder errors_;
  std::unique_ptr<asmjit::a64::Assembler> a_;
  std::vector<int64_t> block_offset_;  // per block: where its code starts; -1 until placed
  struct BlockFixup {
    size_t at;   // a branch's offset
    int target;  // the block it goes to
  };
  std::vector<BlockFixup> block_fixups_;  // branches forward, to patch
  asmjit::Label epilogue_, entry_;
  asmjit::Label exit_block_;                // EmitExitByCall's, once one exit needs it
  ExitTails exit_tails_;                    // FindExitTails
  std::vector<asmjit::Label> tail_labels_;  // per tail, once an exit calls it
  std::vector<ExitByCall> exits_;
  std::vector<uint32_t> data_words_;       // EmitReleaseByStub's and EmitIntoLocalByStub's
  std::vector<int> use_counts_;            // UseCount's, by vreg
  std::map<uint64_t, int> constant_regs_;  // ChooseSavedRegisters': value -> register
  std::vector<int> saved_gp_;              // and the general registers the prologue saves
  std::vector<bool> narrow_loads_;         // FindNarrowLoads
  int epilogue_block_ = -1;                // EpilogueBlock()
  bool frameless_ = false;                 // CodeStats::frameless
  std::map<uint64_t, asmjit::Label> pool_;
  bool long_ranges_ = false;
  bool pools_ = true;
  bool sign_tests_ = false;
  int64_t out_bytes_ = 0, spill_base_ = 0, frame_size_ = 0;
  std::vector<int64_t> slot_offsets_;
  std::vector<int> sp_slot_;         // per vreg: FindSpAddresses
  std::vector<Move> call_moves_[2];  // a call's argument moves, general and f64: reused
  const Instr* current_ = nullptr;
  int block_ = 0;
  CodeStats stats_;
};

}  // namespace

// Short forms first (b.cond, cbz and ldr-literal reach +-1 MiB, and a function's constants
// share one literal pool): a function that came out smaller than that range has every
// branch and literal in reach. A larger one (or one asmjit could not resolve) is emitted
// again with the long forms: a b.cond over an unconditional b, constants by movz/movk.
CompiledFunction EmitAllocated(const lir::Function& f, const lir::Allocation& allocation,
                               const CompileOptions& options) {
  if (!options.force_long_ranges) {
    // With tbz/tbnz (+-32 KiB), then without, then the long forms.
    for (const bool sign_tests : {true, false}) {
      try {
        CompiledFunction out = FunctionCompiler(f, allocation, options, sign_tests).Run();
        const size_t reach = sign_tests ? kTestBranchRange : kBranchRange;
        if (out.bytes.size() < reach) return out;
        if (out.bytes.size() >= kBranchRange) break;
      } catch (const CompileError&) {
        // Out of range, or an error the long forms will report again.
      }
    }
  }
  CompileOptions long_forms = options;
  long_forms.force_long_ranges = true;
  return FunctionCompiler(f, allocation, long_forms).Run();
}

CompiledFunction Compile(const lir::Function& f, const CompileOptions& options) {
  lir::Verify(f);
  return EmitAllocated(f, lir::AllocateRegisters(f, Aarch64Registers()), options);
}

std::string Disassemble(const CompiledFunction& code, uint64_t base_address) {
  std::string out;
  const size_t n = code.stats.code_bytes;
  auto data = code.data_words.begin();
  for (size_t off = 0; off + 4 <= n; off += 4) {
    if (data != code.data_words.end() && *data == off) {
      uint32_t word;
      std::memcpy(&word, code.bytes.data() + off, sizeof word);
      char line[64];
      std::snprintf(line, sizeof line, "%04zx: .word 0x%08x\n", off, word);
      out += line;
      ++data;
      continue;
    }
    std::string line =
        codegen::DisassembleAt(code.bytes.data() + off, 4, base_address + off, ~0ull);
    // "   0x<addr>: text\n" -> "<offset>: text"
    const size_t colon = line.find(": ");
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%04zx", off);
    out += std::string(prefix) + line.substr(colon, line.size() - colon);
  }
  for (size_t off = (n + 7) & ~size_t{7}; off + 8 <= code.bytes.size(); off += 8) {
    uint64_t v;
    std::memcpy(&v, code.bytes.data() + off, sizeof v);
    char line[64];
    std::snprintf(line, sizeof line, "%04zx: .quad 0x%016llx\n", off,
                  static_cast<unsigned long long>(v));
    out += line;
  }
  return out;
}

std::optional<uint64_t> ExitCodeAt(const std::vector<ExitByCall>& exits, uint64_t result) {
  const uint64_t at = result & ~kExitByOffset;
  const auto it =
      std::lower_bound(exits.begin(), exits.end(), at,
                       [](const ExitByCall& e, uint64_t off) { return e.offset < off; });
  if (it == exits.end() || it->offset != at) return std::nullopt;
  return it->code;
}

LoadedFunction CompileInto(runtime::CodeSink& sink, const CompileAt& compile) {
  const uint64_t expected = sink.NextAddress();
  CompiledFunction code = compile(expected != 0 ? std::optional<uint64_t>(expected) : std::nullopt);
  const uint8_t* at = sink.Load(code.bytes.data(), code.bytes.size());
  if (reinterpret_cast<uintptr_t>(at) == expected) return LoadedFunction{at, std::move(code)};
  // Placed elsewhere: direct `bl`s and branch reach were decided for `expected`. Compile
  // for the real address; if that does not fit where the first code went, load position-
  // independent code (literal-pool calls reach anywhere) instead.
  CompiledFunction final_code = compile(reinterpret_cast<uintptr_t>(at));
  if (final_code.bytes.size() > code.bytes.size()) {
    final_code = compile(std::nullopt);
    at = sink.Load(final_code.bytes.data(), final_code.bytes.size());
    return LoadedFunction{at, std::move(final_code)};
  }
  sink.Patch(at, final_code.bytes.data(), final_code.bytes.size());
  return LoadedFunction{at, std::move(final_code)};
}

std::map<std::string, LoadedFunction> CompileAndLoad(const lir::Module& module,
                                                     runtime::CodeSink& sink,
                                                     const CallResolver& resolve) {
  std::map<std::string, LoadedFunction> loaded;
  CompileOptions options;
  options.resolve = [&](const std::string& name) -> std::optional<uint64_t> {
    auto it = loaded.find(name);
    if (it != loaded.end()) return reinterpret_cast<uintptr_t>(it->second.entry);
    auto ext = module.externs.find(name);
    if (ext != module.externs.end()) return ext->second;
    return resolve ? resolve(name) : std::nullopt;
  };
  for (const lir::Function& f : module.functions) {
    loaded[f.name] = CompileInto(sink, [&](std::optional<uint64_t> base) {
      options.base_address = base;
      return Compile(f, options);
    });
  }
  return loaded;
}

}  // namespace a64jit::codegen
