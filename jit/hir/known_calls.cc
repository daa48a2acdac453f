#include "jit/hir/known_calls.h"

namespace a64jit::hir {

KnownCallSites::KnownCallSites(const Function& f, const std::vector<int>& defs) : f_(f) {
  const auto once = [&](int reg) { return defs.at(static_cast<size_t>(reg)) == 1; };
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (Unfused(in.op) == Op::kLoadGlobal && in.dst >= 0)
        loaders_[in.dst] = Loader{false, in.imm};
      if (in.op == Op::kLoadMethod && in.dst >= 0) {
        loaders_[in.dst] = Loader{true, in.imm, in.dst2};
      }
      if (in.op == Op::kLoadNull && in.dst >= 0) null_defs_[in.dst] = 0;
    }
  }
  // A register defined more than once (a stack register s_k, which joins values from several
  // blocks) says nothing about what it holds.
  for (auto it = loaders_.begin(); it != loaders_.end();) {
    const bool single = once(it->first) && (it->second.self < 0 || once(it->second.self));
    it = single ? std::next(it) : loaders_.erase(it);
  }
  for (auto& [reg, count] : null_defs_) count = defs.at(static_cast<size_t>(reg));
}

std::optional<bool> KnownCallSites::MethodShape(const Instr& call) const {
  if (call.op != Op::kCall || call.kwnames >= 0 || call.args.size() < 2) return std::nullopt;
  auto null = null_defs_.find(call.args[0]);
  return !(null != null_defs_.end() && null->second == 1);
}

const std::string* KnownCallSites::LoadedName(const Instr& call, bool method) const {
  auto loader = loaders_.find(method ? call.args[0] : call.args[1]);
  if (loader == loaders_.end() || loader->second.method != method) return nullptr;
  if (method && loader->second.self != call.args[1]) return nullptr;
  return &f_.code.names.at(static_cast<size_t>(loader->second.name));
}

KnownCall KnownCallSites::Of(const Instr& call) const {
  const std::optional<bool> shape = MethodShape(call);
  if (!shape) return KnownCall::kNone;
  const bool method = *shape;
  const KnownCall named = ByName(call, method);
  if (named != KnownCall::kNone || call.imm > 2) return named;
  // What the interpreter specialised the site to: only a hint as well (the inline paths guard
  // the cached callable), but one that the site's own calls gave.
  if (method && call.feedback == Feedback::kMethodDescriptor) return KnownCall::kMethodDescriptor;
  // Not for LOAD_METHOD's [NULL, function] pair (`math.sqrt(x)`): the inline path would add
  // about 217 bytes a site where such calls are dense (benchmarks/code_size's sqrt200).
  if (!method && call.feedback == Feedback::kCFunction) return KnownCall::kCFunction;
  return KnownCall::kNone;
}

bool KnownCallSites::CallsName(const Instr& call, const std::string& name, bool method) const {
  if (MethodShape(call) != method) return false;
  const std::string* loaded = LoadedName(call, method);
  return loaded != nullptr && *loaded == name;
}

KnownCall KnownCallSites::ByName(const Instr& call, bool method) const {
  const std::string* loaded = LoadedName(call, method);
  if (loaded == nullptr) return KnownCall::kNone;
  const std::string& name = *loaded;
  for (const KnownCallRule& rule : kKnownCallRules) {
    if (rule.method == method && rule.argc == call.imm && name == rule.name) return rule.call;
  }
  if (method && call.imm <= 2 && call.feedback == Feedback::kNone) {
    for (const char* hint : kBuiltinMethodNames) {
      if (name == hint) return KnownCall::kMethodDescriptor;
    }
  }
  return KnownCall::kNone;
}

}  // namespace a64jit::hir
