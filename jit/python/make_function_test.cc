// make_function.h's NewFunction against 3.11's PyFunction_New: the same fields and references,
// from a cache hit as from a miss; a cache that misses once the globals change, and never
// fills from globals without `__builtins__`.
#include "jit/python/make_function.h"

#include <Python.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace a64jit::python {
namespace {

class MakeFunction : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { Py_InitializeEx(0); }

  void SetUp() override {
    globals_ = PyDict_New();
    PyDict_SetItemString(globals_, "__builtins__", PyEval_GetBuiltins());
    PyDict_SetItemString(globals_, "__name__", name_);
    Exec(
        "def documented():\n    'its doc'\n    return 1\n"
        "def plain(x):\n    return x + 1\n"
        "comp = compile('[x * 2 for x in y]', 'm', 'eval').co_consts[0]\n");
  }
  void TearDown() override {
    EXPECT_FALSE(PyErr_Occurred());
    PyErr_Clear();
    Py_CLEAR(globals_);
  }

  void Exec(const std::string& code) {
    PyObject* r = PyRun_String(code.c_str(), Py_file_input, globals_, globals_);
    ASSERT_NE(r, nullptr) << code;
    Py_DECREF(r);
  }
  // The code objects the tests make functions of: with a docstring, without, a comprehension.
  std::vector<PyObject*> Codes() {
    std::vector<PyObject*> codes;
    for (const char* f : {"documented", "plain"}) {
      codes.push_back(PyFunction_GET_CODE(PyDict_GetItemString(globals_, f)));
    }
    codes.push_back(PyDict_GetItemString(globals_, "comp"));
    return codes;
  }

  PyObject* globals_ = nullptr;
  PyObject* name_ = PyUnicode_FromString("made_here");
};

// Every field of two functions made of the same code, one by PyFunction_New.
void ExpectSameFunction(PyFunctionObject* got, PyFunctionObject* stock) {
  ASSERT_NE(got, nullptr);
  ASSERT_NE(stock, nullptr);
  EXPECT_EQ(Py_TYPE(got), Py_TYPE(stock));
  EXPECT_EQ(Py_REFCNT(got), Py_REFCNT(stock));
  EXPECT_EQ(got->func_globals, stock->func_globals);
  EXPECT_EQ(got->func_builtins, stock->func_builtins);
  EXPECT_EQ(got->func_name, stock->func_name);
  EXPECT_EQ(got->func_qualname, stock->func_qualname);
  EXPECT_EQ(got->func_code, stock->func_code);
  EXPECT_EQ(got->func_defaults, stock->func_defaults);
  EXPECT_EQ(got->func_kwdefaults, stock->func_kwdefaults);
  EXPECT_EQ(got->func_closure, stock->func_closure);
  EXPECT_EQ(got->func_doc, stock->func_doc);
  EXPECT_EQ(got->func_dict, stock->func_dict);
  EXPECT_EQ(got->func_weakreflist, stock->func_weakreflist);
  EXPECT_EQ(got->func_module, stock->func_module);
  EXPECT_EQ(got->func_annotations, stock->func_annotations);
  EXPECT_EQ(got->vectorcall, stock->vectorcall);
  EXPECT_EQ(got->func_version, stock->func_version);
  EXPECT_EQ(PyObject_GC_IsTracked(reinterpret_cast<PyObject*>(got)),
            PyObject_GC_IsTracked(reinterpret_cast<PyObject*>(stock)));
}

// The reference counts of what a function holds, which making one must raise as stock does.
std::vector<Py_ssize_t> HeldCounts(PyFunctionObject* f) {
  std::vector<Py_ssize_t> counts;
  for (PyObject* o : {f->func_globals, f->func_builtins, f->func_name, f->func_qualname,
                      f->func_code, f->func_doc, f->func_module}) {
    counts.push_back(Py_REFCNT(o));
  }
  return counts;
}

TEST_F(MakeFunction, AMissThenAHitMakeWhatPyFunctionNewMakes) {
  for (PyObject* code : Codes()) {
    runtime::FunctionCache cache{};
    for (const char* when : {"miss", "hit"}) {
      SCOPED_TRACE(when);
      auto* stock = reinterpret_cast<PyFunctionObject*>(PyFunction_New(code, globals_));
      const std::vector<Py_ssize_t> before = HeldCounts(stock);
      PyFunctionObject* got = NewFunction(code, globals_, &cache);
      ExpectSameFunction(got, stock);
      const std::vector<Py_ssize_t> with_got = HeldCounts(stock);
      Py_DECREF(got);
      EXPECT_EQ(HeldCounts(stock), before);
      PyObject* again = PyFunction_New(code, globals_);  // what one more function holds
      EXPECT_EQ(HeldCounts(stock), with_got);
      Py_DECREF(again);
      Py_DECREF(stock);
      EXPECT_EQ(cache.globals, globals_);
      EXPECT_EQ(cache.builtins, PyEval_GetBuiltins());
      EXPECT_EQ(cache.module, name_);
    }
  }
}

// A global stored since the fill (here the builtins and the module name themselves) makes the
// next function take the new ones, and fills the cache again.
TEST_F(MakeFunction, ChangedGlobalsMissAndRefill) {
  PyObject* code = Codes()[2];
  runtime::FunctionCache cache{};
  Py_DECREF(NewFunction(code, globals_, &cache));
  PyObject* other_builtins = PyDict_New();
  PyObject* other_name = PyUnicode_FromString("renamed");
  PyDict_SetItemString(globals_, "__builtins__", other_builtins);
  PyDict_SetItemString(globals_, "__name__", other_name);
  for (const char* when : {"miss", "hit"}) {
    PyFunctionObject* f = NewFunction(code, globals_, &cache);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->func_builtins, other_builtins) << when;
    EXPECT_EQ(f->func_module, other_name) << when;
    Py_DECREF(f);
  }
  EXPECT_EQ(cache.builtins, other_builtins);
  Py_DECREF(other_builtins);
  Py_DECREF(other_name);
}

// Without `__builtins__` in the globals, 3.11 takes the running frame's builtins, which the
// globals' version does not cover: nothing is cached. Nor is anything without a cache.
TEST_F(MakeFunction, GlobalsWithoutBuiltinsAreNotCached) {
  PyObject* code = Codes()[1];
  PyDict_DelItemString(globals_, "__builtins__");
  runtime::FunctionCache cache{};
  for (int i = 0; i < 2; i++) {
    auto* stock = reinterpret_cast<PyFunctionObject*>(PyFunction_New(code, globals_));
    PyFunctionObject* got = NewFunction(code, globals_, &cache);
    ExpectSameFunction(got, stock);
    Py_DECREF(got);
    Py_DECREF(stock);
    EXPECT_EQ(cache.globals, nullptr);
  }
  PyFunctionObject* uncached = NewFunction(code, globals_, nullptr);
  ASSERT_NE(uncached, nullptr);
  EXPECT_EQ(uncached->func_module, name_);
  Py_DECREF(uncached);
}

}  // namespace
}  // namespace a64jit::python
