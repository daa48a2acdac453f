#include "jit/codegen/disassembly.h"

#include <capstone/capstone.h>
#include <dlfcn.h>

#include <cstdio>

namespace a64jit::codegen {
namespace {

// Capstone is loaded on the first disassembly, not linked: most runs never disassemble (a
// guest fault or a dump does), and linking it made every a64jit-run process about 3 MB
// bigger (its relocated tables, measured on CPython's test_json under Unicorn; that suite
// budget is 2x the stock interpreter's peak memory). Declarations come from Debian's
// capstone header; the library is the same package's libcapstone.so.4.
struct Capstone {
  decltype(&cs_open) open = nullptr;
  decltype(&cs_disasm) disasm = nullptr;
  decltype(&cs_free) free = nullptr;
  decltype(&cs_close) close = nullptr;
  std::string error;  // why it is unavailable, when it is
};

const Capstone& LoadCapstone() {
  static const Capstone cs = [] {
    Capstone c;
    void* lib = dlopen("libcapstone.so.4", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      const char* why = dlerror();
      c.error = why != nullptr ? why : "dlopen failed";
      return c;
    }
    c.open = reinterpret_cast<decltype(&cs_open)>(dlsym(lib, "cs_open"));
    c.disasm = reinterpret_cast<decltype(&cs_disasm)>(dlsym(lib, "cs_disasm"));
    c.free = reinterpret_cast<decltype(&cs_free)>(dlsym(lib, "cs_free"));
    c.close = reinterpret_cast<decltype(&cs_close)>(dlsym(lib, "cs_close"));
    if (!c.open || !c.disasm || !c.free || !c.close) {
      c.open = nullptr;
      c.error = "libcapstone.so.4 lacks cs_open, cs_disasm, cs_free or cs_close";
    }
    return c;
  }();
  return cs;
}

}  // namespace

std::string DisassembleAt(const uint8_t* bytes, size_t size, uint64_t address, uint64_t mark) {
  const Capstone& cs = LoadCapstone();
  csh handle;
  if (cs.open == nullptr) return "(capstone unavailable: " + cs.error + ")\n";
  if (cs.open(CS_ARCH_ARM64, CS_MODE_ARM, &handle) != CS_ERR_OK) {
    return "(capstone unavailable: cs_open failed)\n";
  }
  std::string out;
  char line[256];
  // Decode word by word so one undecodable word does not hide the rest.
  for (size_t off = 0; off + 4 <= size; off += 4) {
    const uint64_t pc = address + off;
    cs_insn* insn = nullptr;
    size_t n = cs.disasm(handle, bytes + off, 4, pc, 1, &insn);
    const char* marker = pc == mark ? "=> " : "   ";
    if (n == 1) {
      std::snprintf(line, sizeof line, "%s0x%llx: %s%s%s\n", marker,
                    static_cast<unsigned long long>(pc), insn[0].mnemonic,
                    insn[0].op_str[0] != '\0' ? " " : "", insn[0].op_str);
      cs.free(insn, n);
    } else {
      uint32_t word = bytes[off] | bytes[off + 1] << 8 | bytes[off + 2] << 16 |
                      static_cast<uint32_t>(bytes[off + 3]) << 24;
      std::snprintf(line, sizeof line, "%s0x%llx: .inst 0x%08x (undefined)\n", marker,
                    static_cast<unsigned long long>(pc), word);
    }
    out += line;
  }
  cs.close(&handle);
  return out;
}

}  // namespace a64jit::codegen
