// The emitting layer every rule uses: blocks, vregs, calls and their error tests, deopt
// sites and exits, the scratch slot, site caches, guards and joins.
#include "jit/lower/lowerer.h"

namespace a64jit::lower::internal {

// LIR call arguments are registers.
lir::Operands Lowerer::InRegisters(lir::Operands args) {
  for (Operand& a : args) {
    if (!a.is_vreg()) a = V(Mov(a, Type::kI64));
  }
  return args;
}

// A call of a helper (jit/runtime/helpers.h) with as many arguments as its C type takes.
lir::Instr Lowerer::HelperCall(Helper h, lir::Operands args) {
  if (static_cast<int>(args.size()) != runtime::HelperArity(h)) {
    throw std::logic_error(std::string("lowering: ") + runtime::HelperName(h) + " takes " +
                           std::to_string(runtime::HelperArity(h)) + " arguments, not " +
                           std::to_string(args.size()));
  }
  return CallByName(runtime::HelperName(h), std::move(args));
}

// A call of `callee`, which code generation's resolver places (a `bl` when in range).
lir::Instr Lowerer::CallByName(const char* callee, lir::Operands args) {
  lir::Instr in;
  in.op = lir::Op::kCall;
  in.callee = callee;
  in.args = InRegisters(std::move(args));
  return in;
}

// A call of guest code by name (the call stub, a site stub) into a new vreg of type `t`.
int Lowerer::CallNamed(const char* callee, lir::Operands args, Type t) {
  lir::Instr call = CallByName(callee, std::move(args));
  call.dst = out_.NewVReg(t);
  return Emit(std::move(call)).dst;
}

int Lowerer::Call(Helper h, lir::Operands args, int dst, Type t) {
  lir::Instr in = HelperCall(h, std::move(args));
  in.dst = dst >= 0 ? dst : out_.NewVReg(t);
  return Emit(std::move(in)).dst;
}

// `v` zero-extended to 64 bits.
int Lowerer::ZExt(Operand v) {
  lir::Instr ext;
  ext.op = lir::Op::kZExt;
  ext.dst = out_.NewVReg(Type::kI64);
  ext.args = {v};
  return Emit(std::move(ext)).dst;
}

// Branches to a fresh block on `cond`, continues in another; returns the taken block.
int Lowerer::SplitOn(Cond c, Operand a, Operand b, Type t) {
  const int taken = NewBlock(), cont = NewBlock();
  Br(c, a, b, taken, cont, t);
  cur_ = cont;
  return taken;
}

// prev_instr = the instruction at code unit `unit` (what frame objects and tracebacks read):
// its address, then a note that ResolvePrevInstr (prev_instr.h) makes the store, or drops
// with the add when prev_instr is at `unit` on every path here.
void Lowerer::SetPrevInstr(int unit) {
  const int p = unit == 0 ? first_instr_
                          : Binary(lir::Op::kAdd, V(first_instr_), Operand::Imm(2 * int64_t{unit}),
                                   Type::kPtr);
  lir::Instr note;
  note.op = lir::Op::kSetPrevInstr;
  note.args = {V(frame_), V(p), Operand::Imm(unit)};
  EmitNote(std::move(note));
}

// A note that prev_instr is at `unit` here (-1: at a unit not known here), as a helper or
// a store of lowering's own left it.
void Lowerer::NotePrevInstr(int unit) {
  lir::Instr note;
  note.op = lir::Op::kPrevInstrIs;
  note.args = {Operand::Imm(unit)};
  EmitNote(std::move(note));
}

// The thread's current frame = frame->previous.
void Lowerer::MakeCallerCurrent(int frame) {
  const int cframe = Load(V(tstate_), kThreadCFrame, Type::kPtr);
  Store(V(Load(V(frame), kFramePrevious, Type::kPtr)), V(cframe), kCurrentFrame, Type::kPtr);
}

void Lowerer::Incref(Operand obj) {
  const int rc = Load(obj, 0, Type::kI64);
  Binary(lir::Op::kAdd, V(rc), Operand::Imm(1), Type::kI64, rc);
  Store(V(rc), obj, 0, Type::kI64);
}

void Lowerer::Decref(int obj, bool maybe_null, int bc, bool float_like) {
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
  if (float_like && InlineFloatFreeList()) FreeFloat(obj, done);
  if (UseReleaseStub(bc)) {
    // The helper sets prev_instr, so that the cold block is a call and a jump, which code
    // generation makes one `bl` to a shared stub and a data word (codegen/release_stubs.h).
    // The unit stays an immediate (no register): the stub form keeps it in its data word.
    const int64_t unit = bc;  // UseReleaseStub: bc >= 0; -1 (already there): prev_instr.h
    lir::Instr call = CallByName(runtime::HelperName(Helper::a64_dealloc_at), {V(obj), V(frame_)});
    call.op = lir::Op::kReleaseAt;
    call.args.push_back(Operand::Imm(unit));
    EmitNote(std::move(call));
  } else {
    if (bc >= 0) SetPrevInstr(bc);
    CallVoid(Helper::a64_dealloc, {V(obj)});
  }
  Jmp(done);
  cur_ = done;
}

void Lowerer::EmitDeopt(const FrameState& st, int64_t code_if_top_null) {
  if (Raises(st) && st.catch_block >= 0) return EmitCatchEdge(st);
  const uint64_t code = AddDeoptSite(st, true, code_if_top_null);
  Ret(Imm(static_cast<int64_t>(code)));
}

// The DeoptSite of an exit for `st`, and its code; with `emit`, the stores that leave the
// stack's values in the frame (EmitDeopt's).
uint64_t Lowerer::AddDeoptSite(const FrameState& st, bool emit, int64_t code_if_top_null) {
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
      site.refs.push_back(
          DeoptSite::Ref{static_cast<int>(i), def.op == Op::kLoadConst, static_cast<int>(def.imm)});
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
void Lowerer::EmitCatchEdge(const FrameState& st) {
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

void Lowerer::DeoptIf(const FrameState& state, Cond c, Operand value, Operand rhs, Type t) {
  const int deopt = DeoptBlock(state);
  const int cont = NewBlock();
  Emit(BrInstr(c, t, value, rhs, deopt, cont));
  cur_ = cont;
}

// A helper's 1 ("not mine"): the interpreter redoes the instruction (and raises stock's
// error, or does what the helper does not).
void Lowerer::ResumeIfOne(const Instr& in, Operand value) {
  FrameState resume = in.state;
  resume.kind = FrameState::Kind::kResume;
  DeoptIf(resume, Cond::kEq, value, Operand::Imm(1));
}

// The scratch slot's address: operand arrays for calls, results of multi-result helpers.
int Lowerer::ScratchAddr() {
  lir::Instr addr;
  addr.op = lir::Op::kSlotAddr;
  addr.dst = out_.NewVReg(Type::kPtr);
  addr.slot = 0;
  return Emit(std::move(addr)).dst;
}

// Stores `args` into the scratch slot and returns its address.
int Lowerer::Spill(const std::vector<int>& args) {
  const int p = ScratchAddr();
  for (size_t i = 0; i < args.size(); i++) {
    Store(V(LirReg(args[i])), V(p), 8 * static_cast<int64_t>(i), Type::kPtr);
  }
  return p;
}

// Room for the function's caches (RuntimeAddresses::reserve_site_caches), and the register
// that holds its address: at most one cache for each instruction of these ops.
void Lowerer::ReserveSiteCaches() {
  if (!rt_.reserve_site_caches) return;
  const int count = CountInstrs([](Op op) {
    return op == Op::kCall || Unfused(op) == Op::kLoadGlobal || op == Op::kLoadAttr ||
           op == Op::kStoreAttr || op == Op::kLoadMethod;
  });
  if (count == 0) return;
  site_room_ = rt_.reserve_site_caches(count);
  if (site_room_ != nullptr) site_room_reg_ = Mov(Ptr(site_room_), Type::kPtr);
}

Lowerer::SiteRef Lowerer::SiteRefOf(const void* site) {
  const std::optional<int64_t> offset = RoomOffset(site, kLoadReach - kSiteCacheBytes);
  if (!offset) return {SiteAddress(site), 0};
  return {site_room_reg_, *offset};
}

// `site`'s offset in the room, when it is there and at most `reach`.
std::optional<int64_t> Lowerer::RoomOffset(const void* site, int64_t reach) const {
  if (site_room_ == nullptr) return std::nullopt;
  const int64_t offset = static_cast<const char*>(site) - static_cast<const char*>(site_room_);
  if (offset < 0 || offset > reach) return std::nullopt;
  return offset;
}

// A new vreg holding `site`'s address plus `tag`: from the room's register, else a literal.
int Lowerer::SiteAddress(const void* site, int64_t tag) {
  const std::optional<int64_t> offset = RoomOffset(site, kSiteRoomReach - 1);
  if (!offset) {
    return Mov(Operand::Imm(static_cast<int64_t>(reinterpret_cast<uintptr_t>(site)) + tag),
               Type::kPtr);
  }
  if (*offset + tag == 0) return Mov(V(site_room_reg_), Type::kPtr);
  return Binary(lir::Op::kAdd, V(site_room_reg_), Operand::Imm(*offset + tag), Type::kPtr);
}

// Whether a decref at `bc` releases through a release stub (codegen/release_stubs.h):
// outside loops and recursion, as for site stubs, and not while the frame returns (bc -1:
// its locals' releases run on every call). A deallocation through the stub costs about
// seven more instructions and one more translated block than the inline call, which hot
// code pays often (one-digit ints going to the free list, a `*args` tuple at each
// return). With stubs everywhere the benchmark set ran 2.2% more guest instructions
// (int_loops 4.5%); with them also at returns, `closures` ran 1.5% more.
bool Lowerer::UseReleaseStub(int bc) {
  return rt_.release_stubs != 0 && bc >= 0 && !InLoop(bc) &&
         Take(decisions_, Decision::kLowerReleaseStub, bc);
}

// A cache for `site` (default: the instruction being lowered), with its instruction and
// name in the cache's header (RuntimeAddresses::new_site_cache).
SiteCache* Lowerer::NewSiteCache(const Instr* site) {
  if (!rt_.new_site_cache) return nullptr;
  if (site == nullptr) site = lowering_;
  if (site == nullptr) return rt_.new_site_cache(-1, -1, -1);
  const bool named = Unfused(site->op) == Op::kLoadGlobal || site->op == Op::kLoadAttr ||
                     site->op == Op::kStoreAttr || site->op == Op::kLoadMethod;
  const int argc = site->op == Op::kCall ? static_cast<int>(site->imm) : -1;
  return rt_.new_site_cache(site->bc, named ? static_cast<int>(site->imm) : -1, argc);
}

// A call returning a new reference, NULL on error.
void Lowerer::CallChecked(const Instr& in, Helper h, lir::Operands args) {
  SetPrevInstr(in.bc);
  SiteCallChecked(in, h, std::move(args));
}

// A site helper's call (jit/runtime/helpers.h): the helper itself makes `in` the frame's
// prev_instr, from its cache's header, so nothing is stored here.
void Lowerer::SiteCallChecked(const Instr& in, Helper h, lir::Operands args) {
  Call(h, std::move(args), LirReg(in.dst));
  NotePrevInstr(in.bc);
  DeoptIf(in, Cond::kEq, V(LirReg(in.dst)), Operand::Imm(0));
}

// Its int64_t result, negative on error.
int Lowerer::SiteCallInt(const Instr& in, Helper h, lir::Operands args, int dst) {
  const int r = Call(h, std::move(args), dst, Type::kI64);
  NotePrevInstr(in.bc);
  DeoptIf(in, Cond::kSlt, V(r), Operand::Imm(0));
  return r;
}

// A call returning a C int that nothing reads but this test: negative on error. Tested
// in 32 bits (a C int's upper half is undefined), so with no sign extension.
void Lowerer::CallStatus(const Instr& in, Helper h, lir::Operands args) {
  SetPrevInstr(in.bc);
  const int r = Truncate(Call(h, std::move(args), -1, Type::kI64), Type::kI32);
  DeoptIf(in, Cond::kSlt, V(r), Operand::Imm(0), Type::kI32);
}

// A call returning an int, negative on error.
int Lowerer::CallInt(const Instr& in, Helper h, lir::Operands args, int dst) {
  SetPrevInstr(in.bc);
  const int r = Call(h, std::move(args), dst, Type::kI64);
  return CheckInt(in, r, r);
}

// dst:i64 = the C int result `r` of a call for `in`, whose negative value is the error exit.
int Lowerer::CheckInt(const Instr& in, int r, int dst) {
  SExtInt(r, dst);
  DeoptIf(in, Cond::kSlt, V(dst), Operand::Imm(0));
  return dst;
}

// dst:i64 = a C function's int result `r`: only its low 32 bits are defined.
void Lowerer::SExtInt(int r, int dst) {
  lir::Instr ext;
  ext.op = lir::Op::kSExt;
  ext.dst = dst;
  ext.args = {V(Truncate(r, Type::kI32))};
  Emit(std::move(ext));
}

// dst:i64 = (a c b) ? 1 : 0, over operands of type `t` (i64 or f64: lir.h's EvalCond).
int Lowerer::Compare(Operand a, Operand b, Cond c, int dst, Type t) {
  lir::Instr in;
  in.op = lir::Op::kCmp;
  in.dst = dst >= 0 ? dst : out_.NewVReg(Type::kI64);
  in.cond = c;
  in.cmp_type = t;
  in.args = {a, b};
  return Emit(std::move(in)).dst;
}

// dst:t = c != 0 ? a : b.
int Lowerer::Select(Operand c, Operand a, Operand b, Type t, int dst) {
  lir::Instr in;
  in.op = lir::Op::kSelect;
  in.dst = dst >= 0 ? dst : out_.NewVReg(t);
  in.args = {c, a, b};
  return Emit(std::move(in)).dst;
}

// ---- Inline cache checks: a hit runs no call at all; the helper on the slow path fills
// the cache (jit/runtime/site_cache.h) ----
lir::Instr Lowerer::BrInstr(Cond c, Type t, Operand a, Operand b, int if_true, int if_false) {
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
void Lowerer::SlowIf(Cond c, Type t, Operand a, Operand b, int slow) {
  const int next = NewBlock();
  Emit(BrInstr(c, t, a, b, slow, next));
  cur_ = next;
}

// Two guards with one failure block: `slow` when `a c b` or `x c2 y` holds. Decision
// lower.guard-pair makes them one branch (lir.h's either form: cmp, ccmp, b.cond), which
// under QEMU also ends one translation block where two did; declined, two SlowIfs.
void Lowerer::SlowIfEither(Cond c, Type t, Operand a, Operand b, Cond c2, Operand x, Operand y,
                           int slow, int bc) {
  EmitEither(BrInstr(c, t, a, b, slow, -1), c2, t, x, y, bc);
}

// `first` (a compare-form branch to its targets[0]) or `x c2 y` (as `t2`, 32 bits or more):
// one either branch to first.targets[0] when decision lower.guard-pair is taken, else two
// branches; either way the code continues in a new block.
void Lowerer::EmitEither(lir::Instr first, Cond c2, Type t2, Operand x, Operand y, int bc) {
  const int slow = first.targets[0];
  if (!Take(decisions_, Decision::kLowerGuardPair, bc)) {
    SlowIf(first.cond, first.cmp_type, first.args[0], first.args[1], slow);
    return SlowIf(c2, t2, x, y, slow);
  }
  EmitEitherBranch(std::move(first), c2, t2, x, y);
}

// EmitEither's one branch, without the decision.
void Lowerer::EmitEitherBranch(lir::Instr first, Cond c2, Type t2, Operand x, Operand y) {
  first.targets[1] = NewBlock();
  first.cond2 = c2;
  first.cmp_type2 = t2;
  first.args.push_back(x);
  first.args.push_back(y);
  cur_ = Emit(std::move(first)).targets[1];
}

// The low bits of i64 `v` as a `t` value.
int Lowerer::Truncate(int v, Type t) {
  lir::Instr trunc;
  trunc.op = lir::Op::kTrunc;
  trunc.dst = out_.NewVReg(t);
  trunc.args = {V(v)};
  return Emit(std::move(trunc)).dst;
}

}  // namespace a64jit::lower::internal
