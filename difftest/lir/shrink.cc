#include "difftest/lir/shrink.h"

#include <vector>

#include "jit/lir/jump_threading.h"

namespace a64jit::difftest {
namespace {

using lir::Instr;
using lir::Op;
using lir::Operand;

lir::Function* FindMutable(lir::Module& m, const std::string& name) {
  for (lir::Function& f : m.functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool IsUsed(const lir::Function& f, int vreg) {
  auto uses = [&](const Operand& o) { return o.is_vreg() && o.vreg == vreg; };
  for (const lir::Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      for (const Operand& o : in.args) {
        if (uses(o)) return true;
      }
      if (uses(in.base) || uses(in.index)) return true;
    }
  }
  return false;
}

bool Valid(const lir::Module& m) {
  try {
    for (const lir::Function& f : m.functions) lir::Verify(f);
    return true;
  } catch (const lir::VerifyError&) {
    return false;
  }
}

}  // namespace

lir::Module Shrink(lir::Module module, const std::string& function,
                   const std::function<bool(const lir::Module&)>& still_fails, int max_attempts) {
  int attempts = 0;
  auto try_change = [&](const lir::Module& candidate) {
    if (attempts >= max_attempts || !Valid(candidate)) return false;
    attempts++;
    return still_fails(candidate);
  };
  for (bool progress = true; progress && attempts < max_attempts;) {
    progress = false;
    // `module` is replaced by each accepted candidate, so look the function up afresh
    // every time instead of holding a pointer into an old module.
    const size_t blocks = FindMutable(module, function)->blocks.size();
    for (size_t b = blocks; b-- > 0;) {
      for (size_t i = FindMutable(module, function)->blocks[b].instrs.size(); i-- > 0;) {
        lir::Function* f = FindMutable(module, function);
        if (i >= f->blocks[b].instrs.size()) continue;
        const Instr in = f->blocks[b].instrs[i];
        if (in.op == Op::kBr) {
          for (int t : {0, 1}) {
            lir::Module c = module;
            Instr& j = FindMutable(c, function)->blocks[b].instrs[i];
            j = Instr{};
            j.op = Op::kJmp;
            j.targets[0] = in.targets[t];
            if (try_change(c)) {
              module = std::move(c);
              progress = true;
              break;
            }
          }
          continue;
        }
        if (lir::IsTerminator(in.op)) continue;
        // Delete it outright if nothing reads its result.
        if (in.dst < 0 || !IsUsed(*f, in.dst)) {
          lir::Module c = module;
          auto& instrs = FindMutable(c, function)->blocks[b].instrs;
          instrs.erase(instrs.begin() + static_cast<long>(i));
          if (try_change(c)) {
            module = std::move(c);
            progress = true;
            continue;
          }
        }
        // Otherwise replace it by a constant.
        const bool is_const_mov =
            in.op == Op::kMov && (in.args[0].is_imm() || in.args[0].is_fimm());
        if (in.dst >= 0 && !is_const_mov) {
          lir::Module c = module;
          lir::Function* cf = FindMutable(c, function);
          Instr& r = cf->blocks[b].instrs[i];
          const bool fp = lir::IsFloat(cf->TypeOf(in.dst));
          r = Instr{};
          r.op = Op::kMov;
          r.dst = in.dst;
          r.args = {fp ? Operand::FImm(0.0) : Operand::Imm(0)};
          if (try_change(c)) {
            module = std::move(c);
            progress = true;
          }
        }
      }
    }
  }
  // Branches made jumps leave blocks nothing reaches (an arm's early `ret`, say).
  lir::Module trimmed = module;
  lir::RemoveUnreachableBlocks(*FindMutable(trimmed, function));
  if (Valid(trimmed) && still_fails(trimmed)) return trimmed;
  return module;
}

}  // namespace a64jit::difftest
