#include "jit/python/make_function.h"

#include <cstdint>

namespace a64jit::python {

namespace {

// "__builtins__", interned like the interpreter's own key, so a lookup finds it by identity.
PyObject* BuiltinsKey() {
  static PyObject* key = PyUnicode_InternFromString("__builtins__");
  return key;
}

uint64_t VersionOf(PyObject* dict) { return reinterpret_cast<PyDictObject*>(dict)->ma_version_tag; }

// 3.11's PyFunction_NewWithQualName(code, globals, NULL) with the results of its lookups of
// `__name__` and the builtins given: the same fields, references and GC tracking. Its
// references are taken before the allocation, as 3.11 takes them, since the allocation may
// collect garbage and a finalizer may change the globals.
PyFunctionObject* NewFunctionFrom(PyObject* code, PyObject* globals, PyObject* module,
                                  PyObject* builtins) {
  auto* co = reinterpret_cast<PyCodeObject*>(code);
  PyObject* consts = co->co_consts;
  PyObject* doc = Py_None;  // the first constant when it is a str
  if (PyTuple_GET_SIZE(consts) >= 1 && PyUnicode_Check(PyTuple_GET_ITEM(consts, 0))) {
    doc = PyTuple_GET_ITEM(consts, 0);
  }
  PyObject* const owned[] = {globals, code, co->co_name, co->co_qualname, doc, builtins};
  for (PyObject* o : owned) Py_INCREF(o);
  Py_XINCREF(module);
  auto* op = PyObject_GC_New(PyFunctionObject, &PyFunction_Type);
  if (op == nullptr) {
    for (PyObject* o : owned) Py_DECREF(o);
    Py_XDECREF(module);
    return nullptr;
  }
  op->func_globals = globals;
  op->func_builtins = builtins;
  op->func_name = co->co_name;
  op->func_qualname = co->co_qualname;
  op->func_code = code;
  op->func_defaults = nullptr;
  op->func_kwdefaults = nullptr;
  op->func_closure = nullptr;
  op->func_doc = doc;
  op->func_dict = nullptr;
  op->func_weakreflist = nullptr;
  op->func_module = module;
  op->func_annotations = nullptr;
  op->vectorcall = _PyFunction_Vectorcall;
  op->func_version = 0;
  PyObject_GC_Track(op);
  return op;
}

}  // namespace

PyFunctionObject* NewFunction(PyObject* code, PyObject* globals, runtime::FunctionCache* cache) {
  const uint64_t version = VersionOf(globals);
  if (cache != nullptr && cache->globals == globals && cache->globals_version == version) {
    return NewFunctionFrom(code, globals, static_cast<PyObject*>(cache->module),
                           static_cast<PyObject*>(cache->builtins));
  }
  auto* func = reinterpret_cast<PyFunctionObject*>(PyFunction_New(code, globals));
  if (func == nullptr || cache == nullptr) return func;
  // This lookup is the cache's, not stock's: an error in it (a key's __eq__) is dropped.
  const bool own_builtins = PyDict_GetItemWithError(globals, BuiltinsKey()) != nullptr;
  if (!own_builtins && PyErr_Occurred()) PyErr_Clear();
  if (own_builtins && VersionOf(globals) == version) {
    *cache = runtime::FunctionCache{globals, version, func->func_module, func->func_builtins};
  }
  return func;
}

}  // namespace a64jit::python
