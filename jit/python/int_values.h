// Ints the helpers compute on as 64-bit C integers without asking int's slots: exact ints of
// at most two digits (|v| < 2**60). Compiled code's inline int forms take ints of one digit;
// past that (an accumulator over 2**30, a hash or a random generator's state masked to 32 bits,
// `i * i % m`) every operation went to PyNumber_*, whose int slots handle any size digit by
// digit (3.11's long_add and long_mul take a short way only for one digit, l_divmod none for
// two). In 64 bits these are one instruction or a few, exact as long as the result is tested
// for overflow where it can have one.
#ifndef A64JIT_JIT_PYTHON_INT_VALUES_H_
#define A64JIT_JIT_PYTHON_INT_VALUES_H_

#include <Python.h>

#include <cstdint>

namespace a64jit::python {

static_assert(PYLONG_BITS_IN_DIGIT == 30, "two digits hold |v| < 2**60");

// `obj`'s value when it is an exact int of at most two digits (a subclass, bool among them,
// may have slots of its own); false for anything else.
inline bool WideIntValue(PyObject* obj, int64_t* value) {
  if (Py_TYPE(obj) != &PyLong_Type) return false;
  const Py_ssize_t size = Py_SIZE(obj);
  const digit* d = reinterpret_cast<PyLongObject*>(obj)->ob_digit;
  int64_t magnitude;
  switch (size < 0 ? -size : size) {
    case 0:
      *value = 0;
      return true;
    case 1:
      magnitude = d[0];
      break;
    case 2:
      magnitude = static_cast<int64_t>(d[0]) | static_cast<int64_t>(d[1]) << PyLong_SHIFT;
      break;
    default:
      return false;
  }
  *value = size < 0 ? -magnitude : magnitude;
  return true;
}

// The binary operators computed here.
enum class IntOp {
  kAdd,
  kSubtract,
  kMultiply,
  kFloorDivide,
  kRemainder,
  kAnd,
  kOr,
  kXor,
  kLshift,
  kRshift
};

// a op b as Python computes it on ints, for |a|, |b| < 2**60, into `*r`; false where the
// result does not fit in 64 bits or Python raises (a zero divisor, a negative shift), which
// int's own slots then handle.
template <IntOp op>
inline bool WideIntResult(int64_t a, int64_t b, int64_t* r) {
  switch (op) {
    case IntOp::kAdd:  // |a + b| < 2**61
      *r = a + b;
      return true;
    case IntOp::kSubtract:
      *r = a - b;
      return true;
    case IntOp::kMultiply:
      return !__builtin_mul_overflow(a, b, r);
    case IntOp::kFloorDivide:
    case IntOp::kRemainder: {
      if (b == 0) return false;
      // C truncates; Python's quotient rounds toward -inf and its remainder takes b's sign.
      int64_t q = a / b, m = a % b;
      if (m != 0 && (m < 0) != (b < 0)) {
        m += b;
        q -= 1;
      }
      *r = op == IntOp::kRemainder ? m : q;
      return true;
    }
    case IntOp::kAnd:  // two's complement in 64 bits is Python's infinite one for these
      *r = a & b;
      return true;
    case IntOp::kOr:
      *r = a | b;
      return true;
    case IntOp::kXor:
      *r = a ^ b;
      return true;
    case IntOp::kLshift: {
      if (b < 0 || b > 62) return false;
      const int64_t shifted = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
      if ((shifted >> b) != a) return false;  // bits lost: a bigger int
      *r = shifted;
      return true;
    }
    case IntOp::kRshift:
      if (b < 0) return false;
      *r = a >> (b > 63 ? 63 : b);  // arithmetic: rounds toward -inf, as Python's does
      return true;
  }
  return false;
}

// a op b when both are such ints and the result is one WideIntResult computes.
template <IntOp op>
inline bool WideInts(PyObject* a, PyObject* b, int64_t* r) {
  int64_t x, y;
  return WideIntValue(a, &x) && WideIntValue(b, &y) && WideIntResult<op>(x, y, r);
}

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_INT_VALUES_H_
