// Calling a user class whose __init__ is a Python function, from compiled code
// (instantiate.cc). The helpers compiled code calls (a64_init_enter, a64_init_leave) are
// declared with the others in jit/runtime/helpers.h.
#ifndef A64JIT_JIT_PYTHON_INSTANTIATE_H_
#define A64JIT_JIT_PYTHON_INSTANTIATE_H_

#include <Python.h>

namespace a64jit::runtime {

// Whether calling `type` is object_new then a Python __init__ and nothing else of note (no
// metaclass __call__, object's __new__, not abstract), or a Python __new__ with object's
// __init__: a call site may cache it with a64_instantiate as its entry.
bool Instantiable(PyTypeObject* type);

// The C entry of a cached class (vectorcall's convention, the class first): the object from
// object_new and __init__ called with it first, a compiled one entered directly. Anything
// else, including an object that took a dead cached class's address, is called the generic
// way. The call stub recognises a site's cache by this entry and takes the class through
// a64_init_enter instead.
PyObject* a64_instantiate(PyObject* callable, PyObject* const* args, size_t nargsf,
                          PyObject* kwnames);

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_PYTHON_INSTANTIATE_H_
