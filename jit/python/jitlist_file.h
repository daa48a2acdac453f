// JIT list files (A64JIT_JITLIST_FILE, a64jit-run --jitlist-file): one "module:qualname"
// pattern per line (`*` matches any run of characters), `#` starts a comment, blank lines
// are skipped.
#ifndef A64JIT_JIT_PYTHON_JITLIST_FILE_H_
#define A64JIT_JIT_PYTHON_JITLIST_FILE_H_

#include <string>
#include <vector>

namespace a64jit::python {

// The patterns of the file at `path`. Throws std::invalid_argument naming the file, and the
// line for a malformed one (not exactly one ':' between a non-empty module and qualname, or
// blanks inside a pattern).
std::vector<std::string> ReadJitListFile(const std::string& path);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_JITLIST_FILE_H_
