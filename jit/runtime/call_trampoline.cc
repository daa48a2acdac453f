#include "jit/runtime/call_trampoline.h"

#include <asmjit/arm/a64assembler.h>
#include <asmjit/core.h>

#include <cstddef>
#include <stdexcept>

#include "jit/runtime/executor.h"

namespace a64jit::runtime {

std::vector<uint8_t> AssembleCallTrampoline() {
  using namespace asmjit::a64;  // NOLINT: register names
  asmjit::CodeHolder code;
  code.init(asmjit::Environment(asmjit::Arch::kAArch64));
  Assembler a(&code);
  auto field = [](size_t offset) { return ptr(x19, static_cast<int32_t>(offset)); };

  // Frame record and the two callee-saved registers the stub uses.
  a.stp(x29, x30, ptr_pre(sp, -32));
  a.mov(x29, sp);
  a.stp(x19, x20, ptr(sp, 16));
  a.mov(x19, x0);  // x19 = CallFrame*
  a.mov(x20, sp);  // x20 = caller's SP, restored after the call

  asmjit::Label same_stack = a.newLabel();
  a.ldr(x9, field(offsetof(CallFrame, new_sp)));
  a.cbz(x9, same_stack);
  a.mov(sp, x9);
  a.bind(same_stack);

  // Stack arguments: round the slot count up to keep SP 16-byte aligned, then copy.
  a.ldr(x10, field(offsetof(CallFrame, nstack)));
  a.add(x11, x10, 1);
  a.and_(x11, x11, ~uint64_t{1});
  a.mov(x9, sp);
  a.sub(x9, x9, x11, asmjit::arm::lsl(3));
  a.mov(sp, x9);
  a.ldr(x11, field(offsetof(CallFrame, stack_args)));
  a.mov(x12, 0);
  asmjit::Label copy = a.newLabel(), copied = a.newLabel();
  a.bind(copy);
  a.cmp(x12, x10);
  a.b_hs(copied);
  a.ldr(x13, ptr(x11, x12, asmjit::arm::lsl(3)));
  a.str(x13, ptr(x9, x12, asmjit::arm::lsl(3)));
  a.add(x12, x12, 1);
  a.b(copy);
  a.bind(copied);

  for (int i = 0; i < 8; i += 2) {
    a.ldp(d(i), d(i + 1), field(offsetof(CallFrame, d) + 8 * i));
  }
  a.ldr(x16, field(offsetof(CallFrame, target)));
  for (int i = 0; i < 8; i += 2) {
    a.ldp(x(i), x(i + 1), field(offsetof(CallFrame, x) + 8 * i));
  }
  a.blr(x16);
  a.str(x0, field(offsetof(CallFrame, ret_x0)));
  a.str(d0, field(offsetof(CallFrame, ret_d0)));

  a.mov(sp, x20);
  a.ldp(x19, x20, ptr(sp, 16));
  a.ldp(x29, x30, ptr_post(sp, 32));
  a.ret(x30);

  if (code.flatten() != asmjit::kErrorOk || code.resolveUnresolvedLinks() != asmjit::kErrorOk) {
    throw std::runtime_error("call trampoline: asmjit failed to assemble");
  }
  asmjit::Section* text = code.textSection();
  return std::vector<uint8_t>(text->data(), text->data() + text->bufferSize());
}

}  // namespace a64jit::runtime
