// The a64_* helpers of helpers_closures.cc, helpers_objects.cc and helpers_generators.cc,
// called directly on objects made by small Python snippets. Each result, and each
// exception's type and message, is compared with what Debian's python3.11 gives for the
// same operation written as Python (so a message that drifts from stock's fails here).
#include <Python.h>
#include <gtest/gtest.h>
#include <internal/pycore_frame.h>
#include <opcode.h>

#include <cstdint>
#include <string>
#include <vector>

#include "jit/python/jit.h"
#include "jit/runtime/helpers.h"

namespace a64jit::runtime {
namespace {

// A _PyInterpreterFrame holding only what the helpers read (globals, builtins, locals,
// code, function, localsplus), all borrowed from the test's namespace. Zeroed.
class FakeFrame {
 public:
  explicit FakeFrame(int nslots)
      : words_((sizeof(_PyInterpreterFrame) + nslots * sizeof(PyObject*)) / 8 + 1, 0) {}
  _PyInterpreterFrame* get() { return reinterpret_cast<_PyInterpreterFrame*>(words_.data()); }
  _PyInterpreterFrame* operator->() { return get(); }

 private:
  std::vector<uint64_t> words_;
};

// Makes a frame the thread's current one while it lives, as compiled code's frame is while
// it runs: the helpers that find their frame with RunningFrame (interp_state.h) see it.
class RunningAs {
 public:
  explicit RunningAs(_PyInterpreterFrame* frame)
      : cframe_(PyThreadState_Get()->cframe), saved_(cframe_->current_frame) {
    cframe_->current_frame = frame;
  }
  ~RunningAs() { cframe_->current_frame = saved_; }
  RunningAs(const RunningAs&) = delete;
  RunningAs& operator=(const RunningAs&) = delete;

 private:
  _PyCFrame* cframe_;
  _PyInterpreterFrame* saved_;
};

class Helpers311 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { Py_InitializeEx(0); }

  void SetUp() override {
    globals_ = PyDict_New();
    PyDict_SetItemString(globals_, "__builtins__", PyEval_GetBuiltins());
  }

  void TearDown() override {
    EXPECT_FALSE(PyErr_Occurred()) << Raised();
    Py_CLEAR(globals_);
  }

  // Runs statements in this test's namespace.
  void Exec(const std::string& code) {
    PyObject* r = PyRun_String(code.c_str(), Py_file_input, globals_, globals_);
    if (r == nullptr) {
      ADD_FAILURE() << "snippet failed: " << Raised() << "\n" << code;
      return;
    }
    Py_DECREF(r);
  }

  // A new reference to the value of `expr`.
  PyObject* Eval(const std::string& expr) {
    PyObject* r = PyRun_String(expr.c_str(), Py_eval_input, globals_, globals_);
    if (r == nullptr) ADD_FAILURE() << "expression failed: " << Raised() << "\n" << expr;
    return r;
  }

  // A global of this test's namespace, borrowed.
  PyObject* Get(const char* name) {
    PyObject* v = PyDict_GetItemString(globals_, name);
    if (v == nullptr) ADD_FAILURE() << "no global " << name;
    return v;
  }

  // What stock CPython raises running `stmt`: "TypeName: str(e)", or "no exception".
  std::string Stock(const std::string& stmt) {
    if (PyErr_Occurred()) ADD_FAILURE() << "exception pending: " << Raised();
    std::string code = "try:\n";
    size_t start = 0;
    while (start <= stmt.size()) {
      const size_t end = std::min(stmt.find('\n', start), stmt.size());
      code += "    " + stmt.substr(start, end - start) + "\n";
      start = end + 1;
    }
    code +=
        "    _err = 'no exception'\n"
        "except BaseException as e:\n"
        "    _err = type(e).__name__ + ': ' + str(e)\n";
    Exec(code);
    PyObject* err = Get("_err");
    return err != nullptr ? PyUnicode_AsUTF8(err) : "";
  }

  // Compares the pending exception (cleared) with what stock raises running `stmt`, and
  // returns it as "TypeName: str(e)".
  std::string ExpectStockError(const std::string& stmt) {
    const std::string got = Raised();
    EXPECT_NE(got, "no exception") << "for: " << stmt;
    EXPECT_EQ(got, Stock(stmt)) << "for: " << stmt;
    return got;
  }

  // The pending exception as "TypeName: str(e)", cleared; "no exception" if none.
  static std::string Raised() {
    if (!PyErr_Occurred()) return "no exception";
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    std::string text = reinterpret_cast<PyTypeObject*>(type)->tp_name;
    PyObject* str = PyObject_Str(value);
    text += ": ";
    text += str != nullptr ? PyUnicode_AsUTF8(str) : "<str failed>";
    Py_XDECREF(str);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    PyErr_Clear();
    return text;
  }

  // repr(obj), then drops the reference (for checking a helper's new result).
  static std::string ReprSteal(PyObject* obj) {
    if (obj == nullptr) return "NULL (" + Raised() + ")";
    PyObject* r = PyObject_Repr(obj);
    std::string text = r != nullptr ? PyUnicode_AsUTF8(r) : "<repr failed>";
    Py_XDECREF(r);
    Py_DECREF(obj);
    return text;
  }

  // A new str.
  static PyObject* Str(const char* text) { return PyUnicode_FromString(text); }

  // A frame whose globals and builtins are this test's.
  FakeFrame NamespaceFrame() {
    FakeFrame frame(0);
    frame->f_globals = globals_;
    frame->f_builtins = PyEval_GetBuiltins();
    return frame;
  }

  PyObject* globals_ = nullptr;
};

// ---- Cells and closures ----

TEST_F(Helpers311, MakeCellMovesTheOldValueIntoANewCell) {
  PyObject* value = PyLong_FromLong(123456);
  const Py_ssize_t before = Py_REFCNT(value);
  FakeFrame frame(2);
  frame->localsplus[0] = Py_NewRef(value);
  frame->localsplus[1] = nullptr;
  ASSERT_EQ(a64_make_cell(frame.get(), 0), 0);
  ASSERT_EQ(a64_make_cell(frame.get(), 1), 0);
  ASSERT_TRUE(PyCell_Check(frame->localsplus[0]));
  EXPECT_EQ(PyCell_GET(frame->localsplus[0]), value);
  EXPECT_EQ(Py_REFCNT(value), before + 1);  // the cell's, no longer the slot's as well
  ASSERT_TRUE(PyCell_Check(frame->localsplus[1]));
  EXPECT_EQ(PyCell_GET(frame->localsplus[1]), nullptr);
  Py_DECREF(frame->localsplus[0]);
  Py_DECREF(frame->localsplus[1]);
  EXPECT_EQ(Py_REFCNT(value), before);
  Py_DECREF(value);
}

// ---- Containers, calls, names ----

TEST_F(Helpers311, BuildSetConsumesItems) {
  PyObject* items[] = {PyLong_FromLong(1), PyLong_FromLong(2), PyLong_FromLong(1)};
  EXPECT_EQ(ReprSteal(a64_build_set(items, 3)), "{1, 2}");

  Exec("lst = []");
  PyObject* lst = Get("lst");
  const Py_ssize_t before = Py_REFCNT(lst);
  PyObject* bad[] = {PyLong_FromLong(1), Py_NewRef(lst), PyLong_FromLong(3)};
  EXPECT_EQ(a64_build_set(bad, 3), nullptr);
  ExpectStockError("{1, [], 3}");
  EXPECT_EQ(Py_REFCNT(lst), before);
}

TEST_F(Helpers311, DictUpdateNonMapping) {
  PyObject* d = PyDict_New();
  PyObject* one = PyLong_FromLong(1);
  EXPECT_EQ(a64_dict_update(d, one), -1);
  ExpectStockError("{'a': 1, **1}");
  Exec("m = {'b': 2}");
  EXPECT_EQ(a64_dict_update(d, Get("m")), 0);
  EXPECT_EQ(ReprSteal(d), "{'b': 2}");
  Py_DECREF(one);
}

TEST_F(Helpers311, DictMergeDuplicateKeywordAndNonMapping) {
  Exec(
      "def f(**kw):\n"
      "    return kw\n"
      "first = {'a': 1}\n"
      "again = {'a': 2}\n");
  PyObject* d = PyDict_Copy(Get("first"));
  EXPECT_EQ(a64_dict_merge(Get("f"), d, Get("again")), -1);
  const std::string got = ExpectStockError("f(**first, **again)");
  EXPECT_EQ(got, "TypeError: f() got multiple values for keyword argument 'a'");

  PyObject* one = PyLong_FromLong(1);
  EXPECT_EQ(a64_dict_merge(Get("f"), d, one), -1);
  ExpectStockError("f(x=0, **1)");
  Py_DECREF(one);
  Py_DECREF(d);
}

TEST_F(Helpers311, CallExConvertsArgsAndKwargs) {
  Exec(
      "import types\n"
      "def f(*args, **kw):\n"
      "    return args, kw\n"
      "args = [1, 2]\n"
      "proxy = types.MappingProxyType({'c': 3})\n");
  EXPECT_EQ(ReprSteal(a64_call_ex(Get("f"), Get("args"), Get("proxy"))), "((1, 2), {'c': 3})");
  PyObject* empty = PyTuple_New(0);
  EXPECT_EQ(ReprSteal(a64_call_ex(Get("f"), empty, nullptr)), "((), {})");

  PyObject* one = PyLong_FromLong(1);
  EXPECT_EQ(a64_call_ex(Get("f"), one, nullptr), nullptr);
  std::string got = ExpectStockError("f(*1)");
  EXPECT_EQ(got, "TypeError: f() argument after * must be an iterable, not int");

  // **kwargs is converted first: with both wrong, its error is the one raised.
  EXPECT_EQ(a64_call_ex(Get("f"), one, one), nullptr);
  ExpectStockError("f(*1, **1)");

  // An iterable whose iteration fails keeps its own error.
  Exec(
      "def bad():\n"
      "    raise ValueError('boom')\n"
      "    yield\n"
      "g = bad()\n");
  EXPECT_EQ(a64_call_ex(Get("f"), Get("g"), nullptr), nullptr);
  got = Raised();
  Exec("g = bad()");
  EXPECT_EQ(got, Stock("f(*g)"));
  Py_DECREF(one);
  Py_DECREF(empty);
}

TEST_F(Helpers311, UnpackExSuccessLeavesStockStackOrder) {
  Exec("r = range(5)");
  PyObject* out[3] = {};
  ASSERT_EQ(a64_unpack_ex(Get("r"), 1, 1, out), 0);
  // a, *b, c = range(5): bottom to top c, b, a (STORE_FAST a pops the top first).
  EXPECT_EQ(ReprSteal(out[0]), "4");
  EXPECT_EQ(ReprSteal(out[1]), "[1, 2, 3]");
  EXPECT_EQ(ReprSteal(out[2]), "0");

  PyObject* out2[3] = {};
  Exec("t = (7, 8)");
  ASSERT_EQ(a64_unpack_ex(Get("t"), 0, 2, out2), 0);  // *a, b, c = (7, 8)
  EXPECT_EQ(ReprSteal(out2[0]), "8");
  EXPECT_EQ(ReprSteal(out2[1]), "7");
  EXPECT_EQ(ReprSteal(out2[2]), "[]");
}

TEST_F(Helpers311, UnpackExErrors) {
  Exec("two = [1, 2]\none = [1]\nnum = 5");
  PyObject* out[4] = {};
  EXPECT_EQ(a64_unpack_ex(Get("two"), 1, 2, out), -1);  // too few after the star
  std::string got = ExpectStockError("a, *b, c, d = two");
  EXPECT_EQ(got, "ValueError: not enough values to unpack (expected at least 3, got 2)");
  EXPECT_EQ(a64_unpack_ex(Get("one"), 2, 0, out), -1);  // too few before the star
  ExpectStockError("a, b, *c = one");
  EXPECT_EQ(a64_unpack_ex(Get("num"), 1, 0, out), -1);
  ExpectStockError("a, *b = num");
}

TEST_F(Helpers311, StoreAndDeleteGlobal) {
  FakeFrame frame = NamespaceFrame();
  PyObject* name = Str("g_value");
  PyObject* value = PyLong_FromLong(99);
  ASSERT_EQ(a64_store_global(frame.get(), name, value), 0);
  EXPECT_EQ(Get("g_value"), value);
  EXPECT_EQ(a64_delete_global(frame.get(), name), 0);
  EXPECT_EQ(PyDict_GetItemString(globals_, "g_value"), nullptr);
  // Missing: 1 and nothing raised; the interpreter redoing it raises stock's NameError.
  EXPECT_EQ(a64_delete_global(frame.get(), name), 1);
  EXPECT_FALSE(PyErr_Occurred());
  Py_DECREF(name);
  Py_DECREF(value);
}

TEST_F(Helpers311, ImportName) {
  FakeFrame frame = NamespaceFrame();
  PyObject* name = Str("os.path");
  PyObject* zero = PyLong_FromLong(0);
  PyObject* os = a64_import_name(frame.get(), name, Py_None, zero);
  ASSERT_NE(os, nullptr) << Raised();
  EXPECT_EQ(std::string(PyModule_GetName(os)), "os");  // `import os.path` binds os
  Py_DECREF(os);
  PyObject* fromlist = Py_BuildValue("(s)", "join");
  PyObject* path = a64_import_name(frame.get(), name, fromlist, zero);
  ASSERT_NE(path, nullptr) << Raised();
  EXPECT_EQ(std::string(PyModule_GetName(path)), "posixpath");
  Py_DECREF(path);

  PyObject* missing = Str("no_such_module_a64jit");
  EXPECT_EQ(a64_import_name(frame.get(), missing, Py_None, zero), nullptr);
  ExpectStockError("import no_such_module_a64jit");

  // An overridden builtins.__import__ gets stock's five arguments.
  Exec(
      "import builtins\n"
      "fake_builtins = dict(builtins.__dict__)\n"
      "fake_builtins['__import__'] = lambda *a: a[:1] + a[2:]\n");
  frame->f_builtins = Get("fake_builtins");
  EXPECT_EQ(ReprSteal(a64_import_name(frame.get(), name, fromlist, zero)),
            "('os.path', None, ('join',), 0)");
  Py_DECREF(missing);
  Py_DECREF(fromlist);
  Py_DECREF(zero);
  Py_DECREF(name);
}

TEST_F(Helpers311, ImportFrom) {
  Exec(
      "import os, sys, types\n"
      "pkg = types.ModuleType('a64pkg')\n"
      "sub = types.ModuleType('a64pkg.sub')\n"
      "sys.modules['a64pkg'] = pkg\n"
      "sys.modules['a64pkg.sub'] = sub\n"
      "half = types.ModuleType('a64half')\n"
      "half.__file__ = '/tmp/a64half.py'\n"
      "half.__spec__ = types.SimpleNamespace(_initializing=True)\n"
      "sys.modules['a64half'] = half\n");
  PyObject* sep = Str("sep");
  EXPECT_EQ(ReprSteal(a64_import_from(Get("os"), sep)), "'/'");

  // Not an attribute yet (a circular import), but in sys.modules.
  PyObject* sub_name = Str("sub");
  PyObject* sub = a64_import_from(Get("pkg"), sub_name);
  EXPECT_EQ(sub, Get("sub")) << Raised();
  Py_XDECREF(sub);

  PyObject* missing = Str("no_such_name");
  EXPECT_EQ(a64_import_from(Get("os"), missing), nullptr);
  std::string got = ExpectStockError("from os import no_such_name");
  EXPECT_EQ(got.rfind("ImportError: cannot import name 'no_such_name' from 'os' (/", 0), 0);
  EXPECT_EQ(a64_import_from(Get("sys"), missing), nullptr);
  got = ExpectStockError("from sys import no_such_name");
  EXPECT_EQ(got, "ImportError: cannot import name 'no_such_name' from 'sys' (unknown location)");
  EXPECT_EQ(a64_import_from(Get("half"), missing), nullptr);
  ExpectStockError("from a64half import no_such_name");

  // The ImportError's name and path are stock's too.
  EXPECT_EQ(a64_import_from(Get("half"), missing), nullptr);
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  Exec("half_name, half_path = 'a64half', '/tmp/a64half.py'");
  auto* err = reinterpret_cast<PyImportErrorObject*>(value);
  EXPECT_EQ(PyObject_RichCompareBool(err->name, Get("half_name"), Py_EQ), 1);
  EXPECT_EQ(PyObject_RichCompareBool(err->path, Get("half_path"), Py_EQ), 1);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  Exec("del sys.modules['a64pkg'], sys.modules['a64pkg.sub'], sys.modules['a64half']");
  Py_DECREF(sep);
  Py_DECREF(sub_name);
  Py_DECREF(missing);
}

TEST_F(Helpers311, GetLen) {
  Exec("lst = [1, 2, 3]\nnum = 1");
  EXPECT_EQ(ReprSteal(a64_get_len(Get("lst"))), "3");
  EXPECT_EQ(a64_get_len(Get("num")), nullptr);
  ExpectStockError("len(num)");
}

// Values at each edge of a64_box_int's cases: the small ints (the interpreter's own
// singletons), one digit and two digits (made by the runtime: a new object, one reference),
// and past two digits (2**60 and beyond, through PyLong_FromLongLong).
constexpr int64_t kBoxIntEdges[] = {0,
                                    -5,
                                    256,
                                    257,
                                    -6,
                                    1000003,
                                    -1000003,
                                    (1 << 30) - 1,
                                    -((1 << 30) - 1),
                                    int64_t{1} << 30,
                                    -(int64_t{1} << 30),
                                    (int64_t{1} << 60) - 1,
                                    -((int64_t{1} << 60) - 1),
                                    int64_t{1} << 60,
                                    -(int64_t{1} << 60),
                                    INT64_MAX,
                                    INT64_MIN};

// a64_box_int(v) is PyLong_FromLongLong(v): equal, of the same size, the same object for a
// small int, else a new one with one reference. With `from_free_list`, a dead one-digit int
// and a dead two-digit int are on the free lists first, so that the values take their path
// where they may; without, the lists are emptied first.
void ExpectBoxesLikeStock(bool from_free_list) {
  for (const int64_t v : kBoxIntEdges) {
    std::vector<PyObject*> taken;  // blocks off the free lists, until the values are boxed
    for (const int64_t dead_value : {int64_t{777777}, int64_t{777777} << 30}) {
      if (from_free_list) {
        PyObject* dead = PyLong_FromLongLong(dead_value);
        Py_SET_REFCNT(dead, 0);  // its last reference released, as compiled code's Decref does
        a64_dealloc(dead);
      } else {
        for (int i = 0; i < 200; i++) taken.push_back(a64_box_int(dead_value));
      }
    }
    PyObject* boxed = a64_box_int(v);
    PyObject* stock = PyLong_FromLongLong(v);
    ASSERT_NE(boxed, nullptr) << v;
    EXPECT_TRUE(PyLong_CheckExact(boxed)) << v;
    EXPECT_EQ(PyObject_RichCompareBool(boxed, stock, Py_EQ), 1) << v;
    EXPECT_EQ(PyLong_AsLongLong(boxed), v);
    EXPECT_EQ(Py_SIZE(boxed), Py_SIZE(stock)) << v;
    if (v >= -5 && v <= 256) {
      EXPECT_EQ(boxed, stock) << v << " is a small int: the same object";
    } else {
      EXPECT_EQ(Py_REFCNT(boxed), 1) << v;
    }
    Py_DECREF(boxed);
    Py_DECREF(stock);
    for (PyObject* obj : taken) Py_DECREF(obj);
  }
}

TEST_F(Helpers311, BoxIntMatchesPyLongFromLongLong) { ExpectBoxesLikeStock(false); }

TEST_F(Helpers311, BoxIntFromTheFreeListMatchesPyLongFromLongLong) { ExpectBoxesLikeStock(true); }

// An int of one digit whose last reference compiled code drops (a64_dealloc) is the next
// one a64_box_int makes, with its new value and one reference; anything else a64_dealloc
// gets is deallocated as _Py_Dealloc does (a finalizer runs).
TEST_F(Helpers311, DeadIntsAreReusedByTheBoxer) {
  PyObject* first = a64_box_int(1000);
  ASSERT_NE(first, nullptr);
  Py_SET_REFCNT(first, 0);  // its last reference released, as compiled code's Decref does
  a64_dealloc(first);
  PyObject* second = a64_box_int(-1001);
  EXPECT_EQ(second, first);
  EXPECT_EQ(PyLong_AsLongLong(second), -1001);
  EXPECT_EQ(Py_REFCNT(second), 1);
  EXPECT_TRUE(PyLong_CheckExact(second));
  Py_DECREF(second);
  Exec(
      "finalized = []\n"
      "class Finalized:\n"
      "    def __del__(self): finalized.append(1)\n"
      "obj = Finalized()\n");
  PyObject* obj = Get("obj");
  Py_INCREF(obj);
  Exec("del obj");
  Py_SET_REFCNT(obj, 0);
  a64_dealloc(obj);
  Exec("assert finalized == [1], finalized");
}

// a64_box_int_reusing writes the value into the local's old int only when nothing else can
// see that int: an exact int of one digit with the local's reference alone, and a value of
// one digit that is not a small int. Anything else is a64_box_int's new object.
TEST_F(Helpers311, BoxIntReusingTakesOnlyAnUnsharedOneDigitInt) {
  PyObject* alone = PyLong_FromLong(5000);
  PyObject* slot = alone;
  PyObject* reused = a64_box_int_reusing(-7000, &slot);
  EXPECT_EQ(reused, alone);
  EXPECT_EQ(PyLong_AsLong(reused), -7000);
  EXPECT_EQ(Py_REFCNT(reused), 2);  // the local's and the result's
  Py_DECREF(reused);
  PyObject* shared = Py_NewRef(alone);  // a second reference: someone else sees it
  PyObject* fresh = a64_box_int_reusing(9000, &slot);
  EXPECT_NE(fresh, alone);
  EXPECT_EQ(PyLong_AsLong(alone), -7000);
  EXPECT_EQ(PyLong_AsLong(fresh), 9000);
  Py_DECREF(fresh);
  Py_DECREF(shared);
  PyObject* small = a64_box_int_reusing(200, &slot);  // the singleton, not the old int
  EXPECT_EQ(small, PyLong_FromLong(200));
  Py_DECREF(small);
  Py_DECREF(small);
  PyObject* big = a64_box_int_reusing(int64_t{1} << 40, &slot);  // two digits
  EXPECT_NE(big, alone);
  EXPECT_EQ(PyLong_AsLongLong(big), int64_t{1} << 40);
  Py_DECREF(big);
  PyObject* boolean = Py_True;
  PyObject* from_bool = a64_box_int_reusing(7000, &boolean);
  EXPECT_NE(from_bool, Py_True);
  Py_DECREF(from_bool);
  PyObject* empty = nullptr;
  PyObject* from_null = a64_box_int_reusing(7000, &empty);
  EXPECT_EQ(PyLong_AsLong(from_null), 7000);
  Py_DECREF(from_null);
  EXPECT_EQ(PyLong_AsLong(alone), -7000);
  Py_DECREF(alone);
}

// a64_binary_op_into_local makes the operation, releases the operands its mask names, then
// stores the result into the local and releases the old value, at the store's code unit; on
// an error it releases and stores nothing, and prev_instr names the operation.
TEST_F(Helpers311, BinaryOpIntoLocalReleasesTheOperandsThenStores) {
  PyObject* code = Eval("compile('x = 1', 'f', 'exec')");
  ASSERT_NE(code, nullptr);
  FakeFrame frame(2);
  frame->f_code = reinterpret_cast<PyCodeObject*>(code);
  PyObject* a = PyFloat_FromDouble(1.5);
  PyObject* b = PyFloat_FromDouble(2.0);
  PyObject* old = PyFloat_FromDouble(9.0);
  frame->localsplus[1] = Py_NewRef(old);
  Py_INCREF(a);  // one each for the helper to release
  Py_INCREF(b);
  const RunningAs running(frame.get());
  const int64_t into_1 = int64_t{1} << 12;
  const int64_t gap_2 = int64_t{2} << 10;  // the operation two code units before the store
  ASSERT_EQ(a64_binary_op_into_local(a, b, NB_INPLACE_MULTIPLY | 3 << 8 | into_1, 2), 1);
  EXPECT_EQ(PyFloat_AsDouble(frame->localsplus[1]), 3.0);
  EXPECT_EQ(Py_REFCNT(a), 1);
  EXPECT_EQ(Py_REFCNT(b), 1);
  EXPECT_EQ(Py_REFCNT(old), 1);  // the frame's released
  EXPECT_EQ(frame->prev_instr, _PyCode_CODE(frame->f_code) + 2);
  PyObject* stored = frame->localsplus[1];
  Py_INCREF(a);  // only a is released (mask 1)
  ASSERT_EQ(a64_binary_op_into_local(a, b, NB_SUBTRACT | 1 << 8 | into_1, 0), 1);
  EXPECT_EQ(PyFloat_AsDouble(frame->localsplus[1]), -0.5);
  EXPECT_EQ(Py_REFCNT(a), 1);
  EXPECT_EQ(Py_REFCNT(b), 1);
  stored = frame->localsplus[1];
  Py_INCREF(a);
  frame->prev_instr = nullptr;
  EXPECT_EQ(a64_binary_op_into_local(a, Py_None, NB_ADD | 3 << 8 | gap_2 | into_1, 2), 0);
  EXPECT_TRUE(PyErr_ExceptionMatches(PyExc_TypeError));
  EXPECT_EQ(frame->prev_instr, _PyCode_CODE(frame->f_code));  // the operation's, 2 before
  PyErr_Clear();
  EXPECT_EQ(frame->localsplus[1], stored);
  EXPECT_EQ(Py_REFCNT(a), 2);
  Py_DECREF(a);
  Py_DECREF(a);
  Py_DECREF(b);
  Py_DECREF(old);
  Py_DECREF(stored);
  Py_DECREF(code);
}

// For `s += t` of strs, a64_binary_op_into_local appends t to the local's own str when no one
// else holds it (stats' str_appends_in_place), and makes a new str when someone does (a second
// name for s, compiled code's operand being s itself), releasing what its mask names either way.
TEST_F(Helpers311, StrAddIntoLocalAppendsWhereNoOneElseSees) {
  PyObject* code = Eval("compile('x = 1', 'f', 'exec')");
  ASSERT_NE(code, nullptr);
  FakeFrame frame(2);
  frame->f_code = reinterpret_cast<PyCodeObject*>(code);
  const RunningAs running(frame.get());
  const int64_t into_1 = int64_t{1} << 12;
  const auto appends = [] { return python::GetStats().str_appends_in_place; };
  const auto text = [&] { return std::string(PyUnicode_AsUTF8(frame->localsplus[1])); };
  frame->localsplus[1] = PyUnicode_FromString("ab");  // the local's reference alone
  PyObject* t = PyUnicode_FromString("cd");
  Py_INCREF(t);  // the helper releases one (mask 2)
  const int64_t before = appends();
  ASSERT_EQ(a64_binary_op_into_local(frame->localsplus[1], t, NB_INPLACE_ADD | 2 << 8 | into_1, 0),
            1);
  EXPECT_EQ(text(), "abcd");
  EXPECT_EQ(appends(), before + 1);
  EXPECT_EQ(Py_REFCNT(t), 1);
  EXPECT_EQ(Py_REFCNT(frame->localsplus[1]), 1);
  PyObject* own = Py_NewRef(frame->localsplus[1]);  // compiled code's own reference (mask 1)
  ASSERT_EQ(a64_binary_op_into_local(own, t, NB_ADD | 1 << 8 | into_1, 0), 1);
  EXPECT_EQ(text(), "abcdcd");
  EXPECT_EQ(appends(), before + 2);
  EXPECT_EQ(Py_REFCNT(frame->localsplus[1]), 1);
  PyObject* second_name = Py_NewRef(frame->localsplus[1]);
  ASSERT_EQ(a64_binary_op_into_local(frame->localsplus[1], t, NB_INPLACE_ADD | into_1, 0), 1);
  EXPECT_EQ(text(), "abcdcdcd");
  EXPECT_STREQ(PyUnicode_AsUTF8(second_name), "abcdcd");
  EXPECT_EQ(Py_REFCNT(second_name), 1);  // the local's went with its old value
  EXPECT_EQ(appends(), before + 2);
  PyObject* s = frame->localsplus[1];  // s += s, both operands borrowed from the local
  ASSERT_EQ(a64_binary_op_into_local(s, s, NB_INPLACE_ADD | into_1, 0), 1);
  EXPECT_EQ(text(), "abcdcdcdabcdcdcd");
  EXPECT_EQ(appends(), before + 2);
  Py_DECREF(second_name);
  Py_DECREF(t);
  Py_CLEAR(frame->localsplus[1]);
  Py_DECREF(code);
}

// a64_isinstance agrees with isinstance for exact types and subclasses, for an instance whose
// __class__ claims another class (a property, or __getattribute__), a weak proxy, a
// metaclass with __instancecheck__ and a tuple of classes.
TEST_F(Helpers311, IsInstanceMatchesTheBuiltin) {
  Exec(
      "import weakref\n"
      "class A: pass\n"
      "class B(A): pass\n"
      "class Claims:\n"
      "    @property\n"
      "    def __class__(self): return A\n"
      "class Masks:\n"
      "    def __getattribute__(self, name):\n"
      "        return A if name == '__class__' else object.__getattribute__(self, name)\n"
      "class Meta(type):\n"
      "    def __instancecheck__(cls, x): return x == 7\n"
      "class Seven(metaclass=Meta): pass\n"
      "a = A()\n"
      "proxy = weakref.proxy(a)\n"
      "xs = [1, 'a', [], {}, (), None, 1.5, True, a, B(), Claims(), Masks(), proxy, 7, A]\n"
      "classes = [int, str, list, object, A, B, Seven, (B, str), bool, type]\n"
      "want = [[isinstance(x, c) for c in classes] for x in xs]\n");
  PyObject* xs = Get("xs");
  PyObject* classes = Get("classes");
  PyObject* want = Get("want");
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(xs); i++) {
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(classes); j++) {
      PyObject* x = PyList_GET_ITEM(xs, i);
      PyObject* cls = PyList_GET_ITEM(classes, j);
      const int expected = PyObject_IsTrue(PyList_GET_ITEM(PyList_GET_ITEM(want, i), j));
      EXPECT_EQ(a64_isinstance(x, cls) & 1, expected) << "xs[" << i << "], classes[" << j << "]";
    }
  }
  EXPECT_EQ(a64_isinstance(Get("a"), Get("a")), -1);  // not a class: TypeError
  PyErr_Clear();
  // Answered by the types alone (compiled code then skips its tracing test), or by
  // PyObject_IsInstance, which may have run Python code: kIsInstanceRanCode says so.
  PyObject* seven = PyList_GET_ITEM(xs, 13);
  EXPECT_EQ(a64_isinstance(PyList_GET_ITEM(xs, 9), Get("A")), 1);  // B() is an A
  EXPECT_EQ(a64_isinstance(PyList_GET_ITEM(xs, 0), Get("A")), 0);  // 1 is not
  EXPECT_EQ(a64_isinstance(PyList_GET_ITEM(xs, 10), Get("A")),
            kIsInstanceRanCode + 1);                                       // Claims' property
  EXPECT_EQ(a64_isinstance(seven, Get("Seven")), kIsInstanceRanCode + 1);  // __instancecheck__
  EXPECT_EQ(a64_isinstance(PyList_GET_ITEM(xs, 0), Get("Seven")), kIsInstanceRanCode);
}

// A type a64_isinstance has found to report itself as __class__ stops being taken for one
// once its class, or a base, defines __getattribute__ after all (__class__ itself cannot be
// assigned on a class: that sets the class's own type).
TEST_F(Helpers311, IsInstanceSeesClassChangesAfterACachedAnswer) {
  Exec(
      "class A: pass\n"
      "class Base: pass\n"
      "class Plain(Base): pass\n"
      "class Other(Base): pass\n"
      "plain, other = Plain(), Other()\n");
  PyObject* a = Get("A");
  EXPECT_EQ(a64_isinstance(Get("plain"), a), 0);
  EXPECT_EQ(a64_isinstance(Get("plain"), a), 0);  // the cached answer
  EXPECT_EQ(a64_isinstance(Get("other"), a), 0);
  // Now __getattribute__ answers (Python code ran: kIsInstanceRanCode says so)
  Exec("Plain.__getattribute__ = lambda self, name: A if name == '__class__' else 0");
  EXPECT_EQ(a64_isinstance(Get("plain"), a), kIsInstanceRanCode + 1);
  Exec("Base.__getattribute__ = lambda self, name: A if name == '__class__' else 0");
  EXPECT_EQ(a64_isinstance(Get("other"), a), kIsInstanceRanCode + 1);
}

TEST_F(Helpers311, MatchKeys) {
  Exec(
      "import collections\n"
      "subject = {'a': 1, 'b': 2}\n"
      "dd = collections.defaultdict(list, a=1)\n"
      "hit = ('b', 'a')\n"
      "miss = ('a', 'z')\n"
      "class C:\n"
      "    k = 'a'\n"
      "    j = 'a'\n"
      "dup = (C.k, C.j)\n");
  EXPECT_EQ(ReprSteal(a64_match_keys(Get("subject"), Get("hit"))), "(2, 1)");
  EXPECT_EQ(ReprSteal(a64_match_keys(Get("subject"), Get("miss"))), "None");
  PyObject* empty = PyTuple_New(0);
  EXPECT_EQ(ReprSteal(a64_match_keys(Get("subject"), empty)), "()");
  // A defaultdict's __missing__ neither runs nor adds the key.
  EXPECT_EQ(ReprSteal(a64_match_keys(Get("dd"), Get("miss"))), "None");
  EXPECT_EQ(PyDict_Size(Get("dd")), 1);
  EXPECT_EQ(a64_match_keys(Get("subject"), Get("dup")), nullptr);
  ExpectStockError(
      "match subject:\n"
      "    case {C.k: _, C.j: _}:\n"
      "        pass");
  Py_DECREF(empty);
}

TEST_F(Helpers311, MatchClass) {
  Exec(
      "class P:\n"
      "    __match_args__ = ('x', 'y')\n"
      "    def __init__(self, x, y):\n"
      "        self.x, self.y = x, y\n"
      "class BadArgs:\n"
      "    __match_args__ = ['x']\n"
      "p = P(1, 2)\n"
      "bad_args = BadArgs()\n"
      "no_kw = ()\n"
      "kw_y = ('y',)\n"
      "kw_x = ('x',)\n"
      "kw_z = ('z',)\n"
      "five = 5\n");
  PyObject* p = Get("p");
  PyObject* type = Get("P");
  EXPECT_EQ(ReprSteal(a64_match_class(p, type, 2, Get("no_kw"))), "(1, 2)");  // P(a, b)
  EXPECT_EQ(ReprSteal(a64_match_class(p, type, 0, Get("kw_y"))), "(2,)");     // P(y=b)
  EXPECT_EQ(ReprSteal(a64_match_class(p, type, 1, Get("kw_y"))), "(1, 2)");   // P(a, y=b)
  // No match: None, nothing raised.
  EXPECT_EQ(ReprSteal(a64_match_class(Get("five"), type, 2, Get("no_kw"))), "None");
  EXPECT_EQ(ReprSteal(a64_match_class(p, type, 0, Get("kw_z"))), "None");
  // int matches itself positionally.
  PyObject* int_type = reinterpret_cast<PyObject*>(&PyLong_Type);
  EXPECT_EQ(ReprSteal(a64_match_class(Get("five"), int_type, 1, Get("no_kw"))), "(5,)");

  EXPECT_EQ(a64_match_class(p, type, 3, Get("no_kw")), nullptr);
  std::string got = ExpectStockError("match p:\n    case P(a, b, c):\n        pass");
  EXPECT_EQ(got, "TypeError: P() accepts 2 positional sub-patterns (3 given)");
  EXPECT_EQ(a64_match_class(p, type, 1, Get("kw_x")), nullptr);
  ExpectStockError("match p:\n    case P(a, x=b):\n        pass");
  EXPECT_EQ(a64_match_class(Get("five"), int_type, 2, Get("no_kw")), nullptr);
  ExpectStockError("match five:\n    case int(a, b):\n        pass");
  EXPECT_EQ(a64_match_class(Get("bad_args"), Get("BadArgs"), 1, Get("no_kw")), nullptr);
  ExpectStockError("match bad_args:\n    case BadArgs(a):\n        pass");
  EXPECT_EQ(a64_match_class(Get("five"), Get("five"), 0, Get("no_kw")), nullptr);
  ExpectStockError("match five:\n    case five():\n        pass");
}

TEST_F(Helpers311, LoadBuildClass) {
  FakeFrame frame = NamespaceFrame();
  PyObject* bc = a64_load_build_class(frame.get());
  EXPECT_EQ(bc, PyDict_GetItemString(PyEval_GetBuiltins(), "__build_class__"));
  Py_XDECREF(bc);
  Exec("no_builtins = {}");
  frame->f_builtins = Get("no_builtins");
  EXPECT_EQ(a64_load_build_class(frame.get()), nullptr);
  EXPECT_EQ(Raised(), "NameError: __build_class__ not found");
}

TEST_F(Helpers311, BeforeWith) {
  Exec(
      "class CM:\n"
      "    def __enter__(self):\n"
      "        return 'entered'\n"
      "    def __exit__(self, *a):\n"
      "        return None\n"
      "class EnterOnly:\n"
      "    def __enter__(self):\n"
      "        return self\n"
      "    def __aenter__(self):\n"
      "        return self\n"
      "cm = CM()\n"
      "num = 1\n"
      "half = EnterOnly()\n"
      "async def use_async(m):\n"
      "    async with m:\n"
      "        pass\n");
  PyObject* out[2] = {};
  ASSERT_EQ(a64_before_with(Get("cm"), out, 0), 0);
  EXPECT_EQ(ReprSteal(PyObject_CallNoArgs(out[1])), "'entered'");
  EXPECT_EQ(ReprSteal(PyObject_CallNoArgs(out[0])), "None");
  Py_DECREF(out[0]);
  Py_DECREF(out[1]);

  EXPECT_EQ(a64_before_with(Get("num"), out, 0), -1);
  std::string got = ExpectStockError("with num:\n    pass");
  EXPECT_EQ(got, "TypeError: 'int' object does not support the context manager protocol");
  EXPECT_EQ(a64_before_with(Get("half"), out, 0), -1);
  ExpectStockError("with half:\n    pass");
  EXPECT_EQ(a64_before_with(Get("num"), out, 1), -1);
  ExpectStockError("use_async(num).send(None)");
  EXPECT_EQ(a64_before_with(Get("half"), out, 1), -1);
  ExpectStockError("use_async(half).send(None)");
}

// ---- Generators and coroutines ----

TEST_F(Helpers311, GetAwaitable) {
  Exec(
      "import types\n"
      "num = 1\n"
      "async def await_it(x):\n"
      "    await x\n"
      "class AEnter:\n"
      "    def __aenter__(self):\n"
      "        return 1\n"
      "    def __aexit__(self, *a):\n"
      "        return 1\n"
      "async def use_async(m):\n"
      "    async with m:\n"
      "        pass\n"
      "@types.coroutine\n"
      "def suspend():\n"
      "    yield 'suspended'\n"
      "async def inner():\n"
      "    await suspend()\n"
      "async def simple():\n"
      "    return 1\n"
      "busy = inner()\n"
      "assert busy.send(None) == 'suspended'\n"
      "fresh = simple()\n");
  EXPECT_EQ(a64_get_awaitable(Get("num"), 0), nullptr);
  std::string got = ExpectStockError("await_it(num).send(None)");
  EXPECT_EQ(got, "TypeError: object int can't be used in 'await' expression");
  EXPECT_EQ(a64_get_awaitable(Get("num"), 1), nullptr);
  ExpectStockError("use_async(AEnter()).send(None)");

  // A coroutine is its own awaitable, unless another await is driving it.
  PyObject* fresh = Get("fresh");
  PyObject* awaitable = a64_get_awaitable(fresh, 0);
  EXPECT_EQ(awaitable, fresh);
  Py_XDECREF(awaitable);
  EXPECT_EQ(a64_get_awaitable(Get("busy"), 0), nullptr);
  got = ExpectStockError("await_it(busy).send(None)");
  EXPECT_EQ(got, "RuntimeError: coroutine is being awaited already");
  Exec("busy.close()\nfresh.close()");
}

TEST_F(Helpers311, GetAiterAndAnext) {
  Exec(
      "num = 1\n"
      "class NoAnext:\n"
      "    def __aiter__(self):\n"
      "        return 1\n"
      "class BadAnext:\n"
      "    def __aiter__(self):\n"
      "        return self\n"
      "    def __anext__(self):\n"
      "        return 1\n"
      "async def agen():\n"
      "    yield 1\n"
      "async def loop(it):\n"
      "    async for x in it:\n"
      "        pass\n"
      "ag = agen()\n"
      "bad = BadAnext()\n");
  EXPECT_EQ(a64_get_aiter(Get("num")), nullptr);
  ExpectStockError("loop(num).send(None)");
  PyObject* aiter = a64_get_aiter(Get("ag"));
  EXPECT_EQ(aiter, Get("ag")) << Raised();
  Py_XDECREF(aiter);
  Exec("no_anext = NoAnext()");
  EXPECT_EQ(a64_get_aiter(Get("no_anext")), nullptr);
  ExpectStockError("loop(no_anext).send(None)");

  PyObject* asend = a64_get_anext(Get("ag"));
  ASSERT_NE(asend, nullptr) << Raised();
  EXPECT_EQ(std::string(Py_TYPE(asend)->tp_name), "async_generator_asend");
  Py_DECREF(asend);
  EXPECT_EQ(a64_get_anext(Get("bad")), nullptr);
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyObject* cause = PyException_GetCause(value);
  ASSERT_NE(cause, nullptr);
  EXPECT_EQ(ReprSteal(cause), "TypeError(\"object int can't be used in 'await' expression\")");
  PyErr_Restore(type, value, tb);
  ExpectStockError("loop(bad).send(None)");
  EXPECT_EQ(a64_get_anext(Get("num")), nullptr);
  EXPECT_EQ(Raised(), "TypeError: 'async for' requires an iterator with __anext__ method, got int");
}

TEST_F(Helpers311, GetYieldFromIter) {
  Exec(
      "async def co():\n"
      "    pass\n"
      "def plain_gen(x):\n"
      "    yield from x\n"
      "async def coro_fn():\n"
      "    pass\n"
      "c = co()\n"
      "g = plain_gen([])\n"
      "lst = [1]\n");
  FakeFrame frame = NamespaceFrame();
  frame->f_code = reinterpret_cast<PyCodeObject*>(PyFunction_GET_CODE(Get("plain_gen")));
  EXPECT_EQ(a64_get_yield_from_iter(frame.get(), Get("c")), nullptr);
  std::string got = ExpectStockError("next(plain_gen(c))");
  EXPECT_EQ(got, "TypeError: cannot 'yield from' a coroutine object in a non-coroutine generator");
  PyObject* g = a64_get_yield_from_iter(frame.get(), Get("g"));
  EXPECT_EQ(g, Get("g"));
  Py_XDECREF(g);
  PyObject* it = a64_get_yield_from_iter(frame.get(), Get("lst"));
  ASSERT_NE(it, nullptr);
  EXPECT_EQ(std::string(Py_TYPE(it)->tp_name), "list_iterator");
  Py_DECREF(it);
  frame->f_code = reinterpret_cast<PyCodeObject*>(PyFunction_GET_CODE(Get("coro_fn")));
  PyObject* c = a64_get_yield_from_iter(frame.get(), Get("c"));
  EXPECT_EQ(c, Get("c"));
  Py_XDECREF(c);
  Exec("c.close()");
}

TEST_F(Helpers311, SendToGenerator) {
  Exec(
      "def gen():\n"
      "    x = yield 1\n"
      "    return x + 1\n"
      "g = gen()\n"
      "it = iter([5])\n");
  PyObject* out = nullptr;
  ASSERT_EQ(a64_send(Get("g"), Py_None, &out), PYGEN_NEXT);
  EXPECT_EQ(ReprSteal(out), "1");
  PyObject* value = PyLong_FromLong(41);
  ASSERT_EQ(a64_send(Get("g"), value, &out), PYGEN_RETURN);
  EXPECT_EQ(ReprSteal(out), "42");
  // Not consumed.
  EXPECT_EQ(ReprSteal(Py_NewRef(value)), "41");

  ASSERT_EQ(a64_send(Get("it"), Py_None, &out), PYGEN_NEXT);
  EXPECT_EQ(ReprSteal(out), "5");
  ASSERT_EQ(a64_send(Get("it"), Py_None, &out), PYGEN_RETURN);
  EXPECT_EQ(ReprSteal(out), "None");
  EXPECT_EQ(a64_send(Get("it"), value, &out), PYGEN_ERROR);
  ExpectStockError("it.send(41)");

  Exec(
      "def boom():\n"
      "    raise KeyError('k')\n"
      "    yield\n"
      "b = boom()\n");
  EXPECT_EQ(a64_send(Get("b"), Py_None, &out), PYGEN_ERROR);
  EXPECT_EQ(Raised(), "KeyError: 'k'");
  Py_DECREF(value);
}

TEST_F(Helpers311, AsyncGenWrapType) {
  PyObject* value = PyUnicode_FromString("wrapped value");
  const Py_ssize_t before = Py_REFCNT(value);
  PyObject* w = a64_async_gen_wrap(value);
  ASSERT_NE(w, nullptr) << Raised();
  EXPECT_EQ(Py_TYPE(w), &_PyAsyncGenWrappedValue_Type);
  EXPECT_EQ(std::string(Py_TYPE(w)->tp_name), "async_generator_wrapped_value");
  EXPECT_EQ(Py_REFCNT(value), before + 1);
  EXPECT_TRUE(PyObject_GC_IsTracked(w));
  PyDict_SetItemString(globals_, "w", w);
  PyDict_SetItemString(globals_, "v", value);
  Exec("import gc\nassert gc.get_referents(w) == [v]\ndel w, v");
  Py_DECREF(w);  // its dealloc puts it on the interpreter's free list
  EXPECT_EQ(Py_REFCNT(value), before);
  PyObject* again = a64_async_gen_wrap(value);  // taken back off that list, as stock takes it
  EXPECT_EQ(again, w);
  EXPECT_EQ(Py_REFCNT(again), 1);
  EXPECT_TRUE(PyObject_GC_IsTracked(again));
  Py_DECREF(again);

  // What compiled code's ASYNC_GEN_WRAP feeds into: the stock async generator machinery
  // unwraps it, so `yield` inside an async generator hands the value to `async for`.
  Exec(
      "async def agen():\n"
      "    yield 'x'\n"
      "items = []\n"
      "async def collect():\n"
      "    async for v in agen():\n"
      "        items.append(v)\n"
      "try:\n"
      "    collect().send(None)\n"
      "except StopIteration:\n"
      "    pass\n"
      "assert items == ['x'], items\n");
  Py_DECREF(value);
}

}  // namespace
}  // namespace a64jit::runtime
