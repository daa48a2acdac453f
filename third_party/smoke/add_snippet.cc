#include "third_party/smoke/add_snippet.h"

#include <asmjit/arm/a64assembler.h>
#include <asmjit/core.h>
#include <capstone/capstone.h>
#include <sys/mman.h>

#include <cstring>
#include <stdexcept>

#ifdef A64JIT_HAVE_UNICORN
#include <unicorn/unicorn.h>
#endif

namespace a64jit::smoke {

std::vector<uint8_t> AssembleAddRet() {
  asmjit::CodeHolder code;
  code.init(asmjit::Environment(asmjit::Arch::kAArch64));
  asmjit::a64::Assembler a(&code);
  a.add(asmjit::a64::x0, asmjit::a64::x0, asmjit::a64::x1);
  a.ret(asmjit::a64::x30);
  asmjit::Section* text = code.textSection();
  const uint8_t* data = text->data();
  return std::vector<uint8_t>(data, data + text->bufferSize());
}

std::string Disassemble(const std::vector<uint8_t>& code) {
  csh handle;
  if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &handle) != CS_ERR_OK) {
    throw std::runtime_error("capstone: cs_open(ARM64) failed");
  }
  cs_insn* insn = nullptr;
  size_t n = cs_disasm(handle, code.data(), code.size(), 0, 0, &insn);
  std::string out;
  for (size_t i = 0; i < n; i++) {
    out += insn[i].mnemonic;
    if (insn[i].op_str[0] != '\0') {
      out += ' ';
      out += insn[i].op_str;
    }
    out += '\n';
  }
  cs_free(insn, n);
  cs_close(&handle);
  return out;
}

#ifdef A64JIT_HAVE_UNICORN
namespace {

void Check(uc_err err, const char* what) {
  if (err != UC_ERR_OK) {
    throw std::runtime_error(std::string("unicorn: ") + what + ": " + uc_strerror(err));
  }
}

void CountBlock(uc_engine*, uint64_t, uint32_t size, void* user) {
  // Every aarch64 instruction is 4 bytes.
  *static_cast<uint64_t*>(user) += size / 4;
}

}  // namespace

RunResult RunOnThisHost(const std::vector<uint8_t>& code, uint64_t a, uint64_t b) {
  constexpr uint64_t kBase = 0x10000;
  constexpr uint64_t kReturnSentinel = kBase + 0x800;  // mapped, never executed
  uc_engine* uc = nullptr;
  Check(uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc), "uc_open");
  RunResult result;
  result.mode = "unicorn";
  try {
    Check(uc_mem_map(uc, kBase, 0x1000, UC_PROT_READ | UC_PROT_EXEC), "uc_mem_map");
    Check(uc_mem_write(uc, kBase, code.data(), code.size()), "uc_mem_write");
    uc_hook hook;
    Check(uc_hook_add(uc, &hook, UC_HOOK_BLOCK, reinterpret_cast<void*>(&CountBlock),
                      &result.guest_instructions, 1, 0),
          "uc_hook_add");
    uint64_t lr = kReturnSentinel;
    Check(uc_reg_write(uc, UC_ARM64_REG_X0, &a), "write x0");
    Check(uc_reg_write(uc, UC_ARM64_REG_X1, &b), "write x1");
    Check(uc_reg_write(uc, UC_ARM64_REG_LR, &lr), "write lr");
    Check(uc_emu_start(uc, kBase, kReturnSentinel, 0, 1000), "uc_emu_start");
    Check(uc_reg_read(uc, UC_ARM64_REG_X0, &result.value), "read x0");
  } catch (...) {
    uc_close(uc);
    throw;
  }
  uc_close(uc);
  return result;
}

#elif defined(__aarch64__)

RunResult RunOnThisHost(const std::vector<uint8_t>& code, uint64_t a, uint64_t b) {
  const size_t size = 4096;
  void* mem = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::runtime_error("mmap failed");
  std::memcpy(mem, code.data(), code.size());
  // W^X: written while RW, executed only after the flip to RX and an i-cache flush.
  if (mprotect(mem, size, PROT_READ | PROT_EXEC) != 0) {
    munmap(mem, size);
    throw std::runtime_error("mprotect(RX) failed");
  }
  char* begin = static_cast<char*>(mem);
  __builtin___clear_cache(begin, begin + code.size());
  using Fn = uint64_t (*)(uint64_t, uint64_t);
  RunResult result;
  result.mode = "native";
  result.value = reinterpret_cast<Fn>(mem)(a, b);
  munmap(mem, size);
  return result;
}

#else
#error "a64jit runs aarch64 code natively (aarch64) or under Unicorn (x86-64 host)"
#endif

}  // namespace a64jit::smoke
