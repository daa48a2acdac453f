// One piece of code the JIT placed in code memory, as native tools are told about it.
#ifndef A64JIT_JIT_PYTHON_CODE_REGION_H_
#define A64JIT_JIT_PYTHON_CODE_REGION_H_

#include <cstdint>
#include <string>

namespace a64jit::python {

struct CodeRegion {
  uint64_t start = 0;
  uint64_t size = 0;
  std::string name;  // a64jit:module:qualname, or a64jit:stub:what
};

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_CODE_REGION_H_
