// Linked into the a64jit.so extension module only. Debian's libasmjit.a is not fully
// position independent: globals.cpp.o reaches libc's `stderr` through a PC-relative
// relocation, which a shared object cannot have against a symbol of another library. This
// file gives the module its own hidden `stderr`, which that relocation binds to at link
// time, and copies libc's value into it when the module is loaded (before PyInit_a64jit).
// Deliberately no <stdio.h> here: it declares the libc symbol this one stands in for.
#include <dlfcn.h>

struct _IO_FILE;

extern "C" {
__attribute__((visibility("hidden"))) _IO_FILE* stderr = nullptr;
}

namespace {

__attribute__((constructor)) void CopyLibcStderr() {
  void* libc_stderr = dlsym(RTLD_DEFAULT, "stderr");
  if (libc_stderr != nullptr) stderr = *static_cast<_IO_FILE**>(libc_stderr);
}

}  // namespace
