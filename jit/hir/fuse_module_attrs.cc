// FuseModuleAttrs (fusions.h): `module.attr` where the module is a global. LoadGlobal %g,
// LoadAttr %a = %g (or LoadMethod %null, %a = %g) and Decref %g in a row, %g read by nothing
// else, and the attribute load expected to find a module: its feedback says so, or without
// feedback the global held a module when the function was compiled. Lowered as one
// (LoadModuleForAttr's rule), the hot path never takes a reference to the module: the
// globals hold it for as long as their version tag is the cached one.
#include <algorithm>

#include "jit/hir/fusions.h"

namespace a64jit::hir {
namespace {

bool IsModuleAttr(const Function& f, const std::vector<int>& defs, const std::vector<int>& reads,
                  const Instr& global, const Instr& attr, const Instr& release) {
  const int g = global.dst;
  if (global.op != Op::kLoadGlobal || g < 0 || defs.at(static_cast<size_t>(g)) != 1 ||
      !InGlobals(f.code, global)) {
    return false;
  }
  if ((attr.op != Op::kLoadAttr && attr.op != Op::kLoadMethod) || attr.args[0] != g ||
      !ExpectsModule(attr, GlobalKindOf(f.code, global.imm) == CodeInfo::kGlobalModule) ||
      release.op != Op::kDecref || release.args[0] != g) {
    return false;
  }
  // Read by the attribute load, its error state (which holds the module) and the release.
  const bool in_state =
      attr.has_state && std::count(attr.state.stack.begin(), attr.state.stack.end(), g) == 1;
  return reads.at(static_cast<size_t>(g)) == 2 + (in_state ? 1 : 0);
}

}  // namespace

void FuseModuleAttrs(Function& f, const RegisterCounts& counts, Decisions* d) {
  const std::vector<int>& defs = counts.defs;
  const std::vector<int>& reads = counts.reads;
  for (Block& b : f.blocks) {
    for (size_t i = 0; i + 2 < b.instrs.size(); i++) {
      Instr& global = b.instrs[i];
      if (IsModuleAttr(f, defs, reads, global, b.instrs[i + 1], b.instrs[i + 2]) &&
          Take(d, Decision::kLowerModuleAttrOfGlobal, global.bc)) {
        global.op = Op::kLoadModuleForAttr;
      }
    }
  }
}

}  // namespace a64jit::hir
