// A CodeSink in front of another that refuses code past a cap on the bytes in use
// (A64JIT_MAX_CODE_SIZE): the Load that would pass it throws CodeCapReached before anything
// is placed, so code memory in use never exceeds the cap and the function stays interpreted.
#ifndef A64JIT_JIT_RUNTIME_CAPPED_SINK_H_
#define A64JIT_JIT_RUNTIME_CAPPED_SINK_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "jit/runtime/code_sink.h"

namespace a64jit::runtime {

class CodeCapReached : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CappedSink : public CodeSink {
 public:
  // `used()` gives the bytes in use behind `inner` (each piece rounded up to 16 there).
  CappedSink(CodeSink& inner, uint64_t cap, std::function<uint64_t()> used)
      : inner_(inner), cap_(cap), used_(std::move(used)) {}

  uint64_t NextAddress() const override { return inner_.NextAddress(); }
  const uint8_t* Load(const uint8_t* code, size_t size) override {
    const uint64_t used = used_();
    const uint64_t need = (size + 15) & ~uint64_t{15};
    if (used + need > cap_) {
      throw CodeCapReached("code size cap reached (A64JIT_MAX_CODE_SIZE=" + std::to_string(cap_) +
                           ", " + std::to_string(used) + " bytes in use, " + std::to_string(size) +
                           " more needed)");
    }
    return inner_.Load(code, size);
  }
  void Patch(const uint8_t* at, const uint8_t* code, size_t size) override {
    inner_.Patch(at, code, size);
  }

 private:
  CodeSink& inner_;
  uint64_t cap_;
  std::function<uint64_t()> used_;
};

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_RUNTIME_CAPPED_SINK_H_
