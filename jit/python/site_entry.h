// The entry of a helper that a compiled site calls with its cache (jit/runtime/site_cache.h):
// shared by the helper files.
#ifndef A64JIT_JIT_PYTHON_SITE_ENTRY_H_
#define A64JIT_JIT_PYTHON_SITE_ENTRY_H_

#include <Python.h>
#include <internal/pycore_frame.h>

#include "jit/runtime/site_cache.h"

namespace a64jit::runtime {

// The site's instruction, from its cache's header (site_cache.h): it becomes the frame's
// prev_instr, and its name is returned.
inline PyObject* EnterSite(_PyInterpreterFrame* frame, const void* cache) {
  const SiteHeader& site = HeaderOf(cache);
  frame->prev_instr = static_cast<_Py_CODEUNIT*>(const_cast<void*>(site.prev_instr));
  return static_cast<PyObject*>(site.name);
}

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_PYTHON_SITE_ENTRY_H_
