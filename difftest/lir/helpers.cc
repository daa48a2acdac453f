#include "difftest/lir/helpers.h"

#include <cstring>
#include <map>

#include "emulation/helper_registry.h"

namespace a64jit::difftest {
namespace {

extern "C" int64_t a64jit_h_mix3(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * 31u +
                              (static_cast<uint64_t>(b) ^ (static_cast<uint64_t>(c) >> 3)));
}

extern "C" double a64jit_h_fmix(double a, double b, int64_t c) {
  return a * 0.5 - b + static_cast<double>(c & 1023);
}

// Keeps the bit pattern of every double, so the result shows which register each came from.
extern "C" int64_t a64jit_h_wide(int64_t x0, int64_t x1, int64_t x2, int64_t x3, int64_t x4,
                                 int64_t x5, int64_t x6, int64_t x7, double d0, double d1,
                                 double d2, double d3, double d4, double d5, double d6, double d7) {
  const int64_t xs[8] = {x0, x1, x2, x3, x4, x5, x6, x7};
  const double ds[8] = {d0, d1, d2, d3, d4, d5, d6, d7};
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < 8; i++) {
    uint64_t bits;
    std::memcpy(&bits, &ds[i], sizeof bits);
    h = (h ^ static_cast<uint64_t>(xs[i])) * 1099511628211ull;
    h = (h ^ bits) * 1099511628211ull;
  }
  return static_cast<int64_t>(h);
}

extern "C" void a64jit_h_void(uint64_t* p) { p[1] = p[0] * 3 + 1; }

struct Helper {
  const void* fn;
  emu::HelperSignature sig;
};

const std::map<std::string, Helper>& Helpers() {
  static const std::map<std::string, Helper>* helpers = [] {
    auto* m = new std::map<std::string, Helper>{
        {"h_mix3",
         {reinterpret_cast<const void*>(&a64jit_h_mix3), {"h_mix3", 3, 0, runtime::RetKind::kInt}}},
        {"h_fmix",
         {reinterpret_cast<const void*>(&a64jit_h_fmix), {"h_fmix", 1, 2, runtime::RetKind::kDouble}}},
        {"h_wide",
         {reinterpret_cast<const void*>(&a64jit_h_wide), {"h_wide", 8, 8, runtime::RetKind::kInt}}},
        {"h_void",
         {reinterpret_cast<const void*>(&a64jit_h_void), {"h_void", 1, 0, runtime::RetKind::kVoid}}},
    };
    for (const auto& [name, h] : *m) emu::RegisterHelper(h.fn, h.sig);
    return m;
  }();
  return *helpers;
}

}  // namespace

std::optional<uint64_t> ResolveHelper(const std::string& name) {
  auto it = Helpers().find(name);
  if (it == Helpers().end()) return std::nullopt;
  return reinterpret_cast<uintptr_t>(it->second.fn);
}

}  // namespace a64jit::difftest
