// The tiering policy that `--threshold=auto` (the default) applies: which hot functions are
// worth compiling now, given what compiling costs on this machine. Apart from CPython, so
// that tiering_test checks its arithmetic.
//
// A function qualifies when it has proven hot: `min_calls` calls, or, for a function with a
// loop, interpreted runs that took as long as compiling it is expected to take (a rent-or-buy
// rule: the time spent interpreting it pays for the compile). Compiling is expected to cost
// the function's size in code units times this process's own compile time per unit, which the
// budget learns from every compile after the first (a seed until then). QEMU makes compiling
// about twenty times slower than the host, and the figure follows.
//
// A hot function is compiled only while the compile budget allows: all compiles together
// may take `budget_share` of the time since the JIT was enabled, plus `allowance_ns`. Past
// it, the function waits (it keeps its hotness) and asks again `recheck_calls` calls later.
// A short program thus spends at most about that share of its time compiling, and a long one
// compiles everything hot as its budget grows.
#ifndef A64JIT_JIT_PYTHON_TIERING_H_
#define A64JIT_JIT_PYTHON_TIERING_H_

#include <cstdint>

namespace a64jit::python {

struct TieringParams {
  int64_t min_calls = 1000;
  double budget_share = 0.10;  // 0: no budget
  int64_t allowance_ns = 5'000'000;
  int64_t seed_ns_per_unit = 2'000;
  int64_t recheck_calls = 64;
};

class CompileBudget {
 public:
  explicit CompileBudget(const TieringParams& params = {}) : params_(params) {}
  void Start(int64_t now_ns) {
    start_ns_ = now_ns;
    started_ = true;
  }
  bool started() const { return started_; }
  // What compiling a function of `units` code units is expected to take, in ns.
  int64_t ExpectedCostNs(int64_t units) const;
  // Whether a compile expected to take `cost_ns` fits the budget at `now_ns`.
  bool Allows(int64_t now_ns, int64_t cost_ns) const;
  // A compile of `units` code units that took `ns` (failed compiles count too: they cost).
  void Record(int64_t units, int64_t ns);
  int64_t spent_ns() const { return spent_ns_; }
  const TieringParams& params() const { return params_; }

 private:
  TieringParams params_;
  int64_t start_ns_ = 0;
  bool started_ = false;
  int64_t spent_ns_ = 0;
  // What the estimate learns from: compiles after the first, which under QEMU also pays for
  // translating the compiler itself (56 ms for one function, against 2 ms for the next).
  int64_t compiles_ = 0;
  int64_t learned_ns_ = 0;
  int64_t learned_units_ = 0;
};

// Whether a function is hot enough to compile under the policy: `calls` interpreted calls so
// far, and for a function with a loop its interpreted time `interpreted_ns`, against the
// expected cost of compiling it and the hot-loop floor (Config::hot_loop_us).
// CLOCK_MONOTONIC in ns.
int64_t MonotonicNs();

bool ProvenHot(const TieringParams& params, int64_t calls, bool has_loop, int64_t interpreted_ns,
               int64_t expected_cost_ns, int64_t hot_loop_ns);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_TIERING_H_
