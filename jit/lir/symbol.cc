#include "jit/lir/symbol.h"

#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

namespace a64jit::lir {

namespace {

// Every name any compile has used, for the process's life: a few hundred helpers and stubs,
// and the functions of parsed LIR. Keyed by views of the strings it owns, so that a lookup
// by a helper's literal name allocates nothing; each string stays where it is as the map
// grows. Locked: compiles may run on several threads (each under the GIL today, but LIR
// tests and tools parse without one).
const std::string* Intern(std::string_view name) {
  static std::mutex mu;
  static auto* pool = new std::unordered_map<std::string_view, std::unique_ptr<std::string>>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = pool->find(name);
  if (it != pool->end()) return it->second.get();
  auto owned = std::make_unique<std::string>(name);
  const std::string* at = owned.get();
  pool->emplace(std::string_view(*at), std::move(owned));
  return at;
}

}  // namespace

Symbol::Symbol(const char* name)
    : name_(name == nullptr || *name == '\0' ? nullptr : Intern(name)) {}

Symbol::Symbol(const std::string& name) : name_(name.empty() ? nullptr : Intern(name)) {}

const std::string& Symbol::str() const {
  static const std::string kEmpty;
  return name_ != nullptr ? *name_ : kEmpty;
}

}  // namespace a64jit::lir
