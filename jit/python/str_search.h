// C entries for the call stub's cache (jit/runtime/site_cache.h CCallCache) of str's search
// methods: startswith, endswith, find, rfind, index, rindex and count. CPython 3.11 defines
// them METH_VARARGS, so each call builds an argument tuple and parses it with
// PyArg_ParseTuple's format machinery (a sixth of html_scan's warm instructions under the JIT).
// With plain arguments (a str, then bounds that are None or exact ints) these entries call the
// public function the method itself ends in (PyUnicode_Tailmatch, PyUnicode_Find,
// PyUnicode_Count); any other arguments take the method's own path, so its errors are stock's.
#ifndef A64JIT_JIT_PYTHON_STR_SEARCH_H_
#define A64JIT_JIT_PYTHON_STR_SEARCH_H_

#include <Python.h>

namespace a64jit::runtime {

// The entry for `def` when it is one of str's own search methods (str's descriptor, or a
// method bound from it: self a str), called as the METH_VARARGS trampoline is, with `def` as
// context; nullptr otherwise.
void* StrSearchEntry(const PyMethodDef* def);

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_PYTHON_STR_SEARCH_H_
