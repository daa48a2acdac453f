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

// Objects/enumobject.c `enumobject`: the next index (PY_SSIZE_T_MAX once it counts on in
// en_longindex, an int object), the iterator it enumerates, the result tuple it fills again
// while it holds the only reference to it, and the int 1 that the int count adds (borrowed).
struct EnumerateLayout {
  PyObject_HEAD Py_ssize_t en_index;
  PyObject* en_sit;
  PyObject* en_result;
  PyObject* en_longindex;
  PyObject* one;
};

// Objects/dictobject.c `dictiterobject` (a dict's key, value and item iterators): the dict
// (NULL once exhausted), its ma_used when the iterator was made, the next entry's index, the
// result tuple an item iterator fills again while it holds the only reference to it, and how
// many items are left to give.
struct DictIterLayout {
  PyObject_HEAD PyObject* di_dict;
  Py_ssize_t di_used;
  Py_ssize_t di_pos;
  PyObject* di_result;
  Py_ssize_t len;
};

// Python/bltinmodule.c `zipobject`: how many iterators it zips, the tuple of them, the result
// tuple it fills again while it holds the only reference to it, and zip(strict=True)'s flag.
struct ZipLayout {
  PyObject_HEAD Py_ssize_t tuplesize;
  PyObject* ittuple;
  PyObject* result;
  int strict;
};

// Include/internal/pycore_gc.h `PyGC_Head`, before every object the collector can track: its
// first word, _gc_next, is 0 while the object is untracked (_PyObject_GC_IS_TRACKED).
constexpr int64_t kGcHeadBytes = 16;

// Objects/rangeobject.c `rangeiterobject` (a range whose values fit in a C long): the next
// value is start + index * step while index < len.
struct RangeIterLayout {
  PyObject_HEAD long index;
  long start;
  long step;
  long len;
};

// Internal/pycore_floatobject.h `struct _Py_float_state`, one per interpreter: the free list
// of floats, linked through their ob_type, and its length, at most kFloatFreeListMax. It is a
// header struct but only the C side can include it (interp_state.h); code_info.cc compares its
// size and offsets with these and leaves the inline path out if they differ.
struct FloatFreeListLayout {
  int numfree;
  PyFloatObject* free_list;
};
constexpr int kFloatFreeListMax = 100;  // PyFloat_MAXFREELIST

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_OBJECT_LAYOUTS_H_
