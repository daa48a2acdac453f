#include "jit/python/tiering.h"

#include <time.h>

#include <algorithm>

namespace a64jit::python {

int64_t CompileBudget::ExpectedCostNs(int64_t units) const {
  const int64_t per_unit =
      learned_units_ > 0 ? learned_ns_ / learned_units_ : params_.seed_ns_per_unit;
  return std::max<int64_t>(units, 1) * per_unit;
}

bool CompileBudget::Allows(int64_t now_ns, int64_t cost_ns) const {
  if (params_.budget_share <= 0) return true;
  const double elapsed = static_cast<double>(std::max<int64_t>(now_ns - start_ns_, 0));
  const double budget = params_.budget_share * elapsed + static_cast<double>(params_.allowance_ns);
  return static_cast<double>(spent_ns_ + cost_ns) <= budget;
}

void CompileBudget::Record(int64_t units, int64_t ns) {
  ns = std::max<int64_t>(ns, 0);
  spent_ns_ += ns;
  if (compiles_++ == 0) return;
  learned_units_ += std::max<int64_t>(units, 1);
  learned_ns_ += ns;
}

int64_t MonotonicNs() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t{t.tv_sec} * 1000000000 + t.tv_nsec;
}

bool ProvenHot(const TieringParams& params, int64_t calls, bool has_loop, int64_t interpreted_ns,
               int64_t expected_cost_ns, int64_t hot_loop_ns) {
  if (calls >= params.min_calls) return true;
  return has_loop && hot_loop_ns > 0 && interpreted_ns >= std::max(expected_cost_ns, hot_loop_ns);
}

}  // namespace a64jit::python
