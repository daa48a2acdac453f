#include "jit/python/call_capture.h"

#include <cmath>
#include <cstdio>

namespace a64jit::python {

namespace {

struct CaptureState {
  CaptureSettings settings;
  int written = 0;
  bool refusal_written = false;
};

CaptureState& State() {
  static CaptureState* state = new CaptureState();  // never destroyed: used at exit
  return *state;
}

constexpr int kMaxDepth = 20;
constexpr Py_ssize_t kMaxItems = 10000;

// The module of `v` when it is a C function its module holds under its own name (`abs`,
// `math.sqrt`): the reproducer names it as an attribute of that module. Else null.
const char* ModuleOfBuiltin(PyObject* v) {
  if (!PyCFunction_Check(v)) return nullptr;
  auto* f = reinterpret_cast<PyCFunctionObject*>(v);
  if (f->m_self == nullptr || !PyModule_Check(f->m_self)) return nullptr;
  const char* module = PyModule_GetName(f->m_self);
  PyObject* found =
      module != nullptr ? PyObject_GetAttrString(f->m_self, f->m_ml->ml_name) : nullptr;
  if (found == nullptr) PyErr_Clear();
  Py_XDECREF(found);
  return found == v ? module : nullptr;
}

// Why `v` is not a plain value (call_capture.h), or "" when it is. With `functions`, a C
// function of a module (ModuleOfBuiltin) is plain too: arguments are written as Python
// expressions, results only as literals.
std::string NotPlain(PyObject* v, int depth, bool functions = false) {
  if (depth > kMaxDepth) return "nested too deep";
  if (functions && ModuleOfBuiltin(v) != nullptr) return "";
  if (v == Py_None || PyBool_Check(v) || PyLong_CheckExact(v) || PyUnicode_CheckExact(v) ||
      PyBytes_CheckExact(v)) {
    return "";
  }
  if (PyFloat_CheckExact(v)) return std::isfinite(PyFloat_AS_DOUBLE(v)) ? "" : "a non-finite float";
  if (PyTuple_CheckExact(v) || PyList_CheckExact(v)) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
    if (n > kMaxItems) return "too many items";
    for (Py_ssize_t i = 0; i < n; i++) {
      std::string why = NotPlain(PySequence_Fast_GET_ITEM(v, i), depth + 1, functions);
      if (!why.empty()) return why;
    }
    return "";
  }
  if (PyDict_CheckExact(v)) {
    if (PyDict_GET_SIZE(v) > kMaxItems) return "too many items";
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(v, &pos, &key, &value)) {
      std::string why = NotPlain(key, depth + 1, functions);
      if (why.empty()) why = NotPlain(value, depth + 1, functions);
      if (!why.empty()) return why;
    }
    return "";
  }
  return std::string("a ") + Py_TYPE(v)->tp_name;
}

// A Python expression for plain `v`: its repr (which runs no code of the program's), a C
// function as an attribute of its module, containers item by item.
std::string Expression(PyObject* v) {
  if (const char* module = ModuleOfBuiltin(v)) {
    return "__import__('importlib').import_module('" + std::string(module) + "')." +
           reinterpret_cast<PyCFunctionObject*>(v)->m_ml->ml_name;
  }
  if (PyTuple_CheckExact(v) || PyList_CheckExact(v)) {
    const bool tuple = PyTuple_CheckExact(v);
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
    std::string out = tuple ? "(" : "[";
    for (Py_ssize_t i = 0; i < n; i++) {
      out += (i > 0 ? ", " : "") + Expression(PySequence_Fast_GET_ITEM(v, i));
    }
    return out + (tuple && n == 1 ? ",)" : tuple ? ")" : "]");
  }
  if (PyDict_CheckExact(v)) {
    std::string out = "{";
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(v, &pos, &key, &value)) {
      out += (out.size() > 1 ? ", " : "") + Expression(key) + ": " + Expression(value);
    }
    return out + "}";
  }
  PyObject* r = PyObject_Repr(v);
  if (r == nullptr) {
    PyErr_Clear();
    return "None";
  }
  const char* text = PyUnicode_AsUTF8(r);
  std::string out = text != nullptr ? text : "None";
  if (text == nullptr) PyErr_Clear();
  Py_DECREF(r);
  return out;
}

// One record a line; text from user code with invalid UTF-8 is replaced, never thrown.
void Write(const nlohmann::ordered_json& record) {
  FILE* f = std::fopen(State().settings.file.c_str(), "a");
  if (f == nullptr) return;
  const std::string line =
      record.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  std::fputs(line.c_str(), f);
  std::fclose(f);
}

std::string LocalName(PyCodeObject* code, int i) {
  const char* s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(code->co_localsplusnames, i));
  return s != nullptr ? s : "?";
}

// Why this call is not captured, or "": the argument values (their reprs) added to `record`.
std::string Arguments(_PyInterpreterFrame* frame, nlohmann::ordered_json* record) {
  PyCodeObject* code = frame->f_code;
  if ((code->co_flags & CO_OPTIMIZED) == 0) return "a module or class body";
  if ((code->co_flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR)) != 0) {
    return "a generator or coroutine";
  }
  if (code->co_nfreevars > 0) return "a closure (its free variables are not arguments)";
  const int positional = code->co_argcount, kwonly = code->co_kwonlyargcount;
  const int varargs = (code->co_flags & CO_VARARGS) != 0 ? 1 : 0;
  const int varkw = (code->co_flags & CO_VARKEYWORDS) != 0 ? 1 : 0;
  nlohmann::ordered_json args = nlohmann::ordered_json::array();
  nlohmann::ordered_json kwargs = nlohmann::ordered_json::object();
  for (int i = 0; i < positional + kwonly + varargs + varkw; i++) {
    PyObject* v = frame->localsplus[i];
    if (v == nullptr) return "argument " + LocalName(code, i) + " is unbound";
    const std::string why = NotPlain(v, 0, true);
    if (!why.empty()) return "argument " + LocalName(code, i) + " is " + why;
    if (i < positional) {
      args.push_back(Expression(v));
    } else if (i < positional + kwonly) {
      kwargs[LocalName(code, i)] = Expression(v);
    }
  }
  (*record)["args"] = std::move(args);
  (*record)["kwargs"] = std::move(kwargs);
  if (varargs) (*record)["varargs"] = Expression(frame->localsplus[positional + kwonly]);
  if (varkw) (*record)["varkw"] = Expression(frame->localsplus[positional + kwonly + varargs]);
  return "";
}

}  // namespace

bool g_capture_active = false;

void ConfigureCapture(const CaptureSettings& settings) {
  State().settings = settings;
  State().written = 0;
  g_capture_active = !settings.file.empty() && settings.max_calls > 0;
}

nlohmann::ordered_json BeginCapture(const std::string& name, _PyInterpreterFrame* frame) {
  PyCodeObject* code = frame->f_code;
  const char* file = PyUnicode_AsUTF8(code->co_filename);
  if (file == nullptr) PyErr_Clear();
  nlohmann::ordered_json record = {{"function", name},
                                   {"filename", file != nullptr ? file : "?"},
                                   {"firstlineno", code->co_firstlineno}};
  const std::string why = Arguments(frame, &record);
  if (!why.empty()) {
    if (!State().refusal_written) {
      nlohmann::ordered_json refusal = {{"function", record["function"]},
                                        {"filename", record["filename"]},
                                        {"firstlineno", record["firstlineno"]},
                                        {"not_plain", why}};
      Write(refusal);
    }
    State().refusal_written = true;
    return nullptr;
  }
  return record;
}

void EndCapture(nlohmann::ordered_json record, PyObject* result) {
  if (result == nullptr) {
    PyObject* type = PyErr_Occurred();
    record["raised"] = type != nullptr ? reinterpret_cast<PyTypeObject*>(type)->tp_name : "?";
  } else if (NotPlain(result, 0).empty()) {
    record["result"] = Expression(result);
  } else {
    record["result_type"] = Py_TYPE(result)->tp_name;
  }
  Write(record);
  if (++State().written >= State().settings.max_calls) g_capture_active = false;
}

}  // namespace a64jit::python
