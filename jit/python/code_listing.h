// The code the JIT has placed (compiled functions and stubs), and the native tools that are
// told about each piece: perf's map file (A64JIT_PERFMAP=1) and jitdump (A64JIT_JITDUMP=DIR).
// A process forked after code was listed gets files of its own, named by its pid, holding
// everything its parent had listed (its copy of the code is at the same addresses).
#ifndef A64JIT_JIT_PYTHON_CODE_LISTING_H_
#define A64JIT_JIT_PYTHON_CODE_LISTING_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace a64jit::python {

struct NativeToolsConfig {
  bool perf_map = false;
  std::string jitdump_dir;  // "": no jitdump
};

// Opens the files `config` asks for, listing in them what is already listed. Needs the GIL
// (it registers the fork hook with os.register_at_fork). Throws std::runtime_error naming a
// file that cannot be created.
void ConfigureNativeTools(const NativeToolsConfig& config);
// Lists [start, start+size) as `name` ("a64jit:..."). Errors writing a file are reported
// once on stderr and stop that file; the JIT goes on.
void ListCode(const std::string& name, const void* start, size_t size);
// The files being written ("" when off).
std::string PerfMapPath();
std::string JitdumpPath();

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_CODE_LISTING_H_
