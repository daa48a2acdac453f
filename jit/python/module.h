// The `a64jit` Python module (see module.cc for its functions).
#ifndef A64JIT_JIT_PYTHON_MODULE_H_
#define A64JIT_JIT_PYTHON_MODULE_H_

#include <Python.h>

namespace a64jit::python {

// Creates the module; enables the JIT when A64JIT_THRESHOLD or A64JIT_JITLIST is set.
PyObject* InitModule();

}  // namespace a64jit::python

extern "C" PyMODINIT_FUNC PyInit_a64jit();

#endif  // A64JIT_JIT_PYTHON_MODULE_H_
