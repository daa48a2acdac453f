#include "jit/codegen/disassembly.h"

#include <capstone/capstone.h>

#include <cstdio>

namespace a64jit::codegen {

std::string DisassembleAt(const uint8_t* bytes, size_t size, uint64_t address, uint64_t mark) {
  csh handle;
  if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &handle) != CS_ERR_OK) return "(capstone unavailable)\n";
  std::string out;
  char line[256];
  // Decode word by word so one undecodable word does not hide the rest.
  for (size_t off = 0; off + 4 <= size; off += 4) {
    const uint64_t pc = address + off;
    cs_insn* insn = nullptr;
    size_t n = cs_disasm(handle, bytes + off, 4, pc, 1, &insn);
    const char* marker = pc == mark ? "=> " : "   ";
    if (n == 1) {
      std::snprintf(line, sizeof line, "%s0x%llx: %s%s%s\n", marker,
                    static_cast<unsigned long long>(pc), insn[0].mnemonic,
                    insn[0].op_str[0] != '\0' ? " " : "", insn[0].op_str);
      cs_free(insn, n);
    } else {
      uint32_t word = bytes[off] | bytes[off + 1] << 8 | bytes[off + 2] << 16 |
                      static_cast<uint32_t>(bytes[off + 3]) << 24;
      std::snprintf(line, sizeof line, "%s0x%llx: .inst 0x%08x (undefined)\n", marker,
                    static_cast<unsigned long long>(pc), word);
    }
    out += line;
  }
  cs_close(&handle);
  return out;
}

}  // namespace a64jit::codegen
