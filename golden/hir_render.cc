#include "golden/hir_render.h"

#include <Python.h>

#include "golden/filetest.h"
#include "jit/hir/builder.h"
#include "jit/hir/passes.h"
#include "jit/python/code_info.h"

namespace a64jit::golden {

namespace {

void Walk(PyCodeObject* code, std::string& out) {
  const int function = CO_OPTIMIZED | CO_NEWLOCALS;
  if ((code->co_flags & function) == function) {
    const hir::CodeInfo info = python::CodeInfoOf(code, "golden");
    try {
      hir::Function f = hir::Build(info);
      hir::RunPasses(f);
      out += hir::Print(f);
    } catch (const hir::Unsupported& e) {
      out += "function golden:" + info.qualname + " not compiled: " + e.what();
      if (e.opcode() >= 0) out += " " + python::OpcodeName(e.opcode());
      out += " at offset " + std::to_string(e.offset()) + "\n";
    }
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(code->co_consts); i++) {
    PyObject* c = PyTuple_GET_ITEM(code->co_consts, i);
    if (PyCode_Check(c)) Walk(reinterpret_cast<PyCodeObject*>(c), out);
  }
}

}  // namespace

std::string RenderHir(const std::string& python_source) {
  if (!Py_IsInitialized()) Py_InitializeEx(0);
  python::LoadOpcodeNames();
  PyObject* code = Py_CompileString(python_source.c_str(), "golden.py", Py_file_input);
  if (code == nullptr) return "error: " + python::TakePythonError() + "\n";
  std::string out;
  Walk(reinterpret_cast<PyCodeObject*>(code), out);
  Py_DECREF(code);
  return out;
}

std::string RenderFor(const std::string& path, const std::string& input) {
  const bool hir = path.size() > 4 && path.compare(path.size() - 4, 4, ".hir") == 0;
  return hir ? RenderHir(input) : RenderLir(input);
}

}  // namespace a64jit::golden
