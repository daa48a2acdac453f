#include "jit/lower/stub_text.h"

#include <cctype>
#include <stdexcept>

namespace a64jit::lower {

std::string FillStubText(const std::string& text, const std::map<std::string, int64_t>& values,
                         const std::string& what) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '$') {
      out += text[i++];
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && (std::islower(text[end]) || text[end] == '_')) end++;
    const std::string name = text.substr(i + 1, end - i - 1);
    auto v = values.find(name);
    if (v == values.end()) throw std::logic_error(what + ": no value for $" + name);
    out += std::to_string(v->second);
    i = end;
  }
  return out;
}

}  // namespace a64jit::lower
