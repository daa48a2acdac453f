// A snapshot of this process's memory map (/proc/self/maps): which addresses the host has
// mapped and with what protection. The Unicorn executor maps host memory into the guest
// only where this says the host has it.
#ifndef A64JIT_EMULATION_HOST_MAPS_H_
#define A64JIT_EMULATION_HOST_MAPS_H_

#include <cstdint>
#include <optional>
#include <vector>

namespace a64jit::emu {

struct HostRegion {
  uint64_t begin, end;
  bool read, write, exec;
};

class HostMaps {
 public:
  // Re-reads /proc/self/maps.
  void Refresh();
  std::optional<HostRegion> Find(uint64_t address) const;

 private:
  std::vector<HostRegion> regions_;  // sorted by begin
};

}  // namespace a64jit::emu

#endif  // A64JIT_EMULATION_HOST_MAPS_H_
