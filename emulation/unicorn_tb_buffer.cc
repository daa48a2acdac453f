// Sizes a Unicorn engine's translation buffer (see unicorn_tb_buffer.h for why).
//
// Unicorn 2.0.1 (Debian bookworm's) has no setting for it: its lazy initialisation
// (machine_initialize, on the engine's first uc_reg_read, map or run) calls
// uc->init_arch(uc), which fills in the engine's function pointers, and then
// uc->tcg_exec_init(uc, 0), where 0 means QEMU's default of 1 GiB on a 64-bit host. Both
// calls go through function pointers in the engine's uc_struct, and both targets are exported
// symbols (arm64_uc_init, tcg_exec_init_aarch64). So right after uc_open, the init_arch
// pointer is replaced by a function that runs arm64_uc_init and then replaces the
// tcg_exec_init pointer it set by one that asks for our size. Each pointer is found by value
// among the first words of the struct (offsets of about 200 and 300 bytes in 2.0.1; uc_struct
// is several kilobytes, so the scan stays inside it), only for the release whose layout was
// checked, and only if exactly one word holds that value. Later releases have
// UC_CTL_TCG_BUFFER_SIZE for this, used when the header has it.
#include "emulation/unicorn_tb_buffer.h"

#include <dlfcn.h>

#include <cstdint>

#include "emulation/unicorn_layout.h"

namespace a64jit::emu {
namespace {

using InitArch = void (*)(void* uc);
using TcgExecInit = void (*)(void* uc, unsigned long tb_size);

constexpr size_t kScanBytes = 1024;  // where uc_struct's function pointers are

struct UnicornInternals {
  InitArch init_arch = nullptr;
  TcgExecInit tcg_exec_init = nullptr;
};

const UnicornInternals& Internals() {
  static const UnicornInternals internals = [] {
    UnicornInternals u;
    u.init_arch = reinterpret_cast<InitArch>(dlsym(RTLD_DEFAULT, "arm64_uc_init"));
    u.tcg_exec_init = reinterpret_cast<TcgExecInit>(dlsym(RTLD_DEFAULT, "tcg_exec_init_aarch64"));
    return u;
  }();
  return internals;
}

// The one word among the engine's first kScanBytes that holds `value`, or null.
uintptr_t* FindWord(void* uc, const void* value) {
  auto* words = static_cast<uintptr_t*>(uc);
  uintptr_t* found = nullptr;
  for (size_t i = 0; i < kScanBytes / sizeof(uintptr_t); i++) {
    if (words[i] != reinterpret_cast<uintptr_t>(value)) continue;
    if (found != nullptr) return nullptr;
    found = &words[i];
  }
  return found;
}

void TcgExecInitWithOurSize(void* uc, unsigned long) {
  Internals().tcg_exec_init(uc, TranslationBufferBytes());
}

// Runs arm64_uc_init, then points tcg_exec_init at TcgExecInitWithOurSize. If the pointer
// is not there, the engine keeps Unicorn's default size (nothing else changes).
void InitArchThenSizeBuffer(void* uc) {
  Internals().init_arch(uc);
  uintptr_t* slot = FindWord(uc, reinterpret_cast<const void*>(Internals().tcg_exec_init));
  if (slot != nullptr) *slot = reinterpret_cast<uintptr_t>(&TcgExecInitWithOurSize);
}

}  // namespace

size_t TranslationBufferBytes() {
  static const size_t bytes =
      KnobNumber("A64JIT_UNICORN_TB_MIB", 4, 1024, kDefaultTranslationBufferMiB) << 20;
  return bytes;
}

bool SizeTranslationBuffer(uc_engine* uc) {
  TranslationBufferBytes();  // a malformed setting throws here, not inside Unicorn
#ifdef UC_CTL_TCG_BUFFER_SIZE
  return uc_ctl_set_tcg_buffer_size(uc, TranslationBufferBytes()) == UC_ERR_OK;
#else
  unsigned int major = 0, minor = 0;
  uc_version(&major, &minor);
  if (major != 2 || minor != 0) return false;  // not the release whose layout was checked
  if (Internals().init_arch == nullptr || Internals().tcg_exec_init == nullptr) return false;
  uintptr_t* slot = FindWord(uc, reinterpret_cast<const void*>(Internals().init_arch));
  if (slot == nullptr) return false;  // not exactly one init_arch pointer to arm64_uc_init
  *slot = reinterpret_cast<uintptr_t>(&InitArchThenSizeBuffer);
  return true;
#endif
}

}  // namespace a64jit::emu
