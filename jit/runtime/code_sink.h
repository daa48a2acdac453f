// Where the code generator puts finished machine code: the last stage of the pipeline
// (jit/compiler.h). The production sink is an Executor's W^X code memory; tests may use
// their own. The code generator depends on this interface only, never on a backend.
#ifndef A64JIT_JIT_RUNTIME_CODE_SINK_H_
#define A64JIT_JIT_RUNTIME_CODE_SINK_H_

#include <cstddef>
#include <cstdint>

namespace a64jit::runtime {

class CodeSink {
 public:
  virtual ~CodeSink() = default;
  // The address the next Load will return if its code still fits where the previous code
  // ended (0 if unknown). Compiling for this address lets calls within reach be a direct
  // `bl`; a Load that lands elsewhere (a new arena) means compiling once more.
  virtual uint64_t NextAddress() const = 0;
  // Copies `size` bytes of code (a positive multiple of 4) into executable memory, flushes
  // what must be flushed, and returns the code's address.
  virtual const uint8_t* Load(const uint8_t* code, size_t size) = 0;
  // Rewrites `size` bytes of loaded code at `at` in place (what was there may have run).
  virtual void Patch(const uint8_t* at, const uint8_t* code, size_t size) = 0;
};

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_RUNTIME_CODE_SINK_H_
