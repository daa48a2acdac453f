// Oracle 1: the LIR interpreter against emitted code, bit for bit. A module's entry
// function is run by the interpreter and, compiled, by this host's executor (Unicorn on
// x86-64, native on aarch64); the results and the memory each side wrote are compared.
#ifndef A64JIT_DIFFTEST_LIR_LIR_DIFF_H_
#define A64JIT_DIFFTEST_LIR_LIR_DIFF_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jit/runtime/executor.h"
#include "jit/lir/interpreter.h"
#include "jit/lir/lir.h"

namespace a64jit::difftest {

struct DiffInput {
  std::string entry = "f";
  // Arguments after the first; if the entry's first parameter is a ptr it receives a
  // buffer of `memory_size` bytes filled from `memory_seed` (a different buffer per side,
  // same contents), so results must not depend on its address.
  std::vector<lir::Value> args;
  size_t memory_size = 0;
  uint64_t memory_seed = 1;
  // Interpreter steps allowed; the emitted code gets 64 machine instructions per step.
  uint64_t step_budget = 20'000'000;
};

struct DiffOutcome {
  enum class Kind { kMatch, kMismatch, kInvalid } kind = Kind::kMatch;
  std::string detail;               // what differed, or why the input is invalid
  uint64_t guest_instructions = 0;  // Unicorn's count for the emitted code (0 natively)
  uint64_t interpreter_steps = 0;
  size_t code_bytes = 0;
  bool ok() const { return kind == Kind::kMatch; }
};

class LirDiff {
 public:
  LirDiff();
  ~LirDiff();
  DiffOutcome Check(const lir::Module& module, const DiffInput& input);
  runtime::Executor& executor();
  uint64_t total_guest_instructions() const { return total_guest_instructions_; }
  const char* mode() { return runtime::ExecModeName(executor().mode()); }

 private:
  std::unique_ptr<runtime::Executor> executor_;
  int loads_ = 0;
  uint64_t total_guest_instructions_ = 0;
};

}  // namespace a64jit::difftest

#endif  // A64JIT_DIFFTEST_LIR_LIR_DIFF_H_
