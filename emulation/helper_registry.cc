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

const HelperSignature* LookupHelper(uint64_t address) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  auto it = Registry().find(address);
  return it == Registry().end() ? nullptr : &it->second;
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

}  // namespace a64jit::emu
