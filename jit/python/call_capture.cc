#include "jit/python/call_capture.h"

#include <cmath>
#include <cstdio>

#include "jit/python/json_text.h"

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

std::string ReprJson(PyObject* v) { return JsonString(Expression(v)); }

void Write(const std::string& line) {
  FILE* f = std::fopen(State().settings.file.c_str(), "a");
  if (f == nullptr) return;
  std::fputs((line + "\n").c_str(), f);
  std::fclose(f);
}

std::string LocalName(PyCodeObject* code, int i) {
  const char* s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(code->co_localsplusnames, i));
  return s != nullptr ? s : "?";
}

// Why this call is not captured, or "": the argument values, as JSON members, in `out`.
std::string Arguments(_PyInterpreterFrame* frame, std::string* out) {
  PyCodeObject* code = frame->f_code;
  if ((code->co_flags & CO_OPTIMIZED) == 0) return "a module or class body";
  if ((code->co_flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR)) != 0) {
    return "a generator or coroutine";
  }
  if (code->co_nfreevars > 0) return "a closure (its free variables are not arguments)";
  const int positional = code->co_argcount, kwonly = code->co_kwonlyargcount;
  const int varargs = (code->co_flags & CO_VARARGS) != 0 ? 1 : 0;
  const int varkw = (code->co_flags & CO_VARKEYWORDS) != 0 ? 1 : 0;
  std::string args = "[", kw = "{";
  for (int i = 0; i < positional + kwonly + varargs + varkw; i++) {
    PyObject* v = frame->localsplus[i];
    if (v == nullptr) return "argument " + LocalName(code, i) + " is unbound";
    const std::string why = NotPlain(v, 0, true);
    if (!why.empty()) return "argument " + LocalName(code, i) + " is " + why;
    if (i < positional) {
      args += (i > 0 ? ", " : "") + ReprJson(v);
    } else if (i < positional + kwonly) {
      kw += (kw.size() > 1 ? ", " : "") + JsonString(LocalName(code, i)) + ": " + ReprJson(v);
    }
  }
  *out = "\"args\": " + args + "], \"kwargs\": " + kw + "}";
  if (varargs) *out += ", \"varargs\": " + ReprJson(frame->localsplus[positional + kwonly]);
  if (varkw) *out += ", \"varkw\": " + ReprJson(frame->localsplus[positional + kwonly + varargs]);
  return "";
}

}  // namespace

bool g_capture_active = false;

void ConfigureCapture(const CaptureSettings& settings) {
  State().settings = settings;
  State().written = 0;
  g_capture_active = !settings.file.empty() && settings.max_calls > 0;
}

std::string BeginCapture(const std::string& name, _PyInterpreterFrame* frame) {
  std::string args;
  const std::string why = Arguments(frame, &args);
  PyCodeObject* code = frame->f_code;
  const char* file = PyUnicode_AsUTF8(code->co_filename);
  const std::string head = "{\"function\": " + JsonString(name) +
                           ", \"filename\": " + JsonString(file != nullptr ? file : "?") +
                           ", \"firstlineno\": " + std::to_string(code->co_firstlineno);
  if (file == nullptr) PyErr_Clear();
  if (!why.empty()) {
    if (!State().refusal_written) Write(head + ", \"not_plain\": " + JsonString(why) + "}");
    State().refusal_written = true;
    return "";
  }
  return head + ", " + args;
}

void EndCapture(std::string record, PyObject* result) {
  if (result == nullptr) {
    PyObject* type = PyErr_Occurred();
    record += ", \"raised\": " +
              JsonString(type != nullptr ? reinterpret_cast<PyTypeObject*>(type)->tp_name : "?");
  } else if (NotPlain(result, 0).empty()) {
    record += ", \"result\": " + ReprJson(result);
  } else {
    record += ", \"result_type\": " + JsonString(Py_TYPE(result)->tp_name);
  }
  Write(record + "}");
  if (++State().written >= State().settings.max_calls) g_capture_active = false;
}

}  // namespace a64jit::python
