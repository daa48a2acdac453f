#include "jit/lower/stub_text.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>

#include <cctype>
#include <cstddef>
#include <stdexcept>

#include "jit/lower/lower.h"

namespace a64jit::lower {

std::string FillStubText(const std::string& text, const std::map<std::string, int64_t>& values,
                         const std::string& what) {
  // Copied a span at a time: the stubs' texts are tens of KiB, filled at every JIT start.
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  size_t done = 0;
  for (size_t i = text.find('$'); i != std::string::npos; i = text.find('$', done)) {
    out.append(text, done, i - done);
    size_t end = i + 1;
    while (end < text.size() && (std::islower(text[end]) || text[end] == '_')) end++;
    const std::string name = text.substr(i + 1, end - i - 1);
    auto v = values.find(name);
    if (v == values.end()) throw std::logic_error(what + ": no value for $" + name);
    out += std::to_string(v->second);
    done = end;
  }
  out.append(text, done, std::string::npos);
  return out;
}

std::map<std::string, int64_t> FrameLayoutValues() {
  const auto at = [](size_t offset) { return static_cast<int64_t>(offset); };
  return {
      {"ob_type", at(offsetof(PyObject, ob_type))},
      {"ts_cframe", at(offsetof(PyThreadState, cframe))},
      {"ts_recursion_remaining", at(offsetof(PyThreadState, recursion_remaining))},
      {"cframe_use_tracing", at(offsetof(_PyCFrame, use_tracing))},
      {"cframe_current_frame", at(offsetof(_PyCFrame, current_frame))},
      {"f_code", at(offsetof(_PyInterpreterFrame, f_code))},
      {"f_func", at(offsetof(_PyInterpreterFrame, f_func))},
      {"f_locals", at(offsetof(_PyInterpreterFrame, f_locals))},
      {"f_previous", at(offsetof(_PyInterpreterFrame, previous))},
      {"frame_obj", at(offsetof(_PyInterpreterFrame, frame_obj))},
      {"stacktop", at(offsetof(_PyInterpreterFrame, stacktop))},
      {"localsplus", at(offsetof(_PyInterpreterFrame, localsplus))},
      {"deopt_code_limit", static_cast<int64_t>(kDeoptCodeLimit)},
  };
}

}  // namespace a64jit::lower
