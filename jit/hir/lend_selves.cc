// LendSelves (passes.h): `text.startswith(p)`, `d.get(k)`, `out.append(x)` with the object in a
// local. LOAD_METHOD gives the call [method, self] with a reference to self, and lowering's inline
// C call (a method descriptor, list.append) releases it after the call: an incref and a decref
// that the local's own reference makes unnecessary, as for the arguments InsertRefcounts lends.
//
// Unlike an argument, self's register is lent only on one of LOAD_METHOD's two shapes: [NULL,
// attribute] (an attribute of the instance, a module's function) gives the attribute, a new
// reference. So the mark (Instr::lent_self) is on both instructions, and says "self has no
// reference of its own when the method is not NULL". Lowering's LoadMethod does not take one on
// the method shape (and gives back the one its helpers take); the inline method calls, which only
// run on that shape, release none; every other path of the Call takes one first where the method
// is not NULL.
//
// Only where nothing between the two instructions can see self: it is read by the Call alone and
// in no frame state (a deopt hands state values to the interpreter as owned), and the local is
// not stored to before the Call (its reference is the one keeping self alive). Only for the known
// inline method calls: at another site the Call's generic path would take the reference back
// with a test, a few instructions more than LOAD_METHOD's incref.
#include <map>

#include "jit/hir/known_calls.h"
#include "jit/hir/passes.h"

namespace a64jit::hir {

namespace {

struct LocalValue {
  size_t at;      // the LoadLocal's index in its block
  int64_t local;  // the local it read
};

struct LoadedMethod {
  size_t at;          // the LoadMethod's index in its block
  LocalValue object;  // where its object came from
};

// Whether `local` keeps its value from instruction `from` until `to`, `to` included.
bool Unstored(const Block& b, size_t from, size_t to, int64_t local) {
  for (size_t i = from + 1; i <= to; i++) {
    if (WritesLocal(b.instrs[i], local)) return false;
  }
  return true;
}

}  // namespace

void LendSelves(Function& f, Decisions* d) {
  const KnownCallSites known(f);
  const std::vector<int> uses = f.UseCounts();
  for (Block& b : f.blocks) {
    std::map<int, LocalValue> local_of;   // registers LoadLocal set in this block
    std::map<int, LoadedMethod> self_of;  // a LoadMethod's self register, of such an object
    for (size_t i = 0; i < b.instrs.size(); i++) {
      Instr& in = b.instrs[i];
      if (in.op == Op::kLoadLocal && in.dst >= 0) local_of[in.dst] = {i, in.imm};
      if (in.op == Op::kLoadMethod && in.dst2 >= 0) {
        auto l = local_of.find(in.args[0]);
        if (l != local_of.end()) self_of[in.dst2] = {i, l->second};
      }
      if (in.op != Op::kCall || in.args.size() < 2) continue;
      const KnownCall call = known.Of(in);
      if (call != KnownCall::kMethodDescriptor && call != KnownCall::kListAppend) continue;
      auto s = self_of.find(in.args[1]);
      if (s == self_of.end()) continue;
      Instr& load = b.instrs[s->second.at];
      // Read by this Call alone (UseCounts counts frame states too)
      if (load.dst != in.args[0] || uses[static_cast<size_t>(in.args[1])] != 1) continue;
      if (!Unstored(b, s->second.object.at, i, s->second.object.local)) continue;
      if (!Take(d, Decision::kHirLentOperand, in.bc)) continue;
      load.lent_self = true;
      in.lent_self = true;
    }
  }
}

}  // namespace a64jit::hir
