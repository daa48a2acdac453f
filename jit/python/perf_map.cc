#include "jit/python/perf_map.h"

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <stdexcept>

namespace a64jit::python {

void PerfMapFile::Open(int pid) {
  Close();
  path_ = "/tmp/perf-" + std::to_string(pid) + ".map";
  file_ = std::fopen(path_.c_str(), "w");
  if (file_ == nullptr) {
    throw std::runtime_error("cannot create " + path_ + ": " + std::strerror(errno));
  }
}

void PerfMapFile::Append(const CodeRegion& region) {
  if (file_ == nullptr) return;
  std::fprintf(file_, "%" PRIx64 " %" PRIx64 " %s\n", region.start, region.size,
               region.name.c_str());
  // perf may read the file while the process runs (or after it was killed): whole lines.
  std::fflush(file_);
}

void PerfMapFile::Close() {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
}

}  // namespace a64jit::python
