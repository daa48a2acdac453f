// dict_access.h on dicts made by libpython: SurelyLacks against PyDict_Contains over every
// index width (1, 2 and 4 byte slots) with deleted keys among them, and ReplaceDictValue's
// version tag, GC tracking and references.
#include "jit/python/dict_access.h"

#include <Python.h>
#include <gtest/gtest.h>
#include <internal/pycore_gc.h>

#include <string>
#include <vector>

namespace a64jit::python {
namespace {

class DictAccess : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { Py_InitializeEx(0); }
  void TearDown() override { EXPECT_FALSE(PyErr_Occurred()); }
};

PyObject* Str(const std::string& s) { return PyUnicode_FromString(s.c_str()); }

auto* AsDict(PyObject* d) { return reinterpret_cast<PyDictObject*>(d); }

// A dict of n str keys "k0".."k{n-1}", every third one deleted again, checked for each key
// and for as many names it never held.
void CheckLacks(int n) {
  PyObject* d = PyDict_New();
  std::vector<PyObject*> keys;
  for (int i = 0; i < n; i++) {
    keys.push_back(Str("k" + std::to_string(i)));
    ASSERT_EQ(PyDict_SetItem(d, keys.back(), Py_None), 0);
  }
  for (int i = 0; i < n; i += 3) ASSERT_EQ(PyDict_DelItem(d, keys[i]), 0);
  for (int i = 0; i < n; i++) {
    const bool held = PyDict_Contains(d, keys[i]) == 1;
    EXPECT_EQ(SurelyLacks(AsDict(d), keys[i]), !held) << "k" << i << " of " << n;
    PyObject* other = Str("other" + std::to_string(i));
    PyObject_Hash(other);
    EXPECT_TRUE(SurelyLacks(AsDict(d), other)) << "other" << i << " of " << n;
    // The same text, another object: a held key's is equal, so never "surely not" held.
    PyObject* copy = Str("k" + std::to_string(i));
    PyObject_Hash(copy);
    EXPECT_EQ(SurelyLacks(AsDict(d), copy), !held) << "a copy of k" << i;
    Py_DECREF(other);
    Py_DECREF(copy);
  }
  for (PyObject* k : keys) Py_DECREF(k);
  Py_DECREF(d);
}

TEST_F(DictAccess, SurelyLacksAgreesWithContainsAtEveryIndexWidth) {
  for (int n : {0, 1, 5, 20, 100, 200, 3000, 50000}) CheckLacks(n);  // up to 4-byte slots
}

TEST_F(DictAccess, SurelyLacksDecidesNothingItCannot) {
  PyObject* d = PyDict_New();
  PyObject* key = PyLong_FromLong(7);
  ASSERT_EQ(PyDict_SetItem(d, key, Py_None), 0);  // general keys: not unicode ones
  PyObject* name = Str("absent");
  PyObject_Hash(name);
  EXPECT_FALSE(SurelyLacks(AsDict(d), name));
  PyObject* fresh = Str("not hashed yet");  // no hash computed: not looked at
  EXPECT_FALSE(SurelyLacks(AsDict(PyDict_New()), fresh));
  Py_DECREF(fresh);
  Py_DECREF(name);
  Py_DECREF(key);
  Py_DECREF(d);
}

TEST_F(DictAccess, ReplaceDictValueTakesAFreshTagTracksAndReleases) {
  PyObject* d = PyDict_New();
  PyObject* name = Str("attr");
  PyObject* old = PyLong_FromLong(123456789);
  ASSERT_EQ(PyDict_SetItem(d, name, old), 0);
  ASSERT_FALSE(_PyObject_GC_IS_TRACKED(d));  // only an int: untracked
  const Py_ssize_t old_refs = Py_REFCNT(old);
  const uint64_t before = AsDict(d)->ma_version_tag;
  PyObject** place = DictPlaceAt(AsDict(d), name, 0);
  ASSERT_NE(place, nullptr);
  PyObject* list = PyList_New(0);
  ReplaceDictValue(AsDict(d), place, list);
  const uint64_t first = AsDict(d)->ma_version_tag;
  EXPECT_NE(first, before);
  EXPECT_GE(first, uint64_t{1} << 63);
  EXPECT_TRUE(_PyObject_GC_IS_TRACKED(d));
  EXPECT_EQ(Py_REFCNT(old), old_refs - 1);
  EXPECT_EQ(PyDict_GetItem(d, name), list);
  ReplaceDictValue(AsDict(d), place, Py_None);
  EXPECT_NE(AsDict(d)->ma_version_tag, first);
  EXPECT_EQ(PyDict_GetItem(d, name), Py_None);
  EXPECT_EQ(DictPlaceAt(AsDict(d), old, 0), nullptr);   // another key at the index
  EXPECT_EQ(DictPlaceAt(AsDict(d), name, 1), nullptr);  // past the entries
  Py_DECREF(list);
  Py_DECREF(old);
  Py_DECREF(name);
  Py_DECREF(d);
}

}  // namespace
}  // namespace a64jit::python
