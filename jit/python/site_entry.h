// The entry of a helper that a compiled site calls with its cache (jit/runtime/site_cache.h):
// shared by the helper files.
#ifndef A64JIT_JIT_PYTHON_SITE_ENTRY_H_
#define A64JIT_JIT_PYTHON_SITE_ENTRY_H_

#include <Python.h>
#include <internal/pycore_frame.h>

#include <cstdint>

#include "jit/runtime/site_cache.h"

namespace a64jit::runtime {

// Polymorphic sites (one site, several types) would re-specialise on every miss; after this
// many they keep the generic path (3.11's adaptive counters do the same, with backoff).
constexpr uint32_t kMaxRespecializations = 16;

// After a site was served generically (`obj.name` read, `c[k]` subscripted): when
// `entry_for()` makes an entry (a descriptor entry, a dict hint, a class's __getitem__), `slot`
// takes it, within the site's budget of misses (once that is spent, no more lookups).
template <typename Entry, typename EntryFor>
bool Remember(uint32_t& respecializations, Entry& slot, EntryFor entry_for) {
  if (respecializations >= kMaxRespecializations) return false;
  const Entry e = entry_for();
  if (e.type_version == 0) return false;
  respecializations++;
  slot = e;
  return true;
}

// The site's instruction, from its cache's header (site_cache.h): it becomes the frame's
// prev_instr, and its name is returned.
inline PyObject* EnterSite(_PyInterpreterFrame* frame, const void* cache) {
  const SiteHeader& site = HeaderOf(cache);
  frame->prev_instr = static_cast<_Py_CODEUNIT*>(const_cast<void*>(site.prev_instr));
  return static_cast<PyObject*>(site.name);
}

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_PYTHON_SITE_ENTRY_H_
