#include "golden/hir_render.h"

#include <Python.h>

#include <memory>

#include "golden/fake_addresses.h"
#include "golden/filetest.h"
#include "golden/hir_passes.h"
#include "jit/compiler.h"
#include "jit/hir/number_forms.h"
#include "jit/lir/text.h"
#include "jit/python/code_info.h"
#include "jit/python/opcode_names.h"

namespace a64jit::golden {

namespace {

lower::RuntimeAddresses FakeAddresses(PyCodeObject* code) {
  lower::RuntimeAddresses rt = python::AddressesOf(code);  // the per-constant facts
  UseFakeAddresses(&rt);
  return rt;
}

std::string Render(PyCodeObject* code, Stage stage, bool loop_entries) {
  hir::CodeInfo info = python::CodeInfoOf(code, "golden");
  info.loop_entries = loop_entries;
  try {
    hir::Function f = compiler::BuildHir(info);
    const lower::RuntimeAddresses rt = FakeAddresses(code);
    if (stage == Stage::kHir) {  // as lowering takes it: with its number forms
      hir::ChooseNumberForms(f, lower::NumberFactsOf(rt));
      return hir::Print(f);
    }
    std::vector<lower::DeoptSite> sites;
    const lir::Function lir = compiler::LowerToLir(f, rt, info.qualname, &sites);
    return lir::Print(lir);
  } catch (const hir::Unsupported& e) {
    std::string out = "function golden:" + info.qualname + " not compiled: " + e.what();
    if (e.opcode() >= 0) out += " " + python::OpcodeName(e.opcode());
    return out + " at offset " + std::to_string(e.offset()) + "\n";
  }
}

void Walk(PyCodeObject* code, Stage stage, bool loop_entries, std::string& out) {
  const int function = CO_OPTIMIZED | CO_NEWLOCALS;
  if ((code->co_flags & function) == function) out += Render(code, stage, loop_entries);
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(code->co_consts); i++) {
    PyObject* c = PyTuple_GET_ITEM(code->co_consts, i);
    if (PyCode_Check(c)) Walk(reinterpret_cast<PyCodeObject*>(c), stage, loop_entries, out);
  }
}

// In a source's comments: run the module before rendering its functions.
constexpr char kRunDirective[] = "# golden: run";
// Compile with entries at the loop headers (hir::CodeInfo::loop_entries).
constexpr char kLoopEntriesDirective[] = "# golden: loop-entries";

}  // namespace

std::string RenderPython(const std::string& python_source, Stage stage) {
  if (!Py_IsInitialized()) Py_InitializeEx(0);
  PyObject* code = Py_CompileString(python_source.c_str(), "golden.py", Py_file_input);
  if (code == nullptr) return "error: " + python::TakePythonError() + "\n";
  if (python_source.find(kRunDirective) != std::string::npos) {
    // Run the module first: its own loop calls the functions, 3.11 quickens their code
    // objects in place, and they are rendered with that type feedback (jit/hir/feedback.h).
    PyObject* globals =
        Py_BuildValue("{s:s, s:O}", "__name__", "golden", "__builtins__", PyEval_GetBuiltins());
    PyObject* result = globals != nullptr ? PyEval_EvalCode(code, globals, globals) : nullptr;
    Py_XDECREF(globals);
    if (result == nullptr) {
      Py_DECREF(code);
      return "error: running the module: " + python::TakePythonError() + "\n";
    }
    Py_DECREF(result);
  }
  std::string out;
  const bool loop_entries = python_source.find(kLoopEntriesDirective) != std::string::npos;
  Walk(reinterpret_cast<PyCodeObject*>(code), stage, loop_entries, out);
  Py_DECREF(code);
  return out;
}

std::string RenderFor(const std::string& path, const std::string& input) {
  auto ends_with = [&](const std::string& suffix) {
    return path.size() > suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".hir")) return RenderPython(input, Stage::kHir);
  if (ends_with(".lower")) return RenderPython(input, Stage::kLowered);
  if (ends_with(".passes")) return RenderHirPasses(input);
  return RenderLir(input);
}

}  // namespace a64jit::golden
