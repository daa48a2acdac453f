#include "jit/python/code_info.h"

#include <internal/pycore_code.h>
#include <internal/pycore_gc.h>
#include <opcode.h>

#include <cstring>
#include <stdexcept>
#include <tuple>
#include <utility>

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

// 3.11's adaptive forms: what quickening makes of each specialisable instruction.
bool IsAdaptive(int opcode) {
  switch (opcode) {
    case BINARY_OP_ADAPTIVE:
    case BINARY_SUBSCR_ADAPTIVE:
    case CALL_ADAPTIVE:
    case COMPARE_OP_ADAPTIVE:
    case LOAD_ATTR_ADAPTIVE:
    case LOAD_GLOBAL_ADAPTIVE:
    case LOAD_METHOD_ADAPTIVE:
    case PRECALL_ADAPTIVE:
    case STORE_ATTR_ADAPTIVE:
    case STORE_SUBSCR_ADAPTIVE:
    case UNPACK_SEQUENCE_ADAPTIVE:
      return true;
    default:
      return false;
  }
}

// hir::CodeInfo::super_class_slot: where 3.11's super_init_without_args finds the class
// (the free variable named `__class__`), when the object it finds is local 0 itself.
int SuperClassSlot(const PyCodeObject* code) {
  if (code->co_argcount < 1 || (_PyLocals_GetKind(code->co_localspluskinds, 0) & CO_FAST_CELL)) {
    return -1;
  }
  for (int i = code->co_nlocals + code->co_nplaincellvars; i < code->co_nlocalsplus; i++) {
    if (Utf8(PyTuple_GET_ITEM(code->co_localsplusnames, i)) == "__class__") return i;
  }
  return -1;
}

}  // namespace

hir::CodeInfo CodeInfoOf(PyCodeObject* code, const std::string& module, PyObject* globals) {
  hir::CodeInfo info;
  info.qualname = Utf8(code->co_qualname);
  info.module = module;
  PyObject* bytes = PyCode_GetCode(code);  // unquickened
  if (bytes == nullptr) throw std::runtime_error("co_code unavailable");
  const Py_ssize_t n = PyBytes_GET_SIZE(bytes) / 2;
  info.code.resize(static_cast<size_t>(n));
  std::memcpy(info.code.data(), PyBytes_AS_STRING(bytes), static_cast<size_t>(n) * 2);
  Py_DECREF(bytes);
  // 3.11 quickens a code object in place once co_warmup has counted up to 0 (8 runs): from
  // then on co_code_adaptive holds adaptive and specialised opcodes, the type feedback.
  if (code->co_warmup == 0) {
    const _Py_CODEUNIT* quickened = _PyCode_CODE(code);
    info.quickened.resize(static_cast<size_t>(n));
    info.unrun.resize(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; i++) {
      const int op = _Py_OPCODE(quickened[i]);
      info.quickened[static_cast<size_t>(i)] = static_cast<uint8_t>(op);
      // Every inline cache starts with its counter, the unit after the instruction.
      info.unrun[static_cast<size_t>(i)] = IsAdaptive(op) && i + 1 < n && quickened[i + 1] == 0;
    }
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(code->co_consts); i++) {
    info.const_reprs.push_back(Repr(PyTuple_GET_ITEM(code->co_consts, i)));
  }
  info.names = Strings(code->co_names);
  if (globals != nullptr && PyDict_CheckExact(globals)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(code->co_names); i++) {
      // Only a guess for lowering: a lookup that fails (an odd key's __eq__) counts as absent.
      PyObject* v = PyDict_GetItemWithError(globals, PyTuple_GET_ITEM(code->co_names, i));
      if (v == nullptr) PyErr_Clear();
      info.global_kinds.push_back(v == nullptr             ? hir::CodeInfo::kNotGlobal
                                  : PyModule_CheckExact(v) ? hir::CodeInfo::kGlobalModule
                                                           : hir::CodeInfo::kGlobal);
    }
  }
  info.localsplus_names = Strings(code->co_localsplusnames);
  info.nlocalsplus = code->co_nlocalsplus;
  info.nargs = code->co_argcount + code->co_kwonlyargcount +
               ((code->co_flags & CO_VARARGS) ? 1 : 0) +
               ((code->co_flags & CO_VARKEYWORDS) ? 1 : 0);
  info.flags = code->co_flags;
  info.first_traceable = code->_co_firsttraceable;
  info.super_class_slot = SuperClassSlot(code);
  const auto* table = reinterpret_cast<const uint8_t*>(PyBytes_AS_STRING(code->co_exceptiontable));
  info.exception_table.assign(table, table + PyBytes_GET_SIZE(code->co_exceptiontable));
  return info;
}

namespace {
// `type`'s address if its objects have the size of the mirrored `Layout`, else 0 (no inline
// path): a CPython build with another layout gets the helpers, not wrong reads.
static_assert(sizeof(PyGC_Head) == lower::kGcHeadBytes, "object_layouts.h kGcHeadBytes");

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
  if (PyTuple_CheckExact(c)) return K::kTuple;
  return K::kOther;
}
}  // namespace

namespace {

// The callables lowering makes inline (jit/hir/known_calls.h), looked up once and held
// for the life of the process, so that no other object can take their addresses.
struct KnownCallees {
  uint64_t len = 0, isinstance = 0, list_append = 0, ord = 0, chr = 0;
};

uint64_t HeldBuiltin(PyObject* builtins, const char* name) {
  PyObject* f = builtins != nullptr ? PyDict_GetItemString(builtins, name) : nullptr;
  if (f == nullptr || !PyCFunction_Check(f)) return 0;
  Py_INCREF(f);  // kept
  return reinterpret_cast<uint64_t>(f);
}

// Nothing here may run Python code: the first compilation can happen anywhere, even while
// the interpreter shuts down (a __del__ run by the last collection, when importing would
// run importlib, whose functions would be compiled, which would come back here). So the
// builtins come from the running frame's (or the interpreter's) dict, not an import, and a
// call that comes back here anyway gets no known callees rather than a recursive init.
KnownCallees LookUpKnownCallees() {
  KnownCallees c;
  PyObject* builtins = PyEval_GetBuiltins();  // borrowed
  c.len = HeldBuiltin(builtins, "len");
  c.isinstance = HeldBuiltin(builtins, "isinstance");
  c.ord = HeldBuiltin(builtins, "ord");
  c.chr = HeldBuiltin(builtins, "chr");
  PyObject* append = PyDict_GetItemString(PyList_Type.tp_dict, "append");
  if (append != nullptr && Py_IS_TYPE(append, &PyMethodDescr_Type)) {
    Py_INCREF(append);
    c.list_append = reinterpret_cast<uint64_t>(append);
  }
  PyErr_Clear();
  return c;
}

const KnownCallees& TheKnownCallees() {
  static KnownCallees callees;
  static bool looked_up = false;
  if (!looked_up) {
    looked_up = true;
    callees = LookUpKnownCallees();
  }
  return callees;
}

// The address of make(0) when make(i) for every i in [first, last] is one object, `stride`
// bytes after make(i - 1) (an array of the runtime's singletons); else 0.
template <typename Make>
uint64_t SingletonArrayAt0(long first, long last, int64_t stride, Make make) {
  PyObject* zero = make(0);
  if (zero == nullptr) {
    PyErr_Clear();
    return 0;
  }
  const auto base = reinterpret_cast<int64_t>(zero);
  bool ok = true;
  for (long i = first; i <= last && ok; i++) {
    PyObject* v = make(i);
    ok = v != nullptr && reinterpret_cast<int64_t>(v) == base + i * stride;
    Py_XDECREF(v);
  }
  Py_DECREF(zero);
  PyErr_Clear();
  return ok ? static_cast<uint64_t>(base) : 0;
}

// The int 0 among 3.11's small ints: _PyRuntime's array of PyLongObject from -5 to 256, the
// address the runtime's own boxing (a64_box_int) uses too (interp_state.h).
uint64_t SmallIntZero() {
  static_assert(sizeof(PyLongObject) == lower::kSmallIntStride, "the small ints' stride");
  return reinterpret_cast<uint64_t>(SmallIntZeroObject());
}

// chr(0) among 3.11's one-character ASCII strs (_Py_SINGLETON(strings).ascii), and the
// bytes between two of them; {0, 0} if chr(0 .. 127) are not such an array.
std::pair<uint64_t, int64_t> AsciiChars() {
  static const std::pair<uint64_t, int64_t> chars = [] {
    const auto one_char = [](long i) { return PyUnicode_FromOrdinal(static_cast<int>(i)); };
    PyObject* a = one_char(0);
    PyObject* b = one_char(1);
    const int64_t stride = reinterpret_cast<int64_t>(b) - reinterpret_cast<int64_t>(a);
    Py_DECREF(a);
    Py_DECREF(b);
    const uint64_t zero = stride > 0 ? SingletonArrayAt0(0, 127, stride, one_char) : 0;
    return std::make_pair(zero, zero != 0 ? stride : int64_t{0});
  }();
  return chars;
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
    const bool ascii_char =
        PyUnicode_CheckExact(c) && PyUnicode_GET_LENGTH(c) == 1 && PyUnicode_IS_ASCII(c);
    rt.ascii_char_consts.push_back(ascii_char ? static_cast<int>(PyUnicode_READ_CHAR(c, 0)) : -1);
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
  rt.py_module_type = reinterpret_cast<uint64_t>(&PyModule_Type);
  rt.py_type_type = reinterpret_cast<uint64_t>(&PyType_Type);
  rt.py_dict_type = reinterpret_cast<uint64_t>(&PyDict_Type);
  rt.py_tuple_type = reinterpret_cast<uint64_t>(&PyTuple_Type);
  rt.py_list_iter_type = TypeIfSized<lower::SequenceIterLayout>(&PyListIter_Type);
  rt.py_tuple_iter_type = TypeIfSized<lower::SequenceIterLayout>(&PyTupleIter_Type);
  rt.py_range_iter_type = TypeIfSized<lower::RangeIterLayout>(&PyRangeIter_Type);
  rt.py_enum_type = TypeIfSized<lower::EnumerateLayout>(&PyEnum_Type);
  rt.py_dict_item_iter_type = TypeIfSized<lower::DictIterLayout>(&PyDictIterItem_Type);
  rt.py_dict_key_iter_type = TypeIfSized<lower::DictIterLayout>(&PyDictIterKey_Type);
  rt.py_dict_value_iter_type = TypeIfSized<lower::DictIterLayout>(&PyDictIterValue_Type);
  rt.py_zip_type = TypeIfSized<lower::ZipLayout>(&PyZip_Type);
  rt.eval_breaker = reinterpret_cast<uint64_t>(EvalBreakerAddress(PyInterpreterState_Get()));
  if (FloatFreeListMatches()) {
    rt.float_free_list = reinterpret_cast<uint64_t>(FloatFreeListAddress(PyInterpreterState_Get()));
    rt.tracemalloc_tracing = reinterpret_cast<uint64_t>(TracemallocTracingAddress());
  }
  // Never deallocated: a decrement per call for 2^60 calls does not reach 0.
  static PyObject null_sink = {_PyObject_EXTRA_INIT int64_t{1} << 60, &PyBaseObject_Type};
  rt.null_sink = reinterpret_cast<uint64_t>(&null_sink);
  rt.builtin_len = TheKnownCallees().len;
  rt.builtin_isinstance = TheKnownCallees().isinstance;
  rt.list_append = TheKnownCallees().list_append;
  rt.builtin_ord = TheKnownCallees().ord;
  rt.builtin_chr = TheKnownCallees().chr;
  rt.small_int_zero = SmallIntZero();
  std::tie(rt.ascii_char_zero, rt.ascii_char_stride) = AsciiChars();
  return rt;
}

}  // namespace a64jit::python
