// Where and why compiled code gave up, per site: the exits to the interpreter (deopts), the
// exceptions that left a compiled frame, and the inline-cache guards that failed and sent a
// call to its generic path without leaving compiled code. What `a64jit.get_deopt_stats()`
// returns and `a64jit-run --stats` lists. Everything runs holding the GIL.
#ifndef A64JIT_JIT_PYTHON_DEOPT_STATS_H_
#define A64JIT_JIT_PYTHON_DEOPT_STATS_H_

#include <Python.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jit/lower/deopt_reason.h"

namespace a64jit::python {

// How compiled code went on after the event.
enum class DeoptExit : uint8_t {
  kInterpreter,  // the interpreter took the frame over at the site
  kUnwound,      // an exception left the function without the interpreter
  kGenericPath,  // a cache guard failed; compiled code called the generic helper
};
const char* DeoptExitName(DeoptExit exit);

// One site, one reason, one guilty type.
struct DeoptEntry {
  std::string function;  // module:qualname
  int line = -1;
  int offset = -1;     // bytecode offset of the instruction
  std::string opcode;  // its (unspecialised) name
  std::string reason;
  std::string type;  // the guilty type: the exception's, the receiver's; "" when none
  DeoptExit exit = DeoptExit::kInterpreter;
  int64_t count = 0;
};

// Counts one event at code unit `bc` of `code`, compiled as `function` (which lives as long
// as the compiled code). `type` may be nullptr; the statistics keep its name only.
void RecordDeopt(const std::string* function, PyCodeObject* code, int bc, lower::DeoptReason reason,
                 PyTypeObject* type, DeoptExit exit);
// The cache a compiled site checks, so that a guard failure the helper sees is counted
// against the site; forgotten again when the function is not compiled after all.
void RegisterCacheSite(const void* cache, const std::string* function, PyCodeObject* code, int bc);
void ForgetCacheSite(const void* cache);
// A cache guard failed for an object of `type` at the site of `cache` (no-op when the cache
// belongs to no compiled site).
void RecordGuardMiss(const void* cache, PyTypeObject* type);

// How many keys the statistics hold (a site, reason, exit, type address and name each), before
// DeoptEntries adds up same-named types: bounded by the sites and the types they saw, however
// often those types change.
size_t DeoptKeyCount();
// How many events and guard misses their memos did not hold (found in the map, or new).
int64_t DeoptMemoMisses();
// The memo set of a guard miss at `cache` for `type` (for tests that make keys share one).
size_t DeoptMemoSet(const void* cache, const PyTypeObject* type);
// Every entry, most frequent first.
std::vector<DeoptEntry> DeoptEntries();
void ClearDeoptStats();
// The `top` most frequent entries, one line each (for --stats).
std::string DeoptSummary(size_t top);
// A JSON array of every entry.
nlohmann::ordered_json DeoptJson();

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_DEOPT_STATS_H_
