// Argument binding for compiled functions' vectorcall entry (see arguments.h). Layout of the
// parameters in localsplus (3.11): positional (positional-only first), keyword-only, then
// *args, then **kwargs.
#include "jit/python/arguments.h"

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace a64jit::python {

namespace {

struct Shape {
  Py_ssize_t positional;  // co_argcount
  Py_ssize_t posonly;     // co_posonlyargcount
  Py_ssize_t kwonly;      // co_kwonlyargcount
  bool varargs;
  bool varkw;
  Py_ssize_t total;  // parameters, *args and **kwargs included
};

Shape ShapeOf(const PyCodeObject* code) {
  Shape s;
  s.positional = code->co_argcount;
  s.posonly = code->co_posonlyargcount;
  s.kwonly = code->co_kwonlyargcount;
  s.varargs = (code->co_flags & CO_VARARGS) != 0;
  s.varkw = (code->co_flags & CO_VARKEYWORDS) != 0;
  s.total = ParameterCount(code);
  return s;
}

// How many of `nargs` positional arguments fill positional parameters (the rest go to *args).
Py_ssize_t Direct(const Shape& s, Py_ssize_t nargs) {
  return nargs < s.positional ? nargs : s.positional;
}

Py_ssize_t KeywordCount(PyObject* kwnames) {
  return kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
}

// Positional parameter i's default in `defaults` (__defaults__, which may be NULL), borrowed;
// NULL when it has none.
PyObject* PositionalDefault(PyObject* defaults, const Shape& s, Py_ssize_t i) {
  const Py_ssize_t d = i - (s.positional - (defaults != nullptr ? PyTuple_GET_SIZE(defaults) : 0));
  return d >= 0 ? PyTuple_GET_ITEM(defaults, d) : nullptr;
}

// The positional arguments past the parameters, args[direct .. nargs), into the new *args
// tuple `rest`, with references of its own.
void FillRest(PyObject* rest, PyObject* const* args, Py_ssize_t direct, Py_ssize_t nargs) {
  for (Py_ssize_t i = direct; i < nargs; i++)
    PyTuple_SET_ITEM(rest, i - direct, Py_NewRef(args[i]));
}

// The parameter (by localsplus index) that keyword `name` names, or -1. Identity first, as
// CPython does: keyword names are almost always the interned parameter names.
Py_ssize_t ParameterNamed(const PyCodeObject* code, const Shape& s, PyObject* name) {
  PyObject* names = code->co_localsplusnames;
  const Py_ssize_t end = s.positional + s.kwonly;
  for (Py_ssize_t i = s.posonly; i < end; i++) {
    if (PyTuple_GET_ITEM(names, i) == name) return i;
  }
  for (Py_ssize_t i = s.posonly; i < end; i++) {
    const int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(names, i), name, Py_EQ);
    if (eq < 0) PyErr_Clear();
    if (eq > 0) return i;
  }
  return -1;
}

// Keyword arguments into their parameters, or into the **kwargs dict (`extra`, may be NULL).
bool BindKeywords(const PyCodeObject* code, const Shape& s, PyObject* const* values,
                  PyObject* kwnames, PyObject** localsplus, PyObject* extra) {
  for (Py_ssize_t k = 0; k < KeywordCount(kwnames); k++) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    if (!PyUnicode_Check(name)) return false;
    const Py_ssize_t i = ParameterNamed(code, s, name);
    if (i < 0) {
      if (extra == nullptr || PyDict_Contains(extra, name) != 0) return false;
      if (PyDict_SetItem(extra, name, values[k]) < 0) return false;
      continue;
    }
    if (localsplus[i] != nullptr) return false;  // also given by position
    localsplus[i] = Py_NewRef(values[k]);
  }
  return true;
}

// Missing parameters from the function's defaults; false when one has none.
bool FillDefaults(PyFunctionObject* func, const Shape& s, PyObject** localsplus) {
  for (Py_ssize_t i = 0; i < s.positional; i++) {
    if (localsplus[i] != nullptr) continue;
    PyObject* d = PositionalDefault(func->func_defaults, s, i);
    if (d == nullptr) return false;
    localsplus[i] = Py_NewRef(d);
  }
  for (Py_ssize_t i = s.positional; i < s.positional + s.kwonly; i++) {
    if (localsplus[i] != nullptr) continue;
    if (func->func_kwdefaults == nullptr) return false;
    PyObject* name =
        PyTuple_GET_ITEM(reinterpret_cast<PyCodeObject*>(func->func_code)->co_localsplusnames, i);
    PyObject* v = PyDict_GetItemWithError(func->func_kwdefaults, name);
    if (v == nullptr) {
      PyErr_Clear();
      return false;
    }
    localsplus[i] = Py_NewRef(v);
  }
  return true;
}

bool Bind(PyFunctionObject* func, const PyCodeObject* code, const Shape& s, PyObject* const* args,
          Py_ssize_t nargs, PyObject* kwnames, PyObject** localsplus) {
  if (nargs > s.positional && !s.varargs) return false;
  const Py_ssize_t direct = Direct(s, nargs);
  for (Py_ssize_t i = 0; i < direct; i++) localsplus[i] = Py_NewRef(args[i]);
  Py_ssize_t slot = s.positional + s.kwonly;
  if (s.varargs) {
    PyObject* rest = PyTuple_New(nargs - direct);
    if (rest == nullptr) return false;
    FillRest(rest, args, direct, nargs);
    localsplus[slot++] = rest;
  }
  PyObject* extra = nullptr;
  if (s.varkw) {
    extra = PyDict_New();
    if (extra == nullptr) return false;
    localsplus[slot] = extra;
  }
  return BindKeywords(code, s, args + nargs, kwnames, localsplus, extra) &&
         FillDefaults(func, s, localsplus);
}

// A call shape's binding, worked out once and kept: for one compiled code, one count of
// positional arguments and one tuple of keyword names, which parameter each keyword fills
// (or that it goes into **kwargs), which parameters take defaults, and the keyword-only
// defaults' values as the function's __kwdefaults__ held them at one version of that dict. The
// generic Bind searches the parameter names for each keyword (a linear search, then string
// compares) and looks each missing keyword-only default up in the dict: PyTorch's
// test_type_promotion spent about 1,000 guest instructions a call there, most in its helpers that
// take **kwargs.
struct BindingPlan {
  const PyCodeObject* code = nullptr;  // compiled code, pinned by the runtime: compared only
  PyObject* kwnames = nullptr;         // a strong reference: the names, compared by identity
  Py_ssize_t nargs = -1;
  std::vector<int32_t> keyword_slot;        // per keyword, its parameter (localsplus index) or -1
  std::vector<int32_t> missing_positional;  // positional parameters left to __defaults__
  std::vector<int32_t> missing_kwonly;      // keyword-only parameters left to __kwdefaults__
  // missing_kwonly's values, borrowed from the dict `kwdefaults` at ma_version_tag
  // `kwdefaults_version`. Every change to a dict gives it a new version and a new dict never
  // has an old one (3.11's DICT_NEXT_VERSION), so a match means the values are still there.
  const PyObject* kwdefaults = nullptr;
  uint64_t kwdefaults_version = 0;
  std::vector<PyObject*> kwonly_values;
};

// Plans by hash of code, positional count and names. A new shape replaces the one in its
// slot. The table holds at most this many tuples of names alive, as compiled code is.
constexpr size_t kPlanSlots = 512;
BindingPlan g_plans[kPlanSlots];

// Inlined, as PlanMatches: an out-of-line call costs a lookup of its return under QEMU.
inline __attribute__((always_inline)) size_t PlanSlot(const PyCodeObject* code, Py_ssize_t nargs,
                                                      PyObject* kwnames) {
  uint64_t h = reinterpret_cast<uintptr_t>(code) >> 4;
  h = h * 31 + static_cast<uint64_t>(nargs);
  for (Py_ssize_t k = 0; k < KeywordCount(kwnames); k++) {
    h = h * 31 + (reinterpret_cast<uintptr_t>(PyTuple_GET_ITEM(kwnames, k)) >> 4);
  }
  return (h ^ (h >> 17)) % kPlanSlots;
}

// Whether `plan` is this call's shape: the same code and count, and the same name objects
// in the same order (a caller from C builds a new tuple per call, of the same interned names).
inline __attribute__((always_inline)) bool PlanMatches(const BindingPlan& plan,
                                                       const PyCodeObject* code, Py_ssize_t nargs,
                                                       PyObject* kwnames) {
  if (plan.code != code || plan.nargs != nargs) return false;
  if (plan.kwnames == kwnames) return true;
  const Py_ssize_t n = KeywordCount(kwnames);
  if (KeywordCount(plan.kwnames) != n) return false;
  for (Py_ssize_t k = 0; k < n; k++) {
    if (PyTuple_GET_ITEM(plan.kwnames, k) != PyTuple_GET_ITEM(kwnames, k)) return false;
  }
  return true;
}

// Whether `name` equals one of kwnames[0 .. k) (a C caller's names need not be interned).
bool RepeatsName(PyObject* kwnames, Py_ssize_t k, PyObject* name) {
  for (Py_ssize_t j = 0; j < k; j++) {
    PyObject* other = PyTuple_GET_ITEM(kwnames, j);
    if (other == name || PyUnicode_Compare(other, name) == 0) return true;
  }
  return false;
}

// Works out the plan of a call shape that binds: false, with `plan` untouched, for one that
// does not (CPython's path raises its error). Names must be exact str, so that comparing
// them, and releasing a replaced plan's tuple, runs no Python code. Out of line: inlined, its
// vectors gave BindByPlan a 512-byte frame and spills on every call (168 guest instructions a
// call of `f(i, c=3)`, 150 without).
__attribute__((noinline)) bool MakePlan(const PyCodeObject* code, const Shape& s, Py_ssize_t nargs,
                                        PyObject* kwnames, BindingPlan* plan) {
  if (nargs > s.positional && !s.varargs) return false;
  const Py_ssize_t direct = Direct(s, nargs);
  std::vector<bool> filled(static_cast<size_t>(s.positional + s.kwonly), false);
  for (Py_ssize_t i = 0; i < direct; i++) filled[i] = true;
  BindingPlan made;
  for (Py_ssize_t k = 0; k < KeywordCount(kwnames); k++) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    if (!PyUnicode_CheckExact(name)) return false;
    const Py_ssize_t i = ParameterNamed(code, s, name);
    if (i < 0 && (!s.varkw || RepeatsName(kwnames, k, name))) return false;
    if (i >= 0 && filled[i]) return false;
    if (i >= 0) filled[i] = true;
    made.keyword_slot.push_back(static_cast<int32_t>(i));  // -1: into **kwargs
  }
  for (Py_ssize_t i = 0; i < s.positional + s.kwonly; i++) {
    if (!filled[i]) (i < s.positional ? made.missing_positional : made.missing_kwonly).push_back(i);
  }
  made.code = code;
  made.nargs = nargs;
  made.kwnames = Py_XNewRef(kwnames);
  PyObject* old = plan->kwnames;
  *plan = std::move(made);
  Py_XDECREF(old);
  return true;
}

// KeywordOnlyDefaults when the plan's values are not the dict's at `version`: looked up again.
__attribute__((noinline)) bool LookUpKeywordOnlyDefaults(BindingPlan& plan, PyObject* kwdefaults,
                                                         uint64_t version,
                                                         const PyCodeObject* code) {
  plan.kwdefaults = nullptr;
  plan.kwonly_values.clear();
  for (int32_t i : plan.missing_kwonly) {
    PyObject* v =
        PyDict_GetItemWithError(kwdefaults, PyTuple_GET_ITEM(code->co_localsplusnames, i));
    if (v == nullptr) {
      PyErr_Clear();
      return false;
    }
    plan.kwonly_values.push_back(v);
  }
  // The lookups ran no code (str keys), so the dict is as it was at `version`.
  plan.kwdefaults = kwdefaults;
  plan.kwdefaults_version = version;
  return true;
}

// The keyword-only defaults `plan` leaves missing, from `kwdefaults` (checked against the
// plan's version first). False when one has none. The check inline, as PlanMatches.
inline __attribute__((always_inline)) bool KeywordOnlyDefaults(BindingPlan& plan,
                                                               PyObject* kwdefaults,
                                                               const PyCodeObject* code) {
  if (kwdefaults == nullptr || !PyDict_Check(kwdefaults)) return false;
  const uint64_t version = reinterpret_cast<PyDictObject*>(kwdefaults)->ma_version_tag;
  if (plan.kwdefaults == kwdefaults && plan.kwdefaults_version == version) return true;
  return LookUpKeywordOnlyDefaults(plan, kwdefaults, version, code);
}

// Bind by `plan`: the same references Bind makes. `rest` and `extra` are the new *args tuple
// and **kwargs dict when the code has them, allocated before the plan was looked up: an
// allocation may collect, and a finalizer may call a function whose plan replaces this one.
// Inline, so that BindByMadePlan's call (no `rest`, no `extra`) drops those parts.
inline __attribute__((always_inline)) bool ApplyPlan(BindingPlan& plan, PyFunctionObject* func,
                                                     const PyCodeObject* code, const Shape& s,
                                                     PyObject* const* args, Py_ssize_t nargs,
                                                     PyObject* kwnames, PyObject* rest,
                                                     PyObject* extra, PyObject** localsplus) {
  // Without *args the plan was made for no more arguments than positional parameters.
  const Py_ssize_t direct = rest != nullptr ? Direct(s, nargs) : nargs;
  for (Py_ssize_t i = 0; i < direct; i++) localsplus[i] = Py_NewRef(args[i]);
  Py_ssize_t slot = s.positional + s.kwonly;
  if (rest != nullptr) {
    FillRest(rest, args, direct, nargs);
    localsplus[slot++] = rest;
  }
  if (extra != nullptr) localsplus[slot] = extra;
  PyObject* const* values = args + nargs;
  for (size_t k = 0; k < plan.keyword_slot.size(); k++) {
    // Without **kwargs every keyword names a parameter (MakePlan).
    if (extra == nullptr || plan.keyword_slot[k] >= 0) {
      localsplus[plan.keyword_slot[k]] = Py_NewRef(values[k]);
    } else if (PyDict_SetItem(extra, PyTuple_GET_ITEM(kwnames, k), values[k]) < 0) {
      return false;  // exact str keys: no code runs, only memory may run out
    }
  }
  if (!plan.missing_positional.empty()) {  // defaults: the last parameters'
    PyObject* defaults = func->func_defaults;
    const Py_ssize_t first = s.positional - (defaults != nullptr ? PyTuple_GET_SIZE(defaults) : 0);
    for (int32_t i : plan.missing_positional) {
      if (i < first) return false;
      localsplus[i] = Py_NewRef(PyTuple_GET_ITEM(defaults, i - first));
    }
  }
  if (plan.missing_kwonly.empty()) return true;
  if (!KeywordOnlyDefaults(plan, func->func_kwdefaults, code)) return false;
  for (size_t j = 0; j < plan.missing_kwonly.size(); j++) {
    localsplus[plan.missing_kwonly[j]] = Py_NewRef(plan.kwonly_values[j]);
  }
  return true;
}

// A binding that failed undone: no exception set (CPython's path redoes the call and raises
// its own error), and the parameters NULL again.
bool Unbound(Py_ssize_t parameters, PyObject** localsplus) {
  PyErr_Clear();
  for (Py_ssize_t i = 0; i < parameters; i++) Py_CLEAR(localsplus[i]);
  return false;
}

// Binding by plan (made on a miss): 1 bound, 0 failed (undone), -1 no plan for this shape (the
// arguments do not bind, or a name is not an exact str), with nothing done. The *args tuple and
// the **kwargs dict come first (ApplyPlan). Out of line, its shape its own: BindArguments'
// path without a plan saves no more registers than Bind needs.
__attribute__((noinline)) int BindByPlan(PyFunctionObject* func, PyObject* const* args,
                                         Py_ssize_t nargs, PyObject* kwnames,
                                         PyObject** localsplus) {
  const auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
  const Shape s = ShapeOf(code);
  PyObject* rest = s.varargs ? PyTuple_New(nargs - Direct(s, nargs)) : nullptr;
  PyObject* extra = s.varkw ? PyDict_New() : nullptr;
  BindingPlan* plan = nullptr;
  if ((rest != nullptr || !s.varargs) && (extra != nullptr || !s.varkw)) {
    plan = &g_plans[PlanSlot(code, nargs, kwnames)];
    if (!PlanMatches(*plan, code, nargs, kwnames) && !MakePlan(code, s, nargs, kwnames, plan)) {
      plan = nullptr;
    }
  }
  if (plan == nullptr) {
    PyErr_Clear();  // an allocation's, if one failed
    Py_XDECREF(rest);
    Py_XDECREF(extra);
    return -1;
  }
  if (ApplyPlan(*plan, func, code, s, args, nargs, kwnames, rest, extra, localsplus)) return 1;
  Unbound(s.total, localsplus);
  return 0;
}

// BindByPlan's common case, kept small: code without *args or **kwargs (nothing to allocate
// first, every keyword into a parameter) whose plan for this shape is made. 1 bound, 0 failed
// (undone), -1 not this case, with nothing done. A keyword call of `f(i, c=3)` took 150 guest
// instructions in BindByPlan, which keeps the general case's values in memory across its calls.
inline int BindByMadePlan(PyFunctionObject* func, const PyCodeObject* code, PyObject* const* args,
                          Py_ssize_t nargs, PyObject* kwnames, PyObject** localsplus) {
  const Shape s = ShapeOf(code);
  if (s.varargs || s.varkw) return -1;
  BindingPlan& plan = g_plans[PlanSlot(code, nargs, kwnames)];
  if (!PlanMatches(plan, code, nargs, kwnames)) return -1;
  if (ApplyPlan(plan, func, code, s, args, nargs, kwnames, nullptr, nullptr, localsplus)) return 1;
  return Unbound(s.total, localsplus);
}

}  // namespace

PyObject* ArgumentTuple(PyObject* const* args, Py_ssize_t nargs) {
  PyObject* tuple = PyTuple_New(nargs);
  if (tuple != nullptr) FillRest(tuple, args, 0, nargs);
  return tuple;
}

bool BindArguments(PyFunctionObject* func, PyObject* const* args, Py_ssize_t nargs,
                   PyObject* kwnames, PyObject** localsplus) {
  const auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
  // Positional arguments and defaults alone bind faster without a plan: there are no names
  // to search and no dict to look in.
  if (kwnames != nullptr || code->co_kwonlyargcount > 0) {
    int planned = BindByMadePlan(func, code, args, nargs, kwnames, localsplus);
    if (planned < 0) planned = BindByPlan(func, args, nargs, kwnames, localsplus);
    if (planned >= 0) return planned == 1;
  }
  const Shape s = ShapeOf(code);
  return Bind(func, code, s, args, nargs, kwnames, localsplus) || Unbound(s.total, localsplus);
}

}  // namespace a64jit::python
