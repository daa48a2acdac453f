// JSON text for the statistics files: a string literal with its escapes.
#ifndef A64JIT_JIT_PYTHON_JSON_TEXT_H_
#define A64JIT_JIT_PYTHON_JSON_TEXT_H_

#include <cstdio>
#include <string>

namespace a64jit::python {

inline std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_JSON_TEXT_H_
