#include "difftest/lir/lir_diff.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "difftest/lir/helpers.h"
#include "emulation/executors.h"
#include "jit/codegen/codegen.h"

namespace a64jit::difftest {
namespace {

constexpr int kLoadsPerExecutor = 200;  // then start afresh, so code memory stays small

std::vector<uint8_t> SeededBuffer(size_t size, uint64_t seed) {
  std::vector<uint8_t> b(size + 16);
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (size_t i = 0; i < b.size(); i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b[i] = static_cast<uint8_t>(x);
  }
  return b;
}

std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

}  // namespace

LirDiff::LirDiff() = default;
LirDiff::~LirDiff() = default;

runtime::Executor& LirDiff::executor() {
  if (!executor_ || loads_ >= kLoadsPerExecutor) {
    runtime::ExecutorOptions options;
    options.instruction_budget = 200'000'000;
    options.time_limit_seconds = 20;
    executor_ = emu::CreateHostExecutor(options);
    loads_ = 0;
  }
  return *executor_;
}

DiffOutcome LirDiff::Check(const lir::Module& module, const DiffInput& input) {
  DiffOutcome out;
  const lir::Function* f = module.Find(input.entry);
  if (f == nullptr) return {DiffOutcome::Kind::kInvalid, "no @" + input.entry, 0, 0, 0};
  const bool takes_memory =
      !f->params.empty() && f->TypeOf(f->params[0]) == lir::Type::kPtr && input.memory_size > 0;
  if (f->params.size() != input.args.size() + (takes_memory ? 1 : 0)) {
    return {DiffOutcome::Kind::kInvalid, "wrong number of arguments", 0, 0, 0};
  }
  std::vector<uint8_t> mem_interp = SeededBuffer(input.memory_size, input.memory_seed);
  std::vector<uint8_t> mem_jit = mem_interp;

  // Reference.
  lir::InterpreterOptions io;
  io.step_budget = input.step_budget;
  const uint64_t mi = reinterpret_cast<uintptr_t>(mem_interp.data());
  io.allowed_memory = {{mi, mi + input.memory_size}};
  std::vector<lir::Value> iargs;
  if (takes_memory) iargs.push_back(lir::Value{mi});
  iargs.insert(iargs.end(), input.args.begin(), input.args.end());
  std::optional<lir::Value> expected;
  lir::Interpreter interpreter(module, &ResolveHelper, io);
  try {
    expected = interpreter.Run(input.entry, iargs);
  } catch (const lir::InterpError& e) {
    return {DiffOutcome::Kind::kInvalid, std::string("interpreter: ") + e.what(), 0, 0, 0};
  }
  out.interpreter_steps = interpreter.steps();

  // Emitted code.
  runtime::Executor& ex = executor();
  ex.set_instruction_budget(64 * input.step_budget + 100000);
  loads_++;
  std::map<std::string, codegen::LoadedFunction> loaded;
  try {
    loaded = codegen::CompileAndLoad(module, ex, &ResolveHelper);
  } catch (const std::exception& e) {
    return {DiffOutcome::Kind::kMismatch, std::string("compile error on valid input: ") + e.what(),
            0, 0, 0};
  }
  for (const auto& [name, fn] : loaded) out.code_bytes += fn.code.bytes.size();
  std::vector<runtime::Arg> jargs;
  if (takes_memory) jargs.push_back(runtime::Arg::Ptr(mem_jit.data()));
  for (size_t i = 0; i < input.args.size(); i++) {
    const int p = f->params[i + (takes_memory ? 1 : 0)];
    jargs.push_back(lir::IsFloat(f->TypeOf(p)) ? runtime::Arg::Double(input.args[i].AsDouble())
                                               : runtime::Arg::Int(input.args[i].bits));
  }
  runtime::CallResult got;
  try {
    got = ex.Call(loaded.at(input.entry).entry, jargs);
  } catch (const std::exception& e) {
    out.kind = DiffOutcome::Kind::kMismatch;
    out.detail = std::string("emitted code failed where the interpreter returned: ") + e.what();
    return out;
  }
  out.guest_instructions = ex.last_call_stats().guest_instructions;
  total_guest_instructions_ += out.guest_instructions;

  if (f->ret) {
    uint64_t bits = got.x0;
    if (lir::IsFloat(*f->ret)) std::memcpy(&bits, &got.d0, sizeof bits);
    if (bits != expected->bits) {
      out.kind = DiffOutcome::Kind::kMismatch;
      out.detail = "result: interpreter " + Hex(expected->bits) + ", emitted code " + Hex(bits);
      return out;
    }
  }
  for (size_t i = 0; i < input.memory_size; i++) {
    if (mem_interp[i] != mem_jit[i]) {
      out.kind = DiffOutcome::Kind::kMismatch;
      out.detail = "memory byte " + std::to_string(i) + ": interpreter " +
                   std::to_string(mem_interp[i]) + ", emitted code " + std::to_string(mem_jit[i]);
      return out;
    }
  }
  return out;
}

}  // namespace a64jit::difftest
