// The site stubs (site_stubs.h) run on stand-ins for the frame, dicts, module and caches,
// each case twice: by the LIR interpreter and compiled on this host's executor (Unicorn on
// x86-64, natively on aarch64). A hit returns the cached value with one more reference; each
// guard that fails returns NULL and touches nothing, or, in a64_module_attr_or_helper_stub,
// returns what the helper returns, called with the frame, the cache and the cache's miss_how.
#include "jit/lower/site_stubs.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <gtest/gtest.h>
#include <internal/pycore_dict.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_moduleobject.h>

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
    global = GlobalCache{&globals, &builtins, 41, 42, &module, 0x2b};
    entry = ModuleEntry{&module, 43, &value};
  }
  uint64_t ModuleType() const { return reinterpret_cast<uintptr_t>(&module_type); }
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
std::optional<uint64_t> ResolveMissHelper(const std::string& name) {
  if (name != "a64_module_attr_into_frame") return std::nullopt;
  return reinterpret_cast<uintptr_t>(&RecordMiss);
}

// Each stub run by the interpreter and on the executor: both results, which must agree.
class SiteStubsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    world_ = std::make_unique<World>();
    module_.functions = SiteStubs(world_->ModuleType());
    executor_ = emu::CreateHostExecutor();
    emu::RegisterHelper(reinterpret_cast<const void*>(&RecordMiss),
                        emu::HelperSignature{"RecordMiss", 3, 0, runtime::RetKind::kInt});
    g_seen_miss = SeenMiss{};
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

TEST(SiteStubs, NoModuleTypeIsAnError) { EXPECT_THROW(SiteStubsText(0), std::invalid_argument); }

}  // namespace
}  // namespace a64jit::lower
