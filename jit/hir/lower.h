// HIR -> LIR. The LIR function is `ptr @name(ptr tstate, ptr frame)` and returns the
// function's result (a new reference), or a deopt code after writing the value stack and
// prev_instr into the frame:
//   kDeoptError  (1): an exception is set; resume the interpreter with throwflag = 1
//   kDeoptResume (2): resume the interpreter at prev_instr + 1 with throwflag = 0
// Operations are calls into libpython or small helpers, by name: the runtime resolves them
// (jit/python/helpers.cc; a name it does not know is a compile error, never a bad call);
// reference counting, truth tests of bools and None, and identity tests are inline.
#ifndef A64JIT_JIT_HIR_LOWER_H_
#define A64JIT_JIT_HIR_LOWER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "jit/hir/hir.h"
#include "jit/hir/site_cache.h"
#include "jit/lir/lir.h"

namespace a64jit::hir {

constexpr uint64_t kDeoptError = 1;
constexpr uint64_t kDeoptResume = 2;

// Addresses the generated code embeds. The code object keeps all of them alive.
struct RuntimeAddresses {
  // A new zeroed SiteCache that lives as long as the compiled code; nullptr: no caches.
  std::function<SiteCache*()> new_site_cache;
  std::vector<uint64_t> consts;  // co_consts items
  std::vector<uint64_t> names;   // co_names items
  uint64_t first_instr = 0;      // _PyCode_CODE(code)
  uint64_t py_true = 0, py_false = 0, py_none = 0;
};

lir::Function Lower(const Function& f, const RuntimeAddresses& rt, const std::string& name);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_LOWER_H_
