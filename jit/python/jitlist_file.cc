#include "jit/python/jitlist_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace a64jit::python {

namespace {

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// Why `p` is not a pattern, or "" when it is one.
std::string Malformed(const std::string& p) {
  const size_t colon = p.find(':');
  if (colon == std::string::npos) return "no ':' between module and qualname";
  if (p.find(':', colon + 1) != std::string::npos) return "more than one ':'";
  if (colon == 0) return "empty module";
  if (colon + 1 == p.size()) return "empty qualname";
  if (p.find_first_of(" \t") != std::string::npos) return "blank inside the pattern";
  return "";
}

}  // namespace

std::vector<std::string> ReadJitListFile(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw std::invalid_argument("cannot read JIT list file " + path + ": " + std::strerror(errno));
  std::vector<std::string> patterns;
  std::string line;
  for (int n = 1; std::getline(in, line); n++) {
    const std::string p = Trim(line.substr(0, line.find('#')));
    if (p.empty()) continue;
    const std::string why = Malformed(p);
    if (!why.empty()) {
      throw std::invalid_argument(path + ":" + std::to_string(n) + ": malformed pattern '" + p +
                                  "': " + why + " (expected module:qualname)");
    }
    patterns.push_back(p);
  }
  return patterns;
}

}  // namespace a64jit::python
