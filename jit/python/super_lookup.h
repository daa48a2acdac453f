// LOAD_METHOD on a super object (`super().name(...)`, `super(C, self).name(...)`), without the
// bound method 3.11 makes for it (docs/cpython311.md, "super()").
#ifndef A64JIT_JIT_PYTHON_SUPER_LOOKUP_H_
#define A64JIT_JIT_PYTHON_SUPER_LOOKUP_H_

#include <Python.h>

namespace a64jit::python {

// Objects/typeobject.c's private layout of PySuper_Type's instances (cpython311_facts_test
// checks it): the class super() was given (`__class__` for the zero-argument form), the object
// (self, or a class in class-method mode), and the type whose MRO is searched.
struct SuperObject {
  PyObject ob_base;  // PyObject_HEAD
  PyTypeObject* type;
  PyObject* obj;
  PyTypeObject* obj_type;
};

// funcobject.c's private layout of classmethod and staticmethod objects (both: the callable
// they wrap, then a dict; cpython311_facts_test checks it).
struct WrappedCallable {
  PyObject ob_base;  // PyObject_HEAD
  PyObject* callable;
  PyObject* dict;
};

// `name` looked up on the exact super object `su` as its tp_getattro (super_getattro) looks
// it up: in the dicts of the MRO of obj_type after `type`. 1 when found: out is the pair the
// fused form gives where it can (super_lookup.cc QuietPair: [method, obj] for a method
// descriptor of an instance-mode super, which the call then gives obj as its first argument,
// as it would through the bound method 3.11 makes; a classmethod's function with obj_type),
// else [NULL, attribute], the descriptor's __get__ called as super_getattro calls it.
// 0, with out untouched, where super_getattro would fall to the super object's own attributes
// (a name not in those dicts, `__class__`); -1 with an exception set.
int LoadSuperMethod(PyObject* su, PyObject* name, PyObject** out);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_SUPER_LOOKUP_H_
