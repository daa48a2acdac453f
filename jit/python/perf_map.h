// perf's map file for JIT code, /tmp/perf-PID.map: one line per code region, "START SIZE
// NAME" with START and SIZE in hex. `perf report` reads it to name samples in anonymous
// executable memory.
#ifndef A64JIT_JIT_PYTHON_PERF_MAP_H_
#define A64JIT_JIT_PYTHON_PERF_MAP_H_

#include <cstdio>
#include <string>

#include "jit/python/code_region.h"

namespace a64jit::python {

class PerfMapFile {
 public:
  PerfMapFile() = default;
  ~PerfMapFile() { Close(); }
  PerfMapFile(const PerfMapFile&) = delete;
  PerfMapFile& operator=(const PerfMapFile&) = delete;

  // Creates (truncates) the file of process `pid`; throws std::runtime_error naming it.
  void Open(int pid);
  void Append(const CodeRegion& region);
  void Close();
  const std::string& path() const { return path_; }

 private:
  FILE* file_ = nullptr;
  std::string path_;
};

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_PERF_MAP_H_
