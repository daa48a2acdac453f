#include "emulation/host_maps.h"

#include <algorithm>
#include <cstdio>

namespace a64jit::emu {

void HostMaps::Refresh() {
  regions_.clear();
  FILE* f = std::fopen("/proc/self/maps", "r");
  if (f == nullptr) return;
  char line[512];
  while (std::fgets(line, sizeof line, f) != nullptr) {
    unsigned long long begin, end;
    char perms[8] = {};
    if (std::sscanf(line, "%llx-%llx %4s", &begin, &end, perms) != 3) continue;
    regions_.push_back(HostRegion{begin, end, perms[0] == 'r', perms[1] == 'w', perms[2] == 'x'});
  }
  std::fclose(f);
  std::sort(regions_.begin(), regions_.end(),
            [](const HostRegion& a, const HostRegion& b) { return a.begin < b.begin; });
}

std::optional<HostRegion> HostMaps::Find(uint64_t address) const {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), address,
                             [](uint64_t a, const HostRegion& r) { return a < r.begin; });
  if (it == regions_.begin()) return std::nullopt;
  --it;
  if (address >= it->begin && address < it->end) return *it;
  return std::nullopt;
}

}  // namespace a64jit::emu
