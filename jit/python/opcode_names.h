// The names of CPython 3.11's opcodes, for messages and statistics (compile refusals, deopt
// events, golden HIR). Built from opcode.h's numbers, so no Python code runs to get them:
// importing the `opcode` module when the JIT starts cost about 2 M guest instructions and
// 126 KiB of newly translated code under QEMU.
#pragma once

#include <string>

namespace a64jit::python {

// The opcode's name as `opcode.opname` gives it (specialised opcodes by their own names, as in
// `opcode._specialized_instructions`); "<N>" for a number 3.11 does not use, as opcode.opname
// writes it.
std::string OpcodeName(int opcode);

}  // namespace a64jit::python
