// What the HIR builder and lowering need from a 3.11 code object.
#ifndef A64JIT_JIT_PYTHON_CODE_INFO_H_
#define A64JIT_JIT_PYTHON_CODE_INFO_H_

#include <Python.h>

#include <string>

#include "jit/hir/hir.h"
#include "jit/lower/lower.h"

namespace a64jit::python {

// `module` names the function's module (code objects do not know it); `globals`, the
// function's globals, gives CodeInfo::global_kinds (nullptr: left empty). Needs the GIL.
hir::CodeInfo CodeInfoOf(PyCodeObject* code, const std::string& module,
                         PyObject* globals = nullptr);
lower::RuntimeAddresses AddressesOf(PyCodeObject* code);
// The pending Python exception's str(), cleared; "unknown error" when there is none.
std::string TakePythonError();
// The UTF-8 text of a str object, "?" for anything else (never raises).
std::string Utf8(PyObject* s);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_CODE_INFO_H_
