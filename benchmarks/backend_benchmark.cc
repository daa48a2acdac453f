// Backend throughput. Compile: LIR instructions per second all the way to machine code
// (verify, register allocation, code generation, encoding) over a fixed corpus of
// generated programs. Fuzz: differential programs per second (generate, interpret,
// compile twice, load, run on this host's executor, compare).
#include <benchmark/benchmark.h>

#include <vector>

#include "difftest/lir/generator.h"
#include "difftest/lir/helpers.h"
#include "difftest/lir/lir_diff.h"
#include "jit/codegen/codegen.h"
#include "jit/compiler.h"

namespace {

using a64jit::difftest::GeneratedProgram;

const std::vector<GeneratedProgram>& Corpus() {
  static const std::vector<GeneratedProgram>* corpus = [] {
    auto* c = new std::vector<GeneratedProgram>();
    a64jit::difftest::GenOptions o;
    o.p_long_branch = 0;  // 1 MB of nops would dominate the figure
    for (uint64_t seed = 1; seed <= 100; seed++)
      c->push_back(a64jit::difftest::GenerateProgram(seed, o));
    return c;
  }();
  return *corpus;
}

void BM_CompileLir(benchmark::State& state) {
  a64jit::codegen::CompileOptions options;
  options.base_address = 0x10000;
  // @many is called by address like any helper; where it lives does not change the code.
  options.resolve = [](const std::string& name) -> std::optional<uint64_t> {
    if (name == "many") return 0x7f0000100000;
    return a64jit::difftest::ResolveHelper(name);
  };
  uint64_t instructions = 0, bytes = 0;
  for (auto _ : state) {
    for (const GeneratedProgram& p : Corpus()) {
      for (const a64jit::lir::Function& f : p.module.functions) {
        // The pipeline's back half (jit/compiler.h): verify, allocate, emit.
        a64jit::lir::Verify(f);
        a64jit::codegen::CompiledFunction c = a64jit::compiler::EmitCode(f, options);
        instructions += f.InstrCount();
        bytes += c.bytes.size();
        benchmark::DoNotOptimize(c.bytes.data());
      }
    }
  }
  state.counters["lir_insns"] =
      benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
  state.counters["bytes_per_insn"] = static_cast<double>(bytes) / static_cast<double>(instructions);
}
BENCHMARK(BM_CompileLir)->Unit(benchmark::kMillisecond);

void BM_FuzzPrograms(benchmark::State& state) {
  a64jit::difftest::LirDiff diff;
  uint64_t seed = 1, programs = 0;
  for (auto _ : state) {
    GeneratedProgram p = a64jit::difftest::GenerateProgram(seed++);
    a64jit::difftest::DiffOutcome o = diff.Check(p.module, p.input);
    if (!o.ok()) {
      state.SkipWithError(o.detail.c_str());
      break;
    }
    programs++;
  }
  state.counters["programs"] =
      benchmark::Counter(static_cast<double>(programs), benchmark::Counter::kIsRate);
  state.SetLabel(diff.mode());
}
BENCHMARK(BM_FuzzPrograms)->Unit(benchmark::kMicrosecond);

}  // namespace
