#include "jit/runtime/host_call.h"

namespace a64jit::runtime {

HostCallResult CallHost(uint64_t address, RetKind ret, const uint64_t x[8], const double d[8]) {
  using IntFn =
      uint64_t (*)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                   double, double, double, double, double, double, double, double);
  using DoubleFn =
      double (*)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                 double, double, double, double, double, double, double, double);
  HostCallResult r{0, 0.0};
  if (ret == RetKind::kDouble) {
    auto fn = reinterpret_cast<DoubleFn>(address);
    r.d0 = fn(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], d[0], d[1], d[2], d[3], d[4], d[5],
              d[6], d[7]);
  } else {
    auto fn = reinterpret_cast<IntFn>(address);
    r.x0 = fn(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], d[0], d[1], d[2], d[3], d[4], d[5],
              d[6], d[7]);
  }
  return r;
}

}  // namespace a64jit::runtime
