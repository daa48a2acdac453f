#include "jit/python/code_info.h"

#include <internal/pycore_code.h>

#include <cstring>
#include <stdexcept>

#include "jit/lower/object_layouts.h"
#include "jit/python/interp_state.h"

namespace a64jit::python {

std::string TakePythonError() {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyObject* s = value != nullptr ? PyObject_Str(value) : nullptr;
  std::string text = s != nullptr && PyUnicode_Check(s) ? PyUnicode_AsUTF8(s) : "unknown error";
  PyErr_Clear();
  Py_XDECREF(s);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  return text;
}

std::string Utf8(PyObject* s) {
  if (s == nullptr || !PyUnicode_Check(s)) return "?";
  const char* c = PyUnicode_AsUTF8(s);
  if (c == nullptr) {
    PyErr_Clear();
    return "?";
  }
  return c;
}

namespace {

std::string Repr(PyObject* o) {
  // A code object's repr holds its address; dumps and goldens must not change run to run.
  if (PyCode_Check(o)) {
    return "<code " + Utf8(reinterpret_cast<PyCodeObject*>(o)->co_qualname) + ">";
  }
  PyObject* r = PyObject_Repr(o);
  if (r == nullptr) {
    PyErr_Clear();
    return "<unrepresentable>";
  }
  std::string s = Utf8(r);
  Py_DECREF(r);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  for (char& ch : s) {
    if (ch == '\n') ch = ' ';
  }
  return s;
}

std::vector<std::string> Strings(PyObject* tuple) {
  std::vector<std::string> out;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
    out.push_back(Utf8(PyTuple_GET_ITEM(tuple, i)));
  }
  return out;
}

}  // namespace

hir::CodeInfo CodeInfoOf(PyCodeObject* code, const std::string& module) {
  hir::CodeInfo info;
  info.qualname = Utf8(code->co_qualname);
  info.module = module;
  PyObject* bytes = PyCode_GetCode(code);  // unquickened
  if (bytes == nullptr) throw std::runtime_error("co_code unavailable");
  const Py_ssize_t n = PyBytes_GET_SIZE(bytes) / 2;
  info.code.resize(static_cast<size_t>(n));
  std::memcpy(info.code.data(), PyBytes_AS_STRING(bytes), static_cast<size_t>(n) * 2);
  Py_DECREF(bytes);
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(code->co_consts); i++) {
    info.const_reprs.push_back(Repr(PyTuple_GET_ITEM(code->co_consts, i)));
  }
  info.names = Strings(code->co_names);
  info.localsplus_names = Strings(code->co_localsplusnames);
  info.nlocalsplus = code->co_nlocalsplus;
  info.nargs = code->co_argcount + code->co_kwonlyargcount +
               ((code->co_flags & CO_VARARGS) ? 1 : 0) +
               ((code->co_flags & CO_VARKEYWORDS) ? 1 : 0);
  info.flags = code->co_flags;
  info.first_traceable = code->_co_firsttraceable;
  const auto* table = reinterpret_cast<const uint8_t*>(PyBytes_AS_STRING(code->co_exceptiontable));
  info.exception_table.assign(table, table + PyBytes_GET_SIZE(code->co_exceptiontable));
  return info;
}

namespace {
// `type`'s address if its objects have the size of the mirrored `Layout`, else 0 (no inline
// path): a CPython build with another layout gets the helpers, not wrong reads.
template <typename Layout>
uint64_t TypeIfSized(PyTypeObject* type) {
  return type->tp_basicsize == sizeof(Layout) ? reinterpret_cast<uint64_t>(type) : 0;
}

// The free list's layout as this build has it (interp_state.c) is the one lowering mirrors.
bool FloatFreeListMatches() {
  using L = lower::FloatFreeListLayout;
  const FloatFreeListFacts& f = kFloatFreeListFacts;
  return f.size == sizeof(L) && f.numfree_offset == offsetof(L, numfree) &&
         f.free_list_offset == offsetof(L, free_list) && f.max_free == lower::kFloatFreeListMax;
}
}  // namespace

namespace {
lower::RuntimeAddresses::ConstKind KindOf(PyObject* c) {
  using K = lower::RuntimeAddresses::ConstKind;
  if (PyLong_CheckExact(c)) return K::kInt;
  if (PyFloat_CheckExact(c)) return K::kFloat;
  if (PyUnicode_CheckExact(c)) return PyUnicode_CHECK_INTERNED(c) ? K::kInternedStr : K::kStr;
  return K::kOther;
}
}  // namespace

lower::RuntimeAddresses AddressesOf(PyCodeObject* code) {
  lower::RuntimeAddresses rt;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(code->co_consts); i++) {
    PyObject* c = PyTuple_GET_ITEM(code->co_consts, i);
    rt.consts.push_back(reinterpret_cast<uint64_t>(c));
    std::optional<int64_t> small;
    if (PyLong_CheckExact(c) && Py_SIZE(c) >= -1 && Py_SIZE(c) <= 1) small = PyLong_AsLong(c);
    rt.small_int_consts.push_back(small);
    rt.const_kinds.push_back(KindOf(c));
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(code->co_names); i++) {
    rt.names.push_back(reinterpret_cast<uint64_t>(PyTuple_GET_ITEM(code->co_names, i)));
  }
  rt.first_instr = reinterpret_cast<uint64_t>(_PyCode_CODE(code));
  rt.py_true = reinterpret_cast<uint64_t>(Py_True);
  rt.py_false = reinterpret_cast<uint64_t>(Py_False);
  rt.py_none = reinterpret_cast<uint64_t>(Py_None);
  rt.py_long_type = reinterpret_cast<uint64_t>(&PyLong_Type);
  rt.py_list_type = reinterpret_cast<uint64_t>(&PyList_Type);
  rt.py_float_type = reinterpret_cast<uint64_t>(&PyFloat_Type);
  rt.py_str_type = reinterpret_cast<uint64_t>(&PyUnicode_Type);
  rt.py_tuple_type = reinterpret_cast<uint64_t>(&PyTuple_Type);
  rt.py_list_iter_type = TypeIfSized<lower::SequenceIterLayout>(&PyListIter_Type);
  rt.py_tuple_iter_type = TypeIfSized<lower::SequenceIterLayout>(&PyTupleIter_Type);
  rt.py_range_iter_type = TypeIfSized<lower::RangeIterLayout>(&PyRangeIter_Type);
  rt.eval_breaker = reinterpret_cast<uint64_t>(EvalBreakerAddress(PyInterpreterState_Get()));
  if (FloatFreeListMatches()) {
    rt.float_free_list = reinterpret_cast<uint64_t>(FloatFreeListAddress(PyInterpreterState_Get()));
    rt.tracemalloc_tracing = reinterpret_cast<uint64_t>(TracemallocTracingAddress());
  }
  // Never deallocated: a decrement per call for 2^60 calls does not reach 0.
  static PyObject null_sink = {_PyObject_EXTRA_INIT int64_t{1} << 60, &PyBaseObject_Type};
  rt.null_sink = reinterpret_cast<uint64_t>(&null_sink);
  return rt;
}

namespace {
std::vector<std::string>& OpcodeNames() {
  static std::vector<std::string> names;
  return names;
}
}  // namespace

void LoadOpcodeNames() {
  if (!OpcodeNames().empty()) return;
  PyObject* mod = PyImport_ImportModule("opcode");
  PyObject* names = mod != nullptr ? PyObject_GetAttrString(mod, "opname") : nullptr;
  Py_XDECREF(mod);
  if (names != nullptr && PyList_Check(names)) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names); i++) {
      OpcodeNames().push_back(Utf8(PyList_GET_ITEM(names, i)));
    }
  }
  Py_XDECREF(names);
  PyErr_Clear();
}

std::string OpcodeName(int opcode) {
  const auto& names = OpcodeNames();
  if (opcode >= 0 && opcode < static_cast<int>(names.size())) {
    return names[static_cast<size_t>(opcode)];
  }
  return "opcode " + std::to_string(opcode);
}

}  // namespace a64jit::python
