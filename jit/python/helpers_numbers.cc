// a64_number_add and its kin, declared in jit/runtime/helpers.h: BINARY_OP's generic path for
// + - * / (plain and in place), with a short way for the mixed operands 3.11 never
// specialises (`2 * x`, `x / n`, `t - 1` with x and t floats, `i / j` with ints).
//
// For a float and an int stock runs PyNumber_Multiply, binary_op1 (which tries float's slot
// first, the int's type being no subtype of float), float_mul, whose CONVERT_TO_DOUBLE calls
// PyLong_AsDouble for the int, and PyFloat_FromDouble: about 85 guest instructions under QEMU
// besides the allocation, where the arithmetic is one. Here:
//   - an exact float and an exact int of at most one digit (|v| < 2**30), either way round,
//     or two exact floats: the int converted to a double (exact: it has at most 30 bits, as
//     PyLong_AsDouble gives it), the operation done on doubles, as float's nb_add,
//     nb_subtract, nb_multiply and nb_true_divide do;
//   - two such ints divided: their quotient as doubles, as long_true_divide's fast path
//     computes it for operands of at most DBL_MANT_DIG bits;
//   - anything else, and a zero divisor (whose ZeroDivisionError stock raises with its own
//     words), by PyNumber_*.
// Ints and floats have no in-place slots, so `x += 1` on a float is `x + 1`; an in-place
// operator whose operands are not both numbers of these kinds calls PyNumber_InPlace*.
// A subclass (bool, a float subclass) is never taken: its slots may differ. a64_power and
// a64_inplace_power (`**`, which 3.11 never specialises) take a positive finite base and a
// finite exponent the same way (MixedPower).
//
// Two exact ints of at most two digits go first, for these and for // % & | ^ << >> too
// (a64_number_floor_divide and the rest): the operation in 64 bits (int_values.h) and the
// result boxed by a64_box_int, where int's slots would work digit by digit.
#include <Python.h>

#include <cmath>
#include <cstdint>

#include "jit/python/int_values.h"
#include "jit/python/number_values.h"
#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

namespace {

enum class Arith { kAdd, kSubtract, kMultiply, kDivide };

// Whether the short way takes `op` on a and b, and then the float's value in `*result`: not for
// operands of other kinds, two ints added, subtracted or multiplied (int's slots keep them
// ints), or a zero divisor.
template <Arith op>
inline bool MixedNumbers(PyObject* a, PyObject* b, double* result) {
  python::Numbers n;
  if (!python::AsNumbers(a, b, &n)) return false;
  switch (op) {
    case Arith::kAdd:
      *result = n.a + n.b;
      return n.any_float;
    case Arith::kSubtract:
      *result = n.a - n.b;
      return n.any_float;
    case Arith::kMultiply:
      *result = n.a * n.b;
      return n.any_float;
    case Arith::kDivide:
      if (n.b == 0.0) return false;
      *result = n.a / n.b;
      return true;
  }
  return false;
}

// Whether the short way takes `a ** b`, and then its value in `*result`: a base that is a
// positive finite float or int of one digit and a finite exponent, one of them a float (int's
// slot returns NotImplemented for a float exponent, so float's computes it). For such operands
// float_pow returns 1.0 for an exponent of 0 or a base of 1.0, which pow gives too, and
// otherwise pow's value, unless it is infinite: then it raises OverflowError, which is left to
// PyNumber_Power, as every other case is (a negative or zero base, NaN, infinities, two ints).
inline bool MixedPower(PyObject* a, PyObject* b, double* result) {
  python::Numbers n;
  if (!python::AsNumbers(a, b, &n) || !n.any_float || !(n.a > 0.0) || !std::isfinite(n.a) ||
      !std::isfinite(n.b)) {
    return false;
  }
  *result = std::pow(n.a, n.b);
  return std::isfinite(*result);
}

template <Arith op>
constexpr python::IntOp IntOpOf() {
  switch (op) {
    case Arith::kAdd:
      return python::IntOp::kAdd;
    case Arith::kSubtract:
      return python::IntOp::kSubtract;
    default:
      return python::IntOp::kMultiply;
  }
}

template <Arith op, binaryfunc generic>
PyObject* NumberOr(PyObject* a, PyObject* b) {
  int64_t wide;
  if (op != Arith::kDivide && python::WideInts<IntOpOf<op>()>(a, b, &wide)) {
    return a64_box_int(wide);
  }
  double result;
  return MixedNumbers<op>(a, b, &result) ? PyFloat_FromDouble(result) : generic(a, b);
}

// `a op b` for int operators without a float form: two wide ints in 64 bits, else `generic`.
template <python::IntOp op, binaryfunc generic>
PyObject* IntOr(PyObject* a, PyObject* b) {
  int64_t wide;
  return python::WideInts<op>(a, b, &wide) ? a64_box_int(wide) : generic(a, b);
}

// `a ** b` (ternary None), shorter where MixedPower takes it.
template <ternaryfunc generic>
PyObject* PowerOr(PyObject* a, PyObject* b) {
  double result;
  return MixedPower(a, b, &result) ? PyFloat_FromDouble(result) : generic(a, b, Py_None);
}

}  // namespace

PyObject* a64_number_add(PyObject* a, PyObject* b) {
  return NumberOr<Arith::kAdd, PyNumber_Add>(a, b);
}
PyObject* a64_number_subtract(PyObject* a, PyObject* b) {
  return NumberOr<Arith::kSubtract, PyNumber_Subtract>(a, b);
}
PyObject* a64_number_multiply(PyObject* a, PyObject* b) {
  return NumberOr<Arith::kMultiply, PyNumber_Multiply>(a, b);
}
PyObject* a64_number_true_divide(PyObject* a, PyObject* b) {
  return NumberOr<Arith::kDivide, PyNumber_TrueDivide>(a, b);
}
PyObject* a64_number_inplace_add(PyObject* a, PyObject* b) {
  return NumberOr<Arith::kAdd, PyNumber_InPlaceAdd>(a, b);
}
PyObject* a64_number_inplace_subtract(PyObject* a, PyObject* b) {
  return NumberOr<Arith::kSubtract, PyNumber_InPlaceSubtract>(a, b);
}
PyObject* a64_number_inplace_multiply(PyObject* a, PyObject* b) {
  return NumberOr<Arith::kMultiply, PyNumber_InPlaceMultiply>(a, b);
}
PyObject* a64_number_inplace_true_divide(PyObject* a, PyObject* b) {
  return NumberOr<Arith::kDivide, PyNumber_InPlaceTrueDivide>(a, b);
}

PyObject* a64_str_concat(PyObject* a, PyObject* b, int64_t in_place) {
  if (PyUnicode_CheckExact(a) && PyUnicode_CheckExact(b)) return PyUnicode_Concat(a, b);
  return in_place != 0 ? a64_number_inplace_add(a, b) : a64_number_add(a, b);
}

PyObject* a64_power(PyObject* a, PyObject* b) { return PowerOr<PyNumber_Power>(a, b); }
PyObject* a64_inplace_power(PyObject* a, PyObject* b) {
  return PowerOr<PyNumber_InPlacePower>(a, b);
}

using python::IntOp;
PyObject* a64_number_floor_divide(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kFloorDivide, PyNumber_FloorDivide>(a, b);
}
PyObject* a64_number_remainder(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kRemainder, PyNumber_Remainder>(a, b);
}
PyObject* a64_number_and(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kAnd, PyNumber_And>(a, b);
}
PyObject* a64_number_or(PyObject* a, PyObject* b) { return IntOr<IntOp::kOr, PyNumber_Or>(a, b); }
PyObject* a64_number_xor(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kXor, PyNumber_Xor>(a, b);
}
PyObject* a64_number_lshift(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kLshift, PyNumber_Lshift>(a, b);
}
PyObject* a64_number_rshift(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kRshift, PyNumber_Rshift>(a, b);
}
PyObject* a64_number_inplace_floor_divide(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kFloorDivide, PyNumber_InPlaceFloorDivide>(a, b);
}
PyObject* a64_number_inplace_remainder(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kRemainder, PyNumber_InPlaceRemainder>(a, b);
}
PyObject* a64_number_inplace_and(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kAnd, PyNumber_InPlaceAnd>(a, b);
}
PyObject* a64_number_inplace_or(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kOr, PyNumber_InPlaceOr>(a, b);
}
PyObject* a64_number_inplace_xor(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kXor, PyNumber_InPlaceXor>(a, b);
}
PyObject* a64_number_inplace_lshift(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kLshift, PyNumber_InPlaceLshift>(a, b);
}
PyObject* a64_number_inplace_rshift(PyObject* a, PyObject* b) {
  return IntOr<IntOp::kRshift, PyNumber_InPlaceRshift>(a, b);
}

}  // namespace a64jit::runtime
