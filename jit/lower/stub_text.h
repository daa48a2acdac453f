// LIR text with `$name` placeholders for layout facts and addresses, as the guest stubs
// (call_stub.h, site_stubs.h) are written: the stubs read like the code they become, and the
// numbers come from CPython's headers and the runtime when the stub is made.
#ifndef A64JIT_JIT_LOWER_STUB_TEXT_H_
#define A64JIT_JIT_LOWER_STUB_TEXT_H_

#include <cstdint>
#include <map>
#include <string>

namespace a64jit::lower {

// `text` with each `$name` (lower-case letters and underscores) replaced by values[name] in
// decimal. A name without a value is a std::logic_error naming `what` and the name.
std::string FillStubText(const std::string& text, const std::map<std::string, int64_t>& values,
                         const std::string& what);

// The values of the CPython 3.11 layout facts that both the call stub and the send stub read,
// by the names their texts give them: an object's type, the thread state's cframe and
// recursion count, the cframe's tracing flag and current frame, the _PyInterpreterFrame
// fields that pushing, running and popping a frame touch, and kDeoptCodeLimit.
std::map<std::string, int64_t> FrameLayoutValues();

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_STUB_TEXT_H_
