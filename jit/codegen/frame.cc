// The frame and the blocks: frame layout, block branches and their fixups, the prologue
// (saved registers, constant registers, parameter moves), the epilogue, the literal pool.
#include "jit/codegen/function_compiler.h"

namespace a64jit::codegen::internal {

// Emits `word`, a branch, to block `target`.
void FunctionCompiler::EmitBlockBranch(uint32_t word, int target) {
  const size_t here = a_->offset();
  if (block_offset_[static_cast<size_t>(target)] >= 0) {
    EmitWord(*a_, Retarget(word, here, target));
    return;
  }
  block_fixups_.push_back(BlockFixup{here, target});
  EmitWord(*a_, word);
}

void FunctionCompiler::ResolveBlockBranches() {
  for (const BlockFixup& fix : block_fixups_) {
    uint8_t* at = a_->bufferData() + fix.at;
    uint32_t word = 0;
    std::memcpy(&word, at, sizeof word);
    word = Retarget(word, fix.at, fix.target);
    std::memcpy(at, &word, sizeof word);
  }
}

// The branch `word` at offset `at` made to go to placed block `target`.
uint32_t FunctionCompiler::Retarget(uint32_t word, size_t at, int target) {
  const int64_t to = block_offset_[static_cast<size_t>(target)];
  const std::optional<uint32_t> w =
      to < 0 ? std::nullopt : WithBranchDelta(word, to - static_cast<int64_t>(at));
  if (!w) Fail("a branch to bb" + std::to_string(target) + " is out of range");
  return *w;
}

TypeList FunctionCompiler::ArgTypes(const Instr& call) const {
  TypeList types;
  for (const Operand& o : call.args) types.push_back(o.is_vreg() ? f_.TypeOf(o.vreg) : Type::kI64);
  return types;
}

void FunctionCompiler::LayOutFrame() {
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

// The offset from SP of the slot `vreg` is the address of, when it has no register of its
// own (sp_addresses.h).
std::optional<int64_t> FunctionCompiler::SpAddress(int vreg) const {
  const int slot = sp_slot_[static_cast<size_t>(vreg)];
  if (slot < 0) return std::nullopt;
  return slot_offsets_[static_cast<size_t>(slot)];
}

// Nothing needs the frame record: nothing on the stack (spills, slots, saved registers,
// parameters passed there: all are addressed from sp or x29), no call and no exit by call
// (both `bl`, which overwrites x30), no frame_ptr.
bool FunctionCompiler::CanBeFrameless() const {
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
AbiSlots FunctionCompiler::ParamAbi(int* stack_slots) const {
  TypeList types;
  for (int p : f_.params) types.push_back(f_.TypeOf(p));
  return AssignAbi(types, stack_slots);
}

void FunctionCompiler::EmitPrologue() {
  if (!frameless_) EmitFrameRecord();
  EmitParameterMoves();
  for (const auto& [value, reg] : constant_regs_) MovImm(reg, value, 64);
}

// The callee-saved registers the prologue saves: allocation's, and the constant registers
// (constant_registers.h) with CompileOptions::constant_registers.
void FunctionCompiler::ChooseSavedRegisters() {
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
std::optional<int> FunctionCompiler::ConstantRegister(uint64_t v) const {
  const auto it = constant_regs_.find(v);
  return it == constant_regs_.end() ? std::nullopt : std::optional<int>(it->second);
}

void FunctionCompiler::EmitFrameRecord() {
  a_->stp(asmjit::a64::x29, asmjit::a64::x30, asmjit::a64::ptr_pre(asmjit::a64::sp, -16));
  Mov(asmjit::a64::x29, asmjit::a64::sp);
  AddImm(asmjit::a64::sp, asmjit::a64::sp, 0 - static_cast<uint64_t>(frame_size_), 64, kS0);
  SaveCalleeSaved(true);
}

// Parameters: from the ABI's places to their allocated ones, as one parallel move.
void FunctionCompiler::EmitParameterMoves() {
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
void FunctionCompiler::SaveCalleeSaved(bool save) {
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

void FunctionCompiler::EmitEpilogue() {
  EmitFrameTeardown();
  a_->ret(asmjit::a64::x30);
}

// The saved registers back, then sp, x29 and x30 as the caller left them.
void FunctionCompiler::EmitFrameTeardown() {
  SaveCalleeSaved(false);
  Mov(asmjit::a64::sp, asmjit::a64::x29);
  a_->ldp(asmjit::a64::x29, asmjit::a64::x30, asmjit::a64::ptr_post(asmjit::a64::sp, 16));
}

void FunctionCompiler::EmitPool() {
  if (pool_.empty()) return;
  while (a_->offset() % 8 != 0) a_->embedUInt32(0);  // udf #0 padding: never executed
  for (const auto& [value, label] : pool_) {
    a_->bind(label);
    a_->embedUInt64(value);
  }
}

}  // namespace a64jit::codegen::internal
