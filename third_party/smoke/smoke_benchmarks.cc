// Smoke benchmarks: prove Google Benchmark builds and runs in both configurations. They time
// the asmjit encoder and one call of the snippet on this host's executor; under Unicorn the
// second is emulation overhead, not aarch64 speed.
#include <benchmark/benchmark.h>

#include "third_party/smoke/add_snippet.h"

namespace a64jit::smoke {
namespace {

void BM_AssembleAddRet(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(AssembleAddRet());
  }
}
BENCHMARK(BM_AssembleAddRet);

void BM_RunAddOnThisHost(benchmark::State& state) {
  const std::vector<uint8_t> code = AssembleAddRet();
  const char* mode = "";
  for (auto _ : state) {
    RunResult r = RunOnThisHost(code, 40, 2);
    if (r.value != 42) {
      state.SkipWithError("snippet did not return 42");
      break;
    }
    mode = r.mode;
  }
  state.SetLabel(mode);
}
BENCHMARK(BM_RunAddOnThisHost);

}  // namespace
}  // namespace a64jit::smoke
