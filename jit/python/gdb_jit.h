// gdb's JIT interface: each compiled function is announced to a debugger through
// __jit_debug_descriptor / __jit_debug_register_code (the protocol gdb documents under "JIT
// Compilation Interface", summarised in docs/native_tools.md) as a small in-memory ELF
// object: the function as a symbol over its code, and DWARF call-frame information for its
// aarch64 frame record, so that gdb names the frame and unwinds past it to the C frames
// that called it. Only natively run code is announced: under Unicorn no debugger sees it.
#ifndef A64JIT_JIT_PYTHON_GDB_JIT_H_
#define A64JIT_JIT_PYTHON_GDB_JIT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace a64jit::python {

// The ELF object for code at [start, start+size) named `name` + "[JIT]" (gdb's symbol) whose
// first two instructions
// are `stp x29, x30, [sp, #-16]!; mov x29, sp` (codegen's prologue). Exposed for its test.
std::vector<uint8_t> JitDebugObject(const std::string& name, uint64_t start, uint64_t size);

// Announces the code to an attached (or later attaching) debugger. Needs the GIL (or another
// lock around every call).
void RegisterWithDebugger(const std::string& name, const void* start, size_t size);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_GDB_JIT_H_
