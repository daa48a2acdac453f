// opcode_names.h against the interpreter's own `opcode` module: every number opcode.opname
// names has that name, and the numbers it leaves as "<N>" are either unused or one of
// opcode._specialized_instructions, each of which is named once.
#include "jit/python/opcode_names.h"

#include <Python.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "jit/python/code_info.h"

namespace a64jit::python {
namespace {

class OpcodeNames : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { Py_InitializeEx(0); }

  void SetUp() override {
    opcode_ = PyImport_ImportModule("opcode");
    ASSERT_NE(opcode_, nullptr);
  }
  void TearDown() override { Py_CLEAR(opcode_); }

  PyObject* opcode_ = nullptr;
};

TEST_F(OpcodeNames, MatchOpcodeModule) {
  PyObject* opname = PyObject_GetAttrString(opcode_, "opname");
  PyObject* specialised = PyObject_GetAttrString(opcode_, "_specialized_instructions");
  ASSERT_TRUE(opname != nullptr && PyList_Check(opname));
  ASSERT_TRUE(specialised != nullptr && PyList_Check(specialised));
  std::set<std::string> expected_specialised;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(specialised); i++) {
    expected_specialised.insert(Utf8(PyList_GET_ITEM(specialised, i)));
  }
  ASSERT_EQ(PyList_GET_SIZE(opname), 256);
  std::set<std::string> named_specialised;
  int base_names = 0;
  for (int op = 0; op < 256; op++) {
    const std::string want = Utf8(PyList_GET_ITEM(opname, op));
    const std::string got = OpcodeName(op);
    if (want[0] != '<') {
      EXPECT_EQ(got, want) << "opcode " << op;
      base_names++;
    } else if (got != want) {
      EXPECT_EQ(expected_specialised.count(got), 1u) << "opcode " << op << " named " << got;
      EXPECT_TRUE(named_specialised.insert(got).second) << got << " named twice";
    }
  }
  EXPECT_GT(base_names, 100);
  EXPECT_EQ(named_specialised, expected_specialised);
  Py_DECREF(specialised);
  Py_DECREF(opname);
}

TEST_F(OpcodeNames, OutOfRange) {
  EXPECT_EQ(OpcodeName(-1), "<-1>");
  EXPECT_EQ(OpcodeName(256), "<256>");
}

}  // namespace
}  // namespace a64jit::python
