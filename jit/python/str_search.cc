// The entries of str_search.h. Each does what Objects/unicodeobject.c's method does after
// stringlib_parse_args_finds: start 0 and end PY_SSIZE_T_MAX unless given, then the public
// function that shares the method's code (unicode_find and PyUnicode_Find both end in
// any_find_slice; unicode_startswith and PyUnicode_Tailmatch in tailmatch; unicode_count and
// PyUnicode_Count adjust the bounds and count alike).
#include "jit/python/str_search.h"

#include <cstring>

#include "jit/python/method_trampolines.h"
#include "jit/python/plain_bound.h"

namespace a64jit::runtime {

namespace {

enum class Search { kStartsWith, kEndsWith, kFind, kRFind, kIndex, kRIndex, kCount };

// The substring and bounds of a call whose arguments need no conversion: an exact str, then
// up to two bounds that are None or exact ints. False for anything else (a tuple of prefixes,
// a str subclass, an __index__ object, a wrong count), which the method itself handles.
bool PlainSearchArgs(PyObject* const* args, Py_ssize_t nargs, Py_ssize_t* start, Py_ssize_t* end) {
  if (nargs < 1 || nargs > 3 || !PyUnicode_CheckExact(args[0])) return false;
  *start = 0;
  *end = PY_SSIZE_T_MAX;
  return (nargs < 2 || PlainBound(args[1], 0, start)) &&
         (nargs < 3 || PlainBound(args[2], PY_SSIZE_T_MAX, end));
}

// The result of an index search as the method gives it: -2 is the error PyUnicode_Find
// raised, -1 (index and rindex) "substring not found", as unicode_index raises it.
PyObject* FoundIndex(Py_ssize_t at, bool raise_if_missing) {
  if (at == -2) return nullptr;
  if (at == -1 && raise_if_missing) {
    PyErr_SetString(PyExc_ValueError, "substring not found");
    return nullptr;
  }
  return PyLong_FromSsize_t(at);
}

template <Search kind>
PyObject* a64_str_search(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                         const PyMethodDef* def) {
  Py_ssize_t start = 0;
  Py_ssize_t end = 0;
  if (!PlainSearchArgs(args, nargs, &start, &end)) {
    return a64_varargs_method(self, args, nargs, def);
  }
  PyObject* sub = args[0];
  switch (kind) {
    case Search::kStartsWith:
    case Search::kEndsWith: {
      const Py_ssize_t r =
          PyUnicode_Tailmatch(self, sub, start, end, kind == Search::kStartsWith ? -1 : 1);
      return r < 0 ? nullptr : PyBool_FromLong(static_cast<long>(r));
    }
    case Search::kFind:
    case Search::kIndex:
      return FoundIndex(PyUnicode_Find(self, sub, start, end, 1), kind == Search::kIndex);
    case Search::kRFind:
    case Search::kRIndex:
      return FoundIndex(PyUnicode_Find(self, sub, start, end, -1), kind == Search::kRIndex);
    case Search::kCount: {
      const Py_ssize_t n = PyUnicode_Count(self, sub, start, end);
      return n < 0 ? nullptr : PyLong_FromSsize_t(n);
    }
  }
  return nullptr;
}

struct Method {
  const char* name;
  void* entry;
};
const Method kMethods[] = {
    {"startswith", reinterpret_cast<void*>(&a64_str_search<Search::kStartsWith>)},
    {"endswith", reinterpret_cast<void*>(&a64_str_search<Search::kEndsWith>)},
    {"find", reinterpret_cast<void*>(&a64_str_search<Search::kFind>)},
    {"rfind", reinterpret_cast<void*>(&a64_str_search<Search::kRFind>)},
    {"index", reinterpret_cast<void*>(&a64_str_search<Search::kIndex>)},
    {"rindex", reinterpret_cast<void*>(&a64_str_search<Search::kRIndex>)},
    {"count", reinterpret_cast<void*>(&a64_str_search<Search::kCount>)},
};

}  // namespace

void* StrSearchEntry(const PyMethodDef* def) {
  // str's own METH_VARARGS methods only (its static table, which its descriptors and the
  // methods bound from them point into): a subclass's or another type's method of the same
  // name is some other function.
  if (def->ml_flags != METH_VARARGS) return nullptr;
  bool own = false;
  for (const PyMethodDef* d = PyUnicode_Type.tp_methods; d->ml_name != nullptr && !own; d++) {
    own = d == def;
  }
  if (!own) return nullptr;
  for (const Method& m : kMethods) {
    if (std::strcmp(def->ml_name, m.name) == 0) return m.entry;
  }
  return nullptr;
}

}  // namespace a64jit::runtime
