// Calls: argument placement by parallel moves, stub entries that place arguments
// themselves, tail calls, and the release and into-local stubs' call sites.
#include "jit/codegen/function_compiler.h"

namespace a64jit::codegen::internal {

// ---- parallel moves -----------------------------------------------------------------
// Register-to-register moves that happen "at once" (sources read before any is
// overwritten); a cycle is broken through `scratch`.
// `moves` is used up.
void FunctionCompiler::ParallelMove(std::vector<Move>& moves, bool fp, int scratch) {
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
void FunctionCompiler::EmitCall(const Instr& in) {
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
std::optional<uint64_t> FunctionCompiler::CallTarget(const Instr& in) const {
  if (in.callee.empty() || in.callee.str() == f_.name || !options_.resolve) return std::nullopt;
  return options_.resolve(in.callee);
}

// Rule (CompileOptions::stub_entries): a call of a stub with extra entries calls the first
// from which every move takes an argument from where the call has it; nullopt if none does.
std::optional<FunctionCompiler::StubEntryCall> FunctionCompiler::StubEntryFor(
    const Instr& in, std::optional<uint64_t> target) {
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
void FunctionCompiler::CommitCallResult(const Instr& in) {
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
void FunctionCompiler::EmitTailCall(const Instr& in) {
  PlaceArguments(in);
  if (!frameless_) EmitFrameTeardown();
  EmitTransferToCallee(in.callee, false);
}

// A call's arguments into their ABI registers and stack slots, but for those whose bits are
// set in `placed_by_callee` (by an extra entry of the call stub).
void FunctionCompiler::PlaceArguments(const Instr& in, uint32_t placed_by_callee) {
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
    a_->ldr(D(reg), asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l->index))));
  }
  for (const auto& [reg, imm] : immediates) MovImm(reg, static_cast<uint64_t>(imm), 64);
  for (const auto& [reg, offset] : slot_addresses) SpPlus(reg, offset);
}

// `bl` (link) or a tail call's `b` to a function named in the LIR.
void FunctionCompiler::EmitTransferToCallee(const std::string& callee, bool link) {
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
size_t FunctionCompiler::EmitReleaseByStub(const lir::InstrList& instrs, size_t i) {
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
size_t FunctionCompiler::EmitIntoLocalByStub(const lir::InstrList& instrs, size_t i) {
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
int64_t FunctionCompiler::IntoLocalJoin(const lir::InstrList& instrs, size_t i) {
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
int FunctionCompiler::UseCount(int vreg) {
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

// `bl` (link) or `b` to an absolute address: direct in range, else through x16 (free at a
// tail call once the arguments are placed).
void FunctionCompiler::EmitTransferTo(uint64_t target, bool link) {
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

}  // namespace a64jit::codegen::internal
