// The layout facts used, from Unicorn 2.0.1's sources (include/uc_priv.h,
// qemu/include/hw/core/cpu.h, qemu/target/arm/cpu64.c):
// - uc_struct holds reg_read, reg_write and reg_reset as three consecutive function
//   pointers (set to the exported arm64_reg_read_aarch64 and friends), and `cpu` 31 words
//   after reg_read (28 further function pointers lie between);
// - the CPU (ARMCPU, one calloc per engine) starts with CPUState and holds CPUARMState
//   (the registers) and the CPUClass in the same allocation.
#include "emulation/unicorn_layout.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include "emulation/host_maps.h"

namespace a64jit::emu {
namespace {

constexpr size_t kUcScanWords = 128;    // where uc_struct's function pointers are
constexpr size_t kCpuFromRegRead = 31;  // words from uc_struct::reg_read to ::cpu

struct RegisterAccessors {
  const void* read = dlsym(RTLD_DEFAULT, "arm64_reg_read_aarch64");
  const void* write = dlsym(RTLD_DEFAULT, "arm64_reg_write_aarch64");
  const void* reset = dlsym(RTLD_DEFAULT, "arm64_reg_reset_aarch64");
};

const RegisterAccessors& Accessors() {
  static const RegisterAccessors accessors;
  return accessors;
}

}  // namespace

bool KnobSet(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::strcmp(value, "1") == 0;
}

size_t KnobNumber(const char* name, size_t least, size_t most, size_t otherwise) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == 0) return otherwise;
  char* end = nullptr;
  const unsigned long n = std::strtoul(value, &end, 10);
  if (*end != 0 || n < least || n > most) {
    throw std::invalid_argument(std::string(name) + "=" + value + ": want a number from " +
                                std::to_string(least) + " to " + std::to_string(most));
  }
  return static_cast<size_t>(n);
}

bool IsCheckedUnicornRelease() {
  unsigned int major = 0, minor = 0;
  uc_version(&major, &minor);
  return major == 2 && minor == 0;
}

void* FindUnicornCpu(uc_engine* uc) {
  const RegisterAccessors& a = Accessors();
  if (!IsCheckedUnicornRelease() || !a.read || !a.write || !a.reset) return nullptr;
  auto* words = reinterpret_cast<const void* const*>(uc);
  std::optional<size_t> at;
  for (size_t i = 0; i + 2 < kUcScanWords; i++) {
    if (words[i] != a.read || words[i + 1] != a.write || words[i + 2] != a.reset) continue;
    if (at) return nullptr;  // more than one: not the layout that was checked
    at = i;
  }
  if (!at) return nullptr;
  return const_cast<void*>(words[*at + kCpuFromRegRead]);
}

size_t ReadableBytesFrom(uint64_t address) {
  HostMaps maps;
  maps.Refresh();
  const std::optional<HostRegion> r = maps.Find(address);
  return r && r->read ? r->end - address : 0;
}

}  // namespace a64jit::emu
