// The functions compiled code calls: a few written here (where 3.11's own are static or
// hidden), the rest straight from libpython. Each is known by the name lowering uses.
#ifndef A64JIT_JIT_PYTHON_HELPERS_H_
#define A64JIT_JIT_PYTHON_HELPERS_H_

#include <cstdint>
#include <optional>
#include <string>

namespace a64jit::python {

// The address of a helper by name, nullopt if unknown.
std::optional<uint64_t> ResolveHelper(const std::string& name);
// Registers every helper's signature with the emulator's registry (needed under Unicorn;
// harmless natively). Idempotent.
void RegisterHelpers();

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_HELPERS_H_
