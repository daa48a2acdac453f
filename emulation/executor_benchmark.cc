// Executor benchmarks. Under Unicorn (x86-64 host) these measure emulation, not aarch64
// speed: guest instructions per second in a tight loop, and the cost of a guest -> host ->
// guest round trip. Natively they measure the direct path (instructions are not counted).
#include <asmjit/arm/a64assembler.h>
#include <asmjit/core.h>
#include <benchmark/benchmark.h>

#include "emulation/executors.h"
#include "jit/runtime/executor.h"
#include "emulation/helper_registry.h"

namespace a64jit::emu {
namespace {

using runtime::Arg;

using namespace asmjit::a64;  // NOLINT: register names

template <typename Body>
const uint8_t* LoadSnippet(Executor& ex, Body&& body) {
  asmjit::CodeHolder code;
  code.init(asmjit::Environment(asmjit::Arch::kAArch64));
  Assembler a(&code);
  body(a);
  code.flatten();
  code.resolveUnresolvedLinks();
  asmjit::Section* text = code.textSection();
  return ex.Load(text->data(), text->bufferSize());
}

void SetModeLabel(benchmark::State& state, const Executor& ex) {
  state.SetLabel(ExecModeName(ex.mode()));
}

// x0 iterations of a 4-instruction loop body.
void BM_TightLoop(benchmark::State& state) {
  auto ex = CreateHostExecutor();
  const uint8_t* fn = LoadSnippet(*ex, [](Assembler& a) {
    asmjit::Label loop = a.newLabel();
    a.mov(x1, 0);
    a.bind(loop);
    a.add(x1, x1, x0);
    a.eor(x1, x1, x0, asmjit::arm::lsl(3));
    a.subs(x0, x0, 1);
    a.b_ne(loop);
    a.mov(x0, x1);
    a.ret(x30);
  });
  const uint64_t iterations = static_cast<uint64_t>(state.range(0));
  uint64_t instructions = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ex->CallInt(fn, {Arg::Int(iterations)}));
    instructions += ex->last_call_stats().guest_instructions;
  }
  state.counters["guest_insns"] =
      benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
  SetModeLabel(state, *ex);
}
BENCHMARK(BM_TightLoop)->Arg(1 << 20);

Executor* g_ex = nullptr;
const uint8_t* g_leaf = nullptr;
extern "C" uint64_t BenchReenter(uint64_t v) { return g_ex->CallInt(g_leaf, {Arg::Int(v)}); }

// One outer call makes x0 guest -> host -> guest round trips; reported per round trip.
void BM_GuestHostGuestRoundTrip(benchmark::State& state) {
  auto ex = CreateHostExecutor();
  RegisterHelper(reinterpret_cast<const void*>(&BenchReenter),
                 {"BenchReenter", 1, 0, RetKind::kInt});
  g_ex = ex.get();
  g_leaf = LoadSnippet(*ex, [](Assembler& a) {
    a.add(x0, x0, 1);
    a.ret(x30);
  });
  const uint8_t* outer = LoadSnippet(*ex, [](Assembler& a) {
    asmjit::Label loop = a.newLabel();
    a.stp(x29, x30, ptr_pre(sp, -32));
    a.stp(x19, x20, ptr(sp, 16));
    a.mov(x19, x0);
    a.mov(x20, 0);
    a.bind(loop);
    a.mov(x0, x20);
    a.mov(x16, reinterpret_cast<uint64_t>(&BenchReenter));
    a.blr(x16);
    a.mov(x20, x0);
    a.subs(x19, x19, 1);
    a.b_ne(loop);
    a.mov(x0, x20);
    a.ldp(x19, x20, ptr(sp, 16));
    a.ldp(x29, x30, ptr_post(sp, 32));
    a.ret(x30);
  });
  const int64_t trips = state.range(0);
  for (auto _ : state) {
    if (ex->CallInt(outer, {Arg::Int(static_cast<uint64_t>(trips))}) !=
        static_cast<uint64_t>(trips)) {
      state.SkipWithError("wrong result");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations() * trips);
  SetModeLabel(state, *ex);
}
BENCHMARK(BM_GuestHostGuestRoundTrip)->Arg(1000);

// The fixed cost of one outermost call of an empty function.
void BM_OutermostCall(benchmark::State& state) {
  auto ex = CreateHostExecutor();
  const uint8_t* fn = LoadSnippet(*ex, [](Assembler& a) { a.ret(x30); });
  for (auto _ : state) benchmark::DoNotOptimize(ex->CallInt(fn, {}));
  SetModeLabel(state, *ex);
}
BENCHMARK(BM_OutermostCall);

}  // namespace
}  // namespace a64jit::emu
