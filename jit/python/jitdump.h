// The jitdump file `perf inject --jit` reads (the format of Linux's
// tools/perf/Documentation/jitdump-specification.txt, summarised in docs/native_tools.md):
// DIR/jit-PID.dump, a header, then one JIT_CODE_LOAD record per code region with its bytes.
// The file stays mapped executable while it is open: that mapping is the event in a
// `perf record -k 1` trace by which `perf inject` finds the file.
#ifndef A64JIT_JIT_PYTHON_JITDUMP_H_
#define A64JIT_JIT_PYTHON_JITDUMP_H_

#include <cstdint>
#include <cstdio>
#include <string>

#include "jit/python/code_region.h"

namespace a64jit::python {

// The format's numbers.
struct Jitdump {
  static constexpr uint32_t kMagic = 0x4A695444;  // "JiTD" as a little-endian word
  static constexpr uint32_t kVersion = 1;
  static constexpr uint32_t kHeaderSize = 40;
  static constexpr uint32_t kElfMachAarch64 = 183;  // EM_AARCH64: the code's machine
  static constexpr uint32_t kCodeLoad = 0;
  static constexpr uint32_t kCodeClose = 3;
};

class JitdumpFile {
 public:
  JitdumpFile() = default;
  ~JitdumpFile() { Close(); }
  JitdumpFile(const JitdumpFile&) = delete;
  JitdumpFile& operator=(const JitdumpFile&) = delete;

  // Creates DIR/jit-PID.dump and writes the header; throws std::runtime_error naming it.
  void Open(const std::string& dir, int pid);
  // A JIT_CODE_LOAD record: the region's name and its `region.size` bytes at `region.start`.
  void Append(const CodeRegion& region);
  // Ends the file with JIT_CODE_CLOSE.
  void Close();
  // Lets go of the file without writing to it: a forked child's copy of its parent's.
  void Abandon();
  const std::string& path() const { return path_; }

 private:
  void Write(const void* data, size_t size);

  FILE* file_ = nullptr;
  void* marker_ = nullptr;  // the executable mapping of the file's first page
  uint64_t next_index_ = 0;
  std::string path_;
};

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_JITDUMP_H_
