#include "jit/lir/symbol.h"

#include <mutex>
#include <unordered_set>

namespace a64jit::lir {

namespace {

// Every name any compile has used, for the process's life: a few hundred helpers and stubs,
// and the functions of parsed LIR. A node set keeps each string where it is as it grows.
// Locked: compiles may run on several threads (each under the GIL today, but LIR tests and
// tools parse without one).
const std::string* Intern(const std::string& name) {
  static std::mutex mu;
  static auto* pool = new std::unordered_set<std::string>();
  std::lock_guard<std::mutex> lock(mu);
  return &*pool->insert(name).first;
}

}  // namespace

Symbol::Symbol(const char* name) : Symbol(std::string(name == nullptr ? "" : name)) {}

Symbol::Symbol(const std::string& name) : name_(name.empty() ? nullptr : Intern(name)) {}

const std::string& Symbol::str() const {
  static const std::string kEmpty;
  return name_ != nullptr ? *name_ : kEmpty;
}

}  // namespace a64jit::lir
