// The LIR reference interpreter: the oracle emitted code is compared against, bit for bit.
// It implements the semantics documented in lir.h, including aarch64's NaN rules, and
// calls the same host helpers the emitted code calls.
#ifndef A64JIT_JIT_LIR_INTERPRETER_H_
#define A64JIT_JIT_LIR_INTERPRETER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "jit/lir/lir.h"

namespace a64jit::lir {

class InterpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A value as the interpreter holds it: integer bits (zero above the type's width) or the
// bits of an f64.
struct Value {
  uint64_t bits = 0;
  static Value Int(uint64_t v) { return Value{v}; }
  static Value Double(double d);
  double AsDouble() const;
};

// Resolves a call target that is not a function of the module to a host address.
using Resolver = std::function<std::optional<uint64_t>(const std::string& name)>;

struct InterpreterOptions {
  uint64_t step_budget = 100'000'000;  // instructions per Run
  int max_call_depth = 1000;
  // When non-empty, loads and stores must fall in one of these [begin, end) ranges or in a
  // stack slot of an active frame; anything else is an InterpError, not a host crash.
  std::vector<std::pair<uint64_t, uint64_t>> allowed_memory;
};

class Interpreter {
 public:
  Interpreter(const Module& module, Resolver resolver, InterpreterOptions options = {});
  // Runs function `name`; `args` are bit patterns in parameter order (f64 as its bits).
  // Returns the result (zero-extended for iN), or nullopt for a void function.
  std::optional<Value> Run(const std::string& name, const std::vector<Value>& args);
  uint64_t steps() const { return steps_; }

 private:
  struct Frame;
  std::optional<Value> Call(const Function& f, const std::vector<Value>& args, int depth);
  Value Eval(const Function& f, Frame& frame, const Instr& in, int depth);
  std::optional<Value> ExecCall(const Function& f, Frame& frame, const Instr& in, int depth);
  Value CallHelper(const Function& f, const Frame& frame, const Instr& in);
  uint64_t Address(const Frame& frame, const Instr& in, size_t width) const;

  const Module& module_;
  Resolver resolver_;
  InterpreterOptions options_;
  uint64_t steps_ = 0;
};

// aarch64 floating-point semantics, shared with tests: results of fadd/fsub/fmul/fdiv with
// aarch64's NaN propagation (FPCR.DN = 0).
double ArmFAdd(double a, double b);
double ArmFSub(double a, double b);
double ArmFMul(double a, double b);
double ArmFDiv(double a, double b);
// fcvtzs to a 32- or 64-bit register: saturating, NaN -> 0.
int64_t ArmFToSI(double d, int bits);

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_INTERPRETER_H_
