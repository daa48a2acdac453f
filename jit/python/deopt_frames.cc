// What a deopt exit leaves for the runtime to finish before the interpreter takes the frame
// over or the runtime unwinds it (deopt_frames.h).
#include "jit/python/deopt_frames.h"

#include <internal/pycore_frame.h>

#include "jit/codegen/codegen.h"
#include "jit/lower/lower.h"
#include "jit/python/jit.h"

namespace a64jit::python {

// What a deopt exit leaves to the runtime (DeoptSite, jit/lower/lower.h): prev_instr, stacktop, and
// new references to the borrowed locals and constants on the exit's value stack.
void CompleteFrame(const CodeState& st, _PyInterpreterFrame* frame, uint64_t code) {
  const lower::DeoptSite& site = st.deopt_sites.at(code >> 2);
  if (site.keep_frame) return;
  PyCodeObject* co = frame->f_code;
  PyObject** stack = frame->localsplus + co->co_nlocalsplus;
  for (const lower::DeoptSite::Ref& ref : site.refs) {
    stack[ref.slot] = Py_NewRef(ref.is_const ? PyTuple_GET_ITEM(co->co_consts, ref.index)
                                             : frame->localsplus[ref.index]);
  }
  frame->stacktop = co->co_nlocalsplus + site.depth;
  if (!site.keep_prev_instr) frame->prev_instr = _PyCode_CODE(co) + site.prev_unit;
}

// An exception no handler of the (current, completed) frame covers, with tracing off: what
// the interpreter's error path does before it leaves such a frame, without entering it. The
// frame's traceback entry (none after a re-raise, `reraised`), then its value stack
// released from the top.
void UnwindFrame(_PyInterpreterFrame* frame, bool reraised) {
  if (!reraised) AddTracebackEntry(frame);
  const int base = frame->f_code->co_nlocalsplus;
  while (frame->stacktop > base) {
    frame->stacktop--;
    Py_XDECREF(frame->localsplus[frame->stacktop]);
  }
}

// The deopt code an exit's result stands for: an exit by call returned its bl's offset
// (lower.h), and an exit whose top stack entry is NULL may stand for another
// (DeoptSite::code_if_top_null).
uint64_t DeoptCodeOf(const CodeState& st, const _PyInterpreterFrame* frame, uint64_t result) {
  uint64_t code = result;
  if ((code & lower::kDeoptKindMask) == codegen::kExitByOffset) {
    const std::optional<uint64_t> exit = codegen::ExitCodeAt(st.exits, code);
    if (!exit) {
      Py_FatalError("a64jit: compiled code returned through its exit block from no exit");
    }
    code = *exit;
  }
  const lower::DeoptSite& site = st.deopt_sites.at(code >> 2);
  if (site.code_if_top_null >= 0 &&
      frame->localsplus[frame->f_code->co_nlocalsplus + site.depth - 1] == nullptr) {
    code = static_cast<uint64_t>(site.code_if_top_null);
  }
  return code;
}

}  // namespace a64jit::python
