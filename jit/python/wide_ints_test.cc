// BINARY_OP's generic helpers on ints of two digits (int_values.h), against int's own slots:
// every operator, plain and in place, on every pair of a grid of edge values (the digit
// bounds, the two-digit bound 2**60 and past it, zero, signs, a bool, a float), gives what
// PyNumber_* gives: an equal int of the same type, or the same exception type. And the
// two-digit free list hands back its blocks with the new value, and a local's old int takes
// a new value in place only when it has room for its digits.
#include <Python.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "jit/runtime/helpers.h"

namespace a64jit::runtime {
namespace {

struct Operator {
  const char* name;
  binaryfunc helper;
  binaryfunc stock;
};

const Operator kOperators[] = {
    {"+", a64_number_add, PyNumber_Add},
    {"-", a64_number_subtract, PyNumber_Subtract},
    {"*", a64_number_multiply, PyNumber_Multiply},
    {"//", a64_number_floor_divide, PyNumber_FloorDivide},
    {"%", a64_number_remainder, PyNumber_Remainder},
    {"&", a64_number_and, PyNumber_And},
    {"|", a64_number_or, PyNumber_Or},
    {"^", a64_number_xor, PyNumber_Xor},
    {"<<", a64_number_lshift, PyNumber_Lshift},
    {">>", a64_number_rshift, PyNumber_Rshift},
    {"+=", a64_number_inplace_add, PyNumber_InPlaceAdd},
    {"-=", a64_number_inplace_subtract, PyNumber_InPlaceSubtract},
    {"*=", a64_number_inplace_multiply, PyNumber_InPlaceMultiply},
    {"//=", a64_number_inplace_floor_divide, PyNumber_InPlaceFloorDivide},
    {"%=", a64_number_inplace_remainder, PyNumber_InPlaceRemainder},
    {"&=", a64_number_inplace_and, PyNumber_InPlaceAnd},
    {"|=", a64_number_inplace_or, PyNumber_InPlaceOr},
    {"^=", a64_number_inplace_xor, PyNumber_InPlaceXor},
    {"<<=", a64_number_inplace_lshift, PyNumber_InPlaceLshift},
    {">>=", a64_number_inplace_rshift, PyNumber_InPlaceRshift},
};

class WideInts : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { Py_InitializeEx(0); }

  void SetUp() override {
    const char* kValues[] = {
        "0",         "1",         "-1",           "3",     "-7",     "62",        "63",
        "64",        "2**30 - 1", "-(2**30 - 1)", "2**30", "-2**30", "2**31 + 5", "-(2**31 + 5)",
        "2**59 + 3", "2**60 - 1", "-(2**60 - 1)", "2**60", "-2**60", "2**61 + 1", "2**63 - 1",
        "-2**63",    "2**100",    "True",         "2.5"};
    for (const char* v : kValues) {
      PyObject* obj = PyRun_String(v, Py_eval_input, globals(), globals());
      ASSERT_NE(obj, nullptr) << v;
      values_.push_back(obj);
      names_.emplace_back(v);
    }
  }

  void TearDown() override {
    for (PyObject* v : values_) Py_DECREF(v);
    EXPECT_FALSE(PyErr_Occurred());
  }

  static PyObject* globals() {
    static PyObject* g = [] {
      PyObject* d = PyDict_New();
      PyDict_SetItemString(d, "__builtins__", PyEval_GetBuiltins());
      return d;
    }();
    return g;
  }

  // The outcome of f(a, b): the result's type and repr, or the exception's type; cleared.
  static std::string Outcome(binaryfunc f, PyObject* a, PyObject* b) {
    PyObject* r = f(a, b);
    if (r == nullptr) {
      PyObject *type, *value, *tb;
      PyErr_Fetch(&type, &value, &tb);
      std::string name = reinterpret_cast<PyTypeObject*>(type)->tp_name;
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(tb);
      return "raised " + name;
    }
    PyObject* repr = PyObject_Repr(r);
    std::string text = std::string(Py_TYPE(r)->tp_name) + " " + PyUnicode_AsUTF8(repr);
    Py_DECREF(repr);
    Py_DECREF(r);
    return text;
  }

  static bool BigShift(PyObject* count) {
    if (!PyLong_Check(count)) return false;
    int overflow;
    const long long v = PyLong_AsLongLongAndOverflow(count, &overflow);
    return overflow != 0 || v > 1000;
  }

  std::vector<PyObject*> values_;
  std::vector<std::string> names_;
};

TEST_F(WideInts, EveryOperatorMatchesIntsOwnSlots) {
  int pairs = 0;
  for (const Operator& op : kOperators) {
    for (size_t i = 0; i < values_.size(); i++) {
      for (size_t j = 0; j < values_.size(); j++) {
        // Shifting left by a count of 2**30 or more only makes a huge int slowly.
        if (std::string(op.name).rfind("<<", 0) == 0 && BigShift(values_[j])) continue;
        EXPECT_EQ(Outcome(op.helper, values_[i], values_[j]),
                  Outcome(op.stock, values_[i], values_[j]))
            << names_[i] << " " << op.name << " " << names_[j];
        pairs++;
      }
    }
  }
  EXPECT_GT(pairs, 10000);
}

// A dead two-digit int released by compiled code (a64_dealloc) is the next block a64_box_int
// makes a two-digit int in, with the new value and one reference; a one-digit value never
// takes it, nor does a two-digit value the one-digit list's block.
TEST_F(WideInts, DeadTwoDigitIntsAreReusedByTheBoxer) {
  PyObject* first = a64_box_int(int64_t{3} << 40);
  ASSERT_NE(first, nullptr);
  ASSERT_EQ(Py_SIZE(first), 2);
  Py_SET_REFCNT(first, 0);  // its last reference released, as compiled code's Decref does
  a64_dealloc(first);
  PyObject* one_digit = a64_box_int(12345);
  EXPECT_NE(one_digit, first);
  PyObject* second = a64_box_int(-((int64_t{1} << 59) + 17));
  EXPECT_EQ(second, first);
  EXPECT_TRUE(PyLong_CheckExact(second));
  EXPECT_EQ(Py_REFCNT(second), 1);
  EXPECT_EQ(Py_SIZE(second), -2);
  EXPECT_EQ(PyLong_AsLongLong(second), -((int64_t{1} << 59) + 17));
  Py_SET_REFCNT(one_digit, 0);
  a64_dealloc(one_digit);
  PyObject* third = a64_box_int(int64_t{1} << 45);  // the one-digit block is too small
  EXPECT_NE(third, one_digit);
  EXPECT_EQ(PyLong_AsLongLong(third), int64_t{1} << 45);
  Py_DECREF(third);
  Py_DECREF(second);
}

// a64_box_int_reusing: a local's old int whose only reference is the local's takes a value of
// two digits in place when it has two digits itself, and one of one digit either way; an int
// of one digit never takes two (its block may hold no more), nor does a shared one.
TEST_F(WideInts, LocalsOldIntTakesTwoDigitsOnlyWithRoomForThem) {
  const int64_t wide = -((int64_t{1} << 40) + 99), narrow = 1234567;
  PyObject* local = a64_box_int(int64_t{5} << 35);
  ASSERT_EQ(Py_SIZE(local), 2);
  PyObject* r = a64_box_int_reusing(wide, &local);
  EXPECT_EQ(r, local);
  EXPECT_EQ(Py_REFCNT(r), 2);  // the local's and the result's: the store releases one
  EXPECT_EQ(PyLong_AsLongLong(r), wide);
  Py_DECREF(r);
  r = a64_box_int_reusing(narrow, &local);  // one digit into a block of two
  EXPECT_EQ(r, local);
  EXPECT_EQ(PyLong_AsLongLong(r), narrow);
  Py_DECREF(r);
  r = a64_box_int_reusing(wide, &local);  // now of one digit: a new int
  EXPECT_NE(r, local);
  EXPECT_EQ(PyLong_AsLongLong(r), wide);
  EXPECT_EQ(PyLong_AsLongLong(local), narrow);
  Py_DECREF(local);
  local = r;  // of two digits again, but shared
  Py_INCREF(local);
  PyObject* shared = a64_box_int_reusing(wide + 1, &local);
  EXPECT_NE(shared, local);
  EXPECT_EQ(PyLong_AsLongLong(local), wide);
  EXPECT_EQ(PyLong_AsLongLong(shared), wide + 1);
  Py_DECREF(shared);
  Py_DECREF(local);
  Py_DECREF(r);
}

}  // namespace
}  // namespace a64jit::runtime
