// Layouts of CPython 3.11 objects that compiled code reads inline but whose structs are
// private to one C file, so no header declares them. Each mirrors the 3.11 definition named
// beside it; code_info.cc compares each with its type's tp_basicsize when the JIT starts and
// leaves the inline path out (address 0 in RuntimeAddresses) if a build disagrees.
#ifndef A64JIT_JIT_LOWER_OBJECT_LAYOUTS_H_
#define A64JIT_JIT_LOWER_OBJECT_LAYOUTS_H_

#include <Python.h>

namespace a64jit::lower {

// Objects/listobject.c `listiterobject` and Objects/tupleobject.c `tupleiterobject`: the
// next index, and the sequence (NULL once the iterator has been exhausted).
struct SequenceIterLayout {
  PyObject_HEAD Py_ssize_t it_index;
  PyObject* it_seq;
};

// Objects/rangeobject.c `rangeiterobject` (a range whose values fit in a C long): the next
// value is start + index * step while index < len.
struct RangeIterLayout {
  PyObject_HEAD long index;
  long start;
  long step;
  long len;
};

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_OBJECT_LAYOUTS_H_
