#include "emulation/helper_registry.h"

#include <dlfcn.h>

#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace a64jit::emu {
namespace {

std::mutex& RegistryMutex() {
  static std::mutex mu;
  return mu;
}

std::unordered_map<uint64_t, HelperSignature>& Registry() {
  static auto* registry = new std::unordered_map<uint64_t, HelperSignature>();
  return *registry;
}

}  // namespace

void RegisterHelper(const void* fn, HelperSignature signature) {
  if (signature.int_args < 0 || signature.int_args > 8 || signature.double_args < 0 ||
      signature.double_args > 8) {
    throw std::invalid_argument("helper '" + signature.name +
                                "': host helpers take at most 8 integer and 8 double arguments");
  }
  std::lock_guard<std::mutex> lock(RegistryMutex());
  Registry()[reinterpret_cast<uintptr_t>(fn)] = std::move(signature);
}

std::optional<HelperSignature> LookupHelper(uint64_t address) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  auto it = Registry().find(address);
  if (it == Registry().end()) return std::nullopt;
  return it->second;
}

std::string DescribeHostAddress(uint64_t address) {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(address), &info) == 0) return "";
  char buf[512];
  if (info.dli_sname != nullptr) {
    std::snprintf(
        buf, sizeof buf, "%s+0x%llx (%s)", info.dli_sname,
        static_cast<unsigned long long>(address - reinterpret_cast<uintptr_t>(info.dli_saddr)),
        info.dli_fname ? info.dli_fname : "?");
  } else {
    std::snprintf(
        buf, sizeof buf, "%s+0x%llx", info.dli_fname ? info.dli_fname : "?",
        static_cast<unsigned long long>(address - reinterpret_cast<uintptr_t>(info.dli_fbase)));
  }
  return buf;
}

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

}  // namespace a64jit::emu
