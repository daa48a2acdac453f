// The site stubs (site_stubs.h) run on stand-ins for the frame, dicts, module and caches,
// each case twice: by the LIR interpreter and compiled on this host's executor (Unicorn on
// x86-64, natively on aarch64). A hit returns the cached value with one more reference; each
// guard that fails returns NULL and touches nothing, or, in a64_module_attr_or_helper_stub,
// returns what the helper returns, called with the frame, the cache and the cache's miss_how,
// and in a64_attr_hint_or_helper_stub what a64_load_attr_cached returns, called with the
// object and the cache.
#include "jit/lower/site_stubs.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <gtest/gtest.h>
#include <internal/pycore_dict.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_moduleobject.h>
#include <sys/mman.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "emulation/executors.h"
#include "emulation/helper_registry.h"
#include "jit/codegen/codegen.h"
#include "jit/lir/interpreter.h"
#include "jit/runtime/site_cache.h"

namespace a64jit::lower {
namespace {

using runtime::GlobalCache;
using runtime::ModuleEntry;

// Zeroed stand-ins: only the fields the stubs read are set.
struct World {
  PyTypeObject module_type{};
  PyTypeObject other_type{};
  PyTypeObject type_type{};  // stands for &PyType_Type
  // Stand-ins for the truth stub's exact types, with their subclass flags.
  PyTypeObject str_type{}, list_type{}, dict_type{}, tuple_type{}, long_type{};
  PyDictObject globals{}, builtins{}, module_dict{};
  PyModuleObject module{};
  PyObject value{};
  _PyInterpreterFrame frame{};
  // A module attribute's two caches, the global's and then its attribute's, whose module
  // entry the stub finds after the global's (runtime::NextSiteCache).
  runtime::HeadedSiteCache caches[2]{};
  GlobalCache& global = *reinterpret_cast<GlobalCache*>(&caches[0].cache);
  ModuleEntry& entry = reinterpret_cast<runtime::AttrCache*>(&caches[1].cache)->module;

  World() {
    frame.f_globals = reinterpret_cast<PyObject*>(&globals);
    frame.f_builtins = reinterpret_cast<PyObject*>(&builtins);
    globals.ma_version_tag = 41;
    builtins.ma_version_tag = 42;
    module_dict.ma_version_tag = 43;
    module.ob_base.ob_type = &module_type;
    module.md_dict = reinterpret_cast<PyObject*>(&module_dict);
    value.ob_refcnt = 5;
    value.ob_type = &other_type;  // no __get__: a plain value
    global = GlobalCache{&globals, &builtins, 41, 42, &module, 0x2b};
    entry = ModuleEntry{&module, 43, &value};
    str_type.tp_flags = Py_TPFLAGS_UNICODE_SUBCLASS;
    list_type.tp_flags = Py_TPFLAGS_LIST_SUBCLASS;
    dict_type.tp_flags = Py_TPFLAGS_DICT_SUBCLASS;
    tuple_type.tp_flags = Py_TPFLAGS_TUPLE_SUBCLASS;
    long_type.tp_flags = Py_TPFLAGS_LONG_SUBCLASS;
  }
  SiteStubFacts Facts() const {
    const auto at = [](const PyTypeObject& t) { return reinterpret_cast<uintptr_t>(&t); };
    return {at(module_type), at(type_type),  at(str_type), at(list_type),
            at(dict_type),   at(tuple_type), at(long_type)};
  }
};

// An instance of a managed-dict type with a real dict, whose combined unicode keys hold the
// site's name at entry 2 (of 3) with `value`, and an attribute site whose hint says so.
struct HintWorld {
  PyHeapTypeObject heap{};
  PyTypeObject& type = heap.ht_type;
  struct {
    PyObject** inline_values;  // kInlineValuesOffset: four words before the object
    PyObject* dict;            // kManagedDictOffset: three words before the object
    void* gc_header[2];
    PyObject ob;
  } obj{};
  PyDictObject dict{};
  PyObject name{}, other_name{};
  // The keys: the object's header, 8 bytes of indices (dk_log2_index_bytes 3), 4 entries.
  alignas(16) char keys[sizeof(PyDictKeysObject) + 8 + 4 * sizeof(PyDictUnicodeEntry)]{};
  runtime::HeadedSiteCache site{};
  runtime::AttrCache& cache = *reinterpret_cast<runtime::AttrCache*>(&site.cache);

  explicit HintWorld(PyObject* value) {
    type.tp_version_tag = 77;
    type.tp_flags = Py_TPFLAGS_MANAGED_DICT | Py_TPFLAGS_HEAPTYPE;
    obj.ob.ob_type = &type;
    obj.dict = reinterpret_cast<PyObject*>(&dict);
    dict.ma_keys = Keys();
    Keys()->dk_log2_index_bytes = 3;
    Keys()->dk_kind = DICT_KEYS_UNICODE;
    Keys()->dk_nentries = 3;
    Entry(2).me_key = &name;
    Entry(2).me_value = value;
    site.header.name = &name;
    cache.hint = runtime::DictHint{77, 2};
  }
  // A split dict (made from inline values) instead: the entry's value NULL, the dict's own
  // values holding it at the entry's index.
  PyObject* values[4]{};
  void Split() {
    values[2] = Entry(2).me_value;
    Entry(2).me_value = nullptr;
    Keys()->dk_kind = DICT_KEYS_SPLIT;
    dict.ma_values = reinterpret_cast<PyDictValues*>(values);
  }
  PyDictKeysObject* Keys() { return reinterpret_cast<PyDictKeysObject*>(keys); }
  PyDictUnicodeEntry& Entry(int i) {
    return reinterpret_cast<PyDictUnicodeEntry*>(keys + sizeof(PyDictKeysObject) + 8)[i];
  }
};

uint64_t Addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

// A stand-in for a64_module_attr_into_frame: what it was called with, and a result that says
// it was called.
struct SeenMiss {
  uint64_t frame = 0, cache = 0, how = 0;
  int calls = 0;
} g_seen_miss;
constexpr uint64_t kMissResult = 0x5eed;
uint64_t RecordMiss(uint64_t frame, uint64_t cache, uint64_t how) {
  g_seen_miss = SeenMiss{frame, cache, how, g_seen_miss.calls + 1};
  return kMissResult;
}
// A stand-in for a64_load_attr_cached.
struct SeenAttrMiss {
  uint64_t obj = 0, cache = 0;
  int calls = 0;
} g_seen_attr_miss;
constexpr uint64_t kAttrMissResult = 0xa77;
uint64_t RecordAttrMiss(uint64_t obj, uint64_t cache) {
  g_seen_attr_miss = SeenAttrMiss{obj, cache, g_seen_attr_miss.calls + 1};
  return kAttrMissResult;
}
// A stand-in for PyObject_IsTrue: the object it was given, and a result no size test gives.
struct SeenTruthMiss {
  uint64_t obj = 0;
  int calls = 0;
} g_seen_truth_miss;
constexpr uint64_t kTruthMissResult = 7;
uint64_t RecordTruthMiss(uint64_t obj) {
  g_seen_truth_miss = SeenTruthMiss{obj, g_seen_truth_miss.calls + 1};
  return kTruthMissResult;
}
std::optional<uint64_t> ResolveMissHelper(const std::string& name) {
  if (name == "a64_load_attr_cached") return reinterpret_cast<uintptr_t>(&RecordAttrMiss);
  if (name == "PyObject_IsTrue") return reinterpret_cast<uintptr_t>(&RecordTruthMiss);
  if (name != "a64_module_attr_into_frame") return std::nullopt;
  return reinterpret_cast<uintptr_t>(&RecordMiss);
}

// Each stub run by the interpreter and on the executor: both results, which must agree.
class SiteStubsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    world_ = std::make_unique<World>();
    module_.functions = SiteStubs(world_->Facts());
    executor_ = emu::CreateHostExecutor();
    emu::RegisterHelper(reinterpret_cast<const void*>(&RecordMiss),
                        emu::HelperSignature{"RecordMiss", 3, 0, runtime::RetKind::kInt});
    emu::RegisterHelper(reinterpret_cast<const void*>(&RecordAttrMiss),
                        emu::HelperSignature{"RecordAttrMiss", 2, 0, runtime::RetKind::kInt});
    emu::RegisterHelper(reinterpret_cast<const void*>(&RecordTruthMiss),
                        emu::HelperSignature{"RecordTruthMiss", 1, 0, runtime::RetKind::kInt});
    g_seen_miss = SeenMiss{};
    g_seen_attr_miss = SeenAttrMiss{};
    g_seen_truth_miss = SeenTruthMiss{};
    for (const lir::Function& f : module_.functions) {
      codegen::CompileOptions options;
      options.resolve = ResolveMissHelper;
      const codegen::LoadedFunction loaded =
          codegen::CompileInto(*executor_, [&](std::optional<uint64_t> base) {
            options.base_address = base;
            return codegen::Compile(f, options);
          });
      EXPECT_TRUE(loaded.code.stats.frameless) << f.name;  // leaves: no frame record
      entries_[f.name] = loaded.entry;
    }
  }
  // The stub's result; the value's reference count must have moved the same way both times.
  uint64_t Run(const std::string& stub, const std::vector<uint64_t>& args) {
    World& w = *world_;
    const Py_ssize_t before = w.value.ob_refcnt;
    lir::Interpreter interp(module_, ResolveMissHelper);
    std::vector<lir::Value> values;
    for (uint64_t a : args) values.push_back(lir::Value::Int(a));
    const uint64_t interpreted = interp.Run(stub, values)->bits;
    const Py_ssize_t after_interpreted = w.value.ob_refcnt;
    w.value.ob_refcnt = before;
    std::vector<runtime::Arg> native;
    for (uint64_t a : args) native.push_back(runtime::Arg::Int(a));
    const uint64_t compiled = executor_->CallInt(entries_.at(stub), native);
    EXPECT_EQ(interpreted, compiled) << stub;
    EXPECT_EQ(after_interpreted, w.value.ob_refcnt) << stub;
#if !defined(__aarch64__)
    EXPECT_GT(executor_->last_call_stats().guest_instructions, 0u);  // Unicorn ran it
#endif
    return compiled;
  }
  uint64_t Global(const char* stub) {
    return Run(stub, {Addr(&world_->frame), Addr(&world_->global)});
  }
  uint64_t ModuleAttr(const char* stub = kModuleAttrStubName) {
    return Run(stub, {Addr(&world_->frame), Addr(&world_->global)});
  }
  uint64_t HintLoad(HintWorld& h) {
    return Run(kAttrHintStubName, {Addr(&h.obj.ob), Addr(&h.cache)});
  }

  std::unique_ptr<World> world_;
  lir::Module module_;
  std::unique_ptr<runtime::Executor> executor_;
  std::map<std::string, const void*> entries_;
};

TEST_F(SiteStubsTest, GlobalHitTakesAReference) {
  EXPECT_EQ(Global(kGlobalStubName), Addr(&world_->module));
  // The module is the global's value here: one reference from each of the two runs.
  EXPECT_EQ(world_->module.ob_base.ob_refcnt, 2);
  world_->global.value = &world_->value;
  EXPECT_EQ(Global(kGlobalStubName), Addr(&world_->value));
  EXPECT_EQ(world_->value.ob_refcnt, 6);
  EXPECT_EQ(Global(kGlobalBuiltinStubName), Addr(&world_->value));
  EXPECT_EQ(world_->value.ob_refcnt, 7);
}

TEST_F(SiteStubsTest, GlobalMissesOnEitherTag) {
  world_->global.value = &world_->value;
  world_->globals.ma_version_tag = 99;
  EXPECT_EQ(Global(kGlobalStubName), 0u);
  EXPECT_EQ(Global(kGlobalBuiltinStubName), 0u);
  world_->globals.ma_version_tag = 41;
  world_->builtins.ma_version_tag = 99;
  EXPECT_EQ(Global(kGlobalStubName), Addr(&world_->value));  // builtins not its business
  EXPECT_EQ(Global(kGlobalBuiltinStubName), 0u);
  EXPECT_EQ(world_->value.ob_refcnt, 6);
}

TEST_F(SiteStubsTest, ModuleAttrHitTakesAReference) {
  EXPECT_EQ(ModuleAttr(), Addr(&world_->value));
  EXPECT_EQ(world_->value.ob_refcnt, 6);
}

TEST_F(SiteStubsTest, ModuleAttrMissesOnEachGuard) {
  World& w = *world_;
  w.globals.ma_version_tag = 7;  // the globals changed
  EXPECT_EQ(ModuleAttr(), 0u);
  w.globals.ma_version_tag = 41;
  w.entry.module = &w.value;  // the global is another object than the entry's module
  EXPECT_EQ(ModuleAttr(), 0u);
  w.entry.module = &w.module;
  w.module.ob_base.ob_type = &w.other_type;  // not exactly a module any more
  EXPECT_EQ(ModuleAttr(), 0u);
  w.module.ob_base.ob_type = &w.module_type;
  w.module_dict.ma_version_tag = 8;  // the module's dict changed
  EXPECT_EQ(ModuleAttr(), 0u);
  EXPECT_EQ(w.value.ob_refcnt, 5);
  w.module_dict.ma_version_tag = 43;
  EXPECT_EQ(ModuleAttr(), Addr(&w.value));
}

// The helper-calling form: a hit as the other, each miss the helper's result, the helper
// given the stub's frame and cache and the cache's miss_how (twice a miss: interpreted, then
// compiled).
TEST_F(SiteStubsTest, ModuleAttrOrHelperCallsTheHelperOnEachMiss) {
  World& w = *world_;
  EXPECT_EQ(ModuleAttr(kModuleAttrOrHelperStubName), Addr(&w.value));
  EXPECT_EQ(w.value.ob_refcnt, 6);
  EXPECT_EQ(g_seen_miss.calls, 0);
  w.globals.ma_version_tag = 7;
  EXPECT_EQ(ModuleAttr(kModuleAttrOrHelperStubName), kMissResult);
  w.globals.ma_version_tag = 41;
  w.module_dict.ma_version_tag = 8;
  EXPECT_EQ(ModuleAttr(kModuleAttrOrHelperStubName), kMissResult);
  EXPECT_EQ(g_seen_miss.calls, 4);
  EXPECT_EQ(g_seen_miss.frame, Addr(&w.frame));
  EXPECT_EQ(g_seen_miss.cache, Addr(&w.global));
  EXPECT_EQ(g_seen_miss.how, 0x2bu);
  EXPECT_EQ(w.value.ob_refcnt, 6);
}

TEST_F(SiteStubsTest, AttrHintHitTakesAReference) {
  HintWorld h(&world_->value);
  EXPECT_EQ(HintLoad(h), Addr(&world_->value));
  EXPECT_EQ(world_->value.ob_refcnt, 6);
  h.Split();
  EXPECT_EQ(HintLoad(h), Addr(&world_->value));
  EXPECT_EQ(world_->value.ob_refcnt, 7);
  EXPECT_EQ(g_seen_attr_miss.calls, 0);
}

// Each guard of the hint, failing alone, hands the object and the cache to the helper
// (twice: interpreted, then compiled) and takes no reference.
TEST_F(SiteStubsTest, AttrHintCallsTheHelperOnEachMiss) {
  int misses = 0;
  const auto expect_miss = [&](HintWorld& h, const char* what) {
    EXPECT_EQ(HintLoad(h), kAttrMissResult) << what;
    misses += 2;
    EXPECT_EQ(g_seen_attr_miss.calls, misses) << what;
    EXPECT_EQ(g_seen_attr_miss.obj, Addr(&h.obj.ob)) << what;
    EXPECT_EQ(g_seen_attr_miss.cache, Addr(&h.cache)) << what;
    EXPECT_EQ(world_->value.ob_refcnt, 5) << what;
  };
  PyObject* value = &world_->value;
  {
    HintWorld h(value);
    h.cache.hint.type_version = 78;
    expect_miss(h, "another type version");
  }
  {
    HintWorld h(value);
    h.type.tp_version_tag = 0;
    h.cache.hint.type_version = 0;
    expect_miss(h, "no version (an empty hint)");
  }
  {
    HintWorld h(value);
    h.type.tp_flags = Py_TPFLAGS_HEAPTYPE;
    expect_miss(h, "no managed dict");
  }
  {
    HintWorld h(value);
    h.obj.dict = nullptr;
    expect_miss(h, "inline values, no real dict");
  }
  {
    HintWorld h(value);
    h.Keys()->dk_nentries = 2;
    expect_miss(h, "the hint past the entries");
  }
  {
    HintWorld h(value);
    h.Keys()->dk_kind = DICT_KEYS_GENERAL;
    expect_miss(h, "keys not unicode ones");
  }
  {
    HintWorld h(value);
    h.Entry(2).me_key = &h.other_name;
    expect_miss(h, "another name at the hint");
  }
  {
    HintWorld h(value);
    h.Entry(2).me_value = nullptr;
    expect_miss(h, "no value (a deleted entry's)");
  }
  {
    HintWorld h(value);
    h.Split();
    h.values[2] = nullptr;
    expect_miss(h, "no value in a split dict");
  }
}

// A class's plain attribute read through the class (DescrKind::kClassAttr): the value with a
// reference, no helper; each guard failing alone hands over to the helper.
TEST_F(SiteStubsTest, ClassAttrOfAPlainValueHitsAndMisses) {
  World& w = *world_;
  PyTypeObject cls{};
  PyTypeObject with_get{};
  with_get.tp_descr_get = reinterpret_cast<descrgetfunc>(uintptr_t{0x1234});
  const auto load = [&](HintWorld& h) {
    return Run(kAttrHintStubName, {Addr(&cls), Addr(&h.cache)});
  };
  HintWorld h(&w.value);
  h.cache.hint = runtime::DictHint{};
  const auto reset = [&] {
    cls.ob_base.ob_base.ob_type = &w.type_type;
    cls.tp_version_tag = 55;
    w.value.ob_type = &w.other_type;
    h.cache.descr = runtime::DescrEntry{55, runtime::DescrKind::kClassAttr, 0, 0, &w.value, &cls};
  };
  reset();
  EXPECT_EQ(load(h), Addr(&w.value));
  EXPECT_EQ(w.value.ob_refcnt, 6);
  EXPECT_EQ(g_seen_attr_miss.calls, 0);
  int misses = 0;
  const auto expect_miss = [&](const char* what) {
    EXPECT_EQ(load(h), kAttrMissResult) << what;
    EXPECT_EQ(g_seen_attr_miss.calls, misses += 2) << what;
    EXPECT_EQ(w.value.ob_refcnt, 6) << what;
    reset();
  };
  h.cache.descr.guard = &w.module;
  expect_miss("another class");
  cls.ob_base.ob_base.ob_type = &w.other_type;
  expect_miss("a metaclass");
  cls.tp_version_tag = 56;
  expect_miss("the class changed");
  cls.tp_version_tag = 0;
  h.cache.descr.type_version = 0;
  expect_miss("no version");
  w.value.ob_type = &with_get;
  expect_miss("a value with __get__");
  h.cache.descr.kind = runtime::DescrKind::kData;
  expect_miss("another kind");
}

// An attribute of the object's type read through the object (kTypeAttr), a plain value:
// without a guard (its instances have no __dict__), or with its type's shared keys as the
// guard, which the object's inline values follow at the entry's length.
TEST_F(SiteStubsTest, TypeAttrOfAPlainValueHitsAndMisses) {
  World& w = *world_;
  HintWorld h(&w.value);
  h.cache.hint = runtime::DictHint{};
  PyObject* inline_values[1] = {nullptr};
  alignas(16) char keys[sizeof(PyDictKeysObject) + 64]{};
  auto* shared = reinterpret_cast<PyDictKeysObject*>(keys);
  const auto reset = [&] {
    h.obj.inline_values = inline_values;
    h.heap.ht_cached_keys = shared;
    shared->dk_nentries = 3;
    h.type.tp_version_tag = 77;
    h.cache.descr = runtime::DescrEntry{77, runtime::DescrKind::kTypeAttr, 0, 3, &w.value, shared};
  };
  reset();
  EXPECT_EQ(HintLoad(h), Addr(&w.value));
  h.cache.descr.guard = nullptr;
  h.obj.inline_values = nullptr;
  EXPECT_EQ(HintLoad(h), Addr(&w.value)) << "no guard";
  EXPECT_EQ(w.value.ob_refcnt, 7);
  EXPECT_EQ(g_seen_attr_miss.calls, 0);
  int misses = 0;
  const auto expect_miss = [&](const char* what) {
    EXPECT_EQ(HintLoad(h), kAttrMissResult) << what;
    EXPECT_EQ(g_seen_attr_miss.calls, misses += 2) << what;
    EXPECT_EQ(w.value.ob_refcnt, 7) << what;
    reset();
  };
  reset();
  h.type.tp_version_tag = 78;
  expect_miss("the type changed");
  h.obj.inline_values = nullptr;
  expect_miss("no inline values (a real dict may shadow it)");
  h.heap.ht_cached_keys = nullptr;
  expect_miss("other shared keys");
  shared->dk_nentries = 4;
  expect_miss("the shared keys grew (an instance may have the name)");
  w.value.ob_type = &w.module_type;
  w.module_type.tp_descr_get = reinterpret_cast<descrgetfunc>(uintptr_t{0x1234});
  expect_miss("a value with __get__");
  w.module_type.tp_descr_get = nullptr;
  w.value.ob_type = &w.other_type;
}

// An entry holds its value borrowed: once its class has changed or gone, the value may be
// freed, and its memory reused or poisoned (a debug allocator fills it). The stub must not read
// through it before the guards have passed. Here the value is on a page nothing may read, so a
// read before the guards is a fault (under the interpreter, this test process's SIGSEGV).
TEST_F(SiteStubsTest, AStaleEntrysValueIsNeverRead) {
  World& w = *world_;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* freed = mmap(nullptr, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(freed, MAP_FAILED);
  auto* value = static_cast<PyObject*>(freed);
  HintWorld h(&w.value);
  h.cache.hint = runtime::DictHint{};
  // kClassAttr: a new class at the freed one's address, so only the version tells them apart.
  PyTypeObject cls{};
  cls.ob_base.ob_base.ob_type = &w.type_type;
  cls.tp_version_tag = 56;
  h.cache.descr = runtime::DescrEntry{55, runtime::DescrKind::kClassAttr, 0, 0, value, &cls};
  EXPECT_EQ(Run(kAttrHintStubName, {Addr(&cls), Addr(&h.cache)}), kAttrMissResult) << "class";
  // kTypeAttr: the object's type at another version.
  h.type.tp_version_tag = 78;
  h.cache.descr = runtime::DescrEntry{77, runtime::DescrKind::kTypeAttr, 0, 0, value, nullptr};
  EXPECT_EQ(HintLoad(h), kAttrMissResult) << "type";
  EXPECT_EQ(g_seen_attr_miss.calls, 4);
  munmap(freed, page);
}

// Any object may come to a site whose entry is a class's or a type's: the stub reads a field
// only a type has (its version, 384 bytes in) or only an instance of the entry's type has
// (the inline values' word below it) once the guards have shown the object is one. Here a
// small object of another type sits at the end of its page, then at its start, with pages
// nothing may read around it, as a large str or bytes of its own mapping may.
TEST_F(SiteStubsTest, AnotherObjectIsReadOnlyWithinItself) {
  World& w = *world_;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto* pages = static_cast<char*>(
      mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(pages, MAP_FAILED);
  ASSERT_EQ(mprotect(pages, page, PROT_NONE), 0);
  ASSERT_EQ(mprotect(pages + 2 * page, page, PROT_NONE), 0);
  w.other_type.tp_version_tag = 99;
  HintWorld h(&w.value);
  h.cache.hint = runtime::DictHint{};
  PyTypeObject cls{};
  cls.ob_base.ob_base.ob_type = &w.type_type;
  cls.tp_version_tag = 55;
  h.cache.descr = runtime::DescrEntry{55, runtime::DescrKind::kClassAttr, 0, 0, &w.value, &cls};
  auto* at_end = reinterpret_cast<PyObject*>(pages + 2 * page - sizeof(PyObject));
  at_end->ob_refcnt = 1;
  at_end->ob_type = &w.other_type;
  EXPECT_EQ(Run(kAttrHintStubName, {Addr(at_end), Addr(&h.cache)}), kAttrMissResult)
      << "a class's entry, another object";
  alignas(16) char keys[sizeof(PyDictKeysObject) + 64]{};
  h.cache.descr = runtime::DescrEntry{77, runtime::DescrKind::kTypeAttr, 0, 3, &w.value, keys};
  auto* at_start = reinterpret_cast<PyObject*>(pages + page);
  at_start->ob_refcnt = 1;
  at_start->ob_type = &w.other_type;
  EXPECT_EQ(Run(kAttrHintStubName, {Addr(at_start), Addr(&h.cache)}), kAttrMissResult)
      << "a type's entry with shared keys, an object of another type";
  EXPECT_EQ(g_seen_attr_miss.calls, 4);
  w.other_type.tp_version_tag = 0;
  munmap(pages, 3 * page);
}

// The truth stub on objects of each exact type, empty and not: the word after the header
// decides (an int's ob_size is negative for a negative int). A str counts only once ready.
TEST_F(SiteStubsTest, TruthOfSizedObjectsByTheirSizeWord) {
  World& w = *world_;
  PyVarObject var{};  // a list, tuple, int (ob_size) or, by layout, a dict (ma_used)
  const auto truth = [&](PyTypeObject& type, Py_ssize_t size) {
    var.ob_base.ob_type = &type;
    var.ob_size = size;
    return Run(kTruthStubName, {Addr(&var)});
  };
  for (PyTypeObject* type : {&w.list_type, &w.dict_type, &w.tuple_type, &w.long_type}) {
    EXPECT_EQ(truth(*type, 0), 0u);
    EXPECT_EQ(truth(*type, 3), 1u);
  }
  EXPECT_EQ(truth(w.long_type, -1), 1u) << "a negative int";
  PyASCIIObject str{};
  str.ob_base.ob_type = &w.str_type;
  str.state.ready = 1;
  EXPECT_EQ(Run(kTruthStubName, {Addr(&str)}), 0u) << "''";
  str.length = 2;
  EXPECT_EQ(Run(kTruthStubName, {Addr(&str)}), 1u) << "a str of two";
  EXPECT_EQ(g_seen_truth_miss.calls, 0);
}

// Every other object is PyObject_IsTrue's, given the object: a subclass of one of the types
// (its flags say list, its type is another), a type outside their families, a str not ready.
TEST_F(SiteStubsTest, TruthOfAnythingElseIsTheHelpers) {
  World& w = *world_;
  PyTypeObject list_subclass{};
  list_subclass.tp_flags = Py_TPFLAGS_LIST_SUBCLASS;
  PyTypeObject bytes_type{};
  bytes_type.tp_flags = Py_TPFLAGS_BYTES_SUBCLASS;
  PyVarObject var{};
  var.ob_size = 3;
  int calls = 0;
  for (PyTypeObject* type : {&list_subclass, &bytes_type, &w.other_type}) {
    var.ob_base.ob_type = type;
    EXPECT_EQ(Run(kTruthStubName, {Addr(&var)}), kTruthMissResult);
    EXPECT_EQ(g_seen_truth_miss.calls, calls += 2);
    EXPECT_EQ(g_seen_truth_miss.obj, Addr(&var));
  }
  PyASCIIObject str{};
  str.ob_base.ob_type = &w.str_type;
  str.length = 0;  // an unready str's length is not its own yet
  EXPECT_EQ(Run(kTruthStubName, {Addr(&str)}), kTruthMissResult) << "a str not ready";
  EXPECT_EQ(g_seen_truth_miss.calls, calls + 2);
}

TEST(SiteStubs, AMissingFactIsAnError) {
  EXPECT_THROW(SiteStubsText(SiteStubFacts{0, 8, 8, 8, 8, 8, 8}), std::invalid_argument);
  EXPECT_THROW(SiteStubsText(SiteStubFacts{8, 0, 8, 8, 8, 8, 8}), std::invalid_argument);
  EXPECT_THROW(SiteStubsText(SiteStubFacts{8, 8, 8, 8, 8, 8, 0}), std::invalid_argument);
}

}  // namespace
}  // namespace a64jit::lower
