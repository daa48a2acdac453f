#include "emulation/host_maps.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace a64jit::emu {

namespace {

// Parses a hex number at *p, advancing past it.
uint64_t Hex(const char*& p, const char* end) {
  uint64_t v = 0;
  for (; p < end; p++) {
    const char c = *p;
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) break;
    v = v * 16 + static_cast<uint64_t>(d);
  }
  return v;
}

}  // namespace

void HostMaps::Refresh() {
  // One read and a hand parser: this runs on the first guest access of every outermost
  // call, and stdio's line reading and sscanf made it the largest part of a call's cost.
  regions_.clear();
  const int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  close(fd);
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    const char* eol = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    if (eol == nullptr) eol = end;
    // "begin-end perms ..."
    const uint64_t begin = Hex(p, eol);
    if (p < eol && *p == '-') {
      p++;
      const uint64_t region_end = Hex(p, eol);
      if (p + 4 < eol && *p == ' ') {
        regions_.push_back(HostRegion{begin, region_end, p[1] == 'r', p[2] == 'w', p[3] == 'x'});
      }
    }
    p = eol + 1;
  }
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
