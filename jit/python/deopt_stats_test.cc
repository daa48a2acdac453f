// deopt_stats.h's counting, through its memos: one entry per site, reason, exit and type, with
// every event counted, whichever way it was found; entries cleared start again from 1.
#include "jit/python/deopt_stats.h"

#include <Python.h>
#include <gtest/gtest.h>

#include <string>

namespace a64jit::python {
namespace {

class DeoptStats : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { Py_InitializeEx(0); }

  void SetUp() override {
    ClearDeoptStats();
    code_ = reinterpret_cast<PyCodeObject*>(Py_CompileString("x = 1\ny = 2\n", "t", Py_file_input));
    ASSERT_NE(code_, nullptr);
    globals_ = PyDict_New();
    PyDict_SetItemString(globals_, "__builtins__", PyEval_GetBuiltins());
    PyObject* r = PyRun_String(
        "class Odd(Exception): pass\nclass Even(Exception): pass\n"
        "first = Odd\nclass Odd(Exception): pass\nsecond = Odd\n",
        Py_file_input, globals_, globals_);
    ASSERT_NE(r, nullptr);
    Py_DECREF(r);
  }

  void TearDown() override {
    ClearDeoptStats();
    Py_CLEAR(code_);
    Py_CLEAR(globals_);
  }

  PyTypeObject* Type(const char* name) {
    return reinterpret_cast<PyTypeObject*>(PyDict_GetItemString(globals_, name));
  }

  void Record(PyTypeObject* type, int times, int bc = 0) {
    for (int i = 0; i < times; i++) {
      RecordDeopt(&function_, code_, bc, lower::DeoptReason::kTypeGuard, type, DeoptExit::kUnwound);
    }
  }

  std::string function_ = "m:f";
  PyCodeObject* code_ = nullptr;
  PyObject* globals_ = nullptr;
};

TEST_F(DeoptStats, EveryEventIsCountedOnceUnderItsType) {
  Record(Type("Even"), 5);
  Record(Type("first"), 3);
  Record(Type("Even"), 2);
  Record(nullptr, 4);
  Record(Type("Even"), 1, /*bc=*/2);
  const std::vector<DeoptEntry> all = DeoptEntries();
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].type, "Even");
  EXPECT_EQ(all[0].count, 7);
  EXPECT_EQ(all[1].count, 4);
  EXPECT_EQ(all[1].type, "");
  EXPECT_EQ(all[2].type, "Odd");
  EXPECT_EQ(all[2].count, 3);
  EXPECT_EQ(all[3].count, 1);
}

// Two classes of one name without version tags at one site: two keys (one address each),
// reported together by name.
TEST_F(DeoptStats, TypesWithoutVersionTagsAreToldApartByAddressAndName) {
  Type("first")->tp_version_tag = 0;
  Type("second")->tp_version_tag = 0;
  Record(Type("first"), 3);
  Record(Type("second"), 2);
  Record(Type("first"), 1);
  const std::vector<DeoptEntry> all = DeoptEntries();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].type, "Odd");
  EXPECT_EQ(all[0].count, 6);
}

// A class whose attributes change as it is used (`Shape.count += 1` in `__init__`) has a new
// version tag at each event: its events still share one key per site, not one per tag, for
// deopts and for guard misses alike.
TEST_F(DeoptStats, ATypeWhoseVersionTagChangesKeepsOneKey) {
  PyTypeObject* even = Type("Even");
  const int cache = 0;  // a site's cache: only its address is used
  RegisterCacheSite(&cache, &function_, code_, 1);
  unsigned int tags_seen = 0, last_tag = 0;
  for (int i = 0; i < 40; i++) {
    PyObject* n = PyLong_FromLong(i);
    ASSERT_EQ(PyObject_SetAttrString(reinterpret_cast<PyObject*>(even), "count", n), 0);
    Py_DECREF(n);
    PyObject* back = PyObject_GetAttrString(reinterpret_cast<PyObject*>(even), "count");
    ASSERT_NE(back, nullptr);  // the lookup gives the type a new version tag
    Py_DECREF(back);
    tags_seen += even->tp_version_tag != last_tag;
    last_tag = even->tp_version_tag;
    Record(even, 1);
    RecordGuardMiss(&cache, even);
  }
  ForgetCacheSite(&cache);
  EXPECT_EQ(tags_seen, 40u);
  EXPECT_EQ(DeoptKeyCount(), 2u);
  const std::vector<DeoptEntry> all = DeoptEntries();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].count, 40);
  EXPECT_EQ(all[1].count, 40);
}

// Two keys whose memo set is the same, each hot in turn (two sites of one loop seeing one
// type): after each key's first miss, the memos hold both, and no miss goes to the map again.
TEST_F(DeoptStats, TwoHotKeysSharingAMemoSetStayInIt) {
  PyTypeObject* even = Type("Even");
  static char caches[4096][64];
  const void* first = caches[0];
  const void* second = nullptr;
  for (size_t i = 1; i < sizeof(caches) / sizeof(caches[0]) && second == nullptr; i++) {
    if (DeoptMemoSet(caches[i], even) == DeoptMemoSet(first, even)) second = caches[i];
  }
  ASSERT_NE(second, nullptr) << "no cache address shares the first one's memo set";
  RegisterCacheSite(first, &function_, code_, 0);
  RegisterCacheSite(second, &function_, code_, 1);
  const int64_t before = DeoptMemoMisses();
  for (int i = 0; i < 50; i++) {
    RecordGuardMiss(first, even);
    RecordGuardMiss(second, even);
  }
  EXPECT_EQ(DeoptMemoMisses() - before, 2);
  ForgetCacheSite(first);
  ForgetCacheSite(second);
  const std::vector<DeoptEntry> all = DeoptEntries();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].count + all[1].count, 100);
}

// Cleared entries are gone from the memos too: the next event makes a new entry.
TEST_F(DeoptStats, ClearedStatisticsStartAgain) {
  Record(Type("Even"), 3);
  ClearDeoptStats();
  EXPECT_TRUE(DeoptEntries().empty());
  Record(Type("Even"), 2);
  const std::vector<DeoptEntry> all = DeoptEntries();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].count, 2);
}

}  // namespace
}  // namespace a64jit::python
