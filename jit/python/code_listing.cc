#include "jit/python/code_listing.h"

#include <Python.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "jit/python/code_region.h"
#include "jit/python/jitdump.h"
#include "jit/python/perf_map.h"

namespace a64jit::python {

namespace {

struct Listing {
  NativeToolsConfig config;
  std::vector<CodeRegion> regions;
  PerfMapFile perf_map;
  JitdumpFile jitdump;
  bool fork_hook = false;
  bool exit_hook = false;
};

Listing& TheListing() {
  static auto* listing = new Listing();  // never destroyed: code outlives main()
  return *listing;
}

// Opens the configured files for this process and lists every region in them.
void OpenFiles(Listing& l) {
  if (l.config.perf_map) {
    l.perf_map.Open(getpid());
    for (const CodeRegion& r : l.regions) l.perf_map.Append(r);
  }
  if (!l.config.jitdump_dir.empty()) {
    l.jitdump.Open(l.config.jitdump_dir, getpid());
    for (const CodeRegion& r : l.regions) l.jitdump.Append(r);
  }
}

// os.register_at_fork(after_in_child=...): the child's own files.
PyObject* AfterForkInChild(PyObject*, PyObject*) {
  Listing& l = TheListing();
  l.perf_map.Close();  // the parent's file stays the parent's: nothing is written to it
  l.jitdump.Abandon();
  try {
    OpenFiles(l);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "a64jit: after fork: %s\n", e.what());
  }
  Py_RETURN_NONE;
}

PyMethodDef kAfterForkDef = {"_a64jit_after_fork_in_child", AfterForkInChild, METH_NOARGS, nullptr};

void RegisterForkHook(Listing& l) {
  if (l.fork_hook) return;
  PyObject* hook = PyCFunction_New(&kAfterForkDef, nullptr);
  PyObject* os = PyImport_ImportModule("os");
  PyObject* reg = os != nullptr ? PyObject_GetAttrString(os, "register_at_fork") : nullptr;
  PyObject* kwargs = Py_BuildValue("{s:O}", "after_in_child", hook);
  PyObject* args = PyTuple_New(0);
  PyObject* res = reg != nullptr && kwargs != nullptr && args != nullptr
                      ? PyObject_Call(reg, args, kwargs)
                      : nullptr;
  if (res == nullptr) {
    PyErr_Clear();
    std::fprintf(stderr, "a64jit: cannot register the fork hook: a forked child has no files\n");
  }
  l.fork_hook = res != nullptr;
  Py_XDECREF(res);
  Py_XDECREF(args);
  Py_XDECREF(kwargs);
  Py_XDECREF(reg);
  Py_XDECREF(os);
  Py_XDECREF(hook);
}

void CloseAtExit() {
  TheListing().jitdump.Close();
  TheListing().perf_map.Close();
}

}  // namespace

void ConfigureNativeTools(const NativeToolsConfig& config) {
  Listing& l = TheListing();
  if (config.perf_map == l.config.perf_map && config.jitdump_dir == l.config.jitdump_dir) return;
  l.perf_map.Close();
  l.jitdump.Close();
  l.config = config;
  OpenFiles(l);
  if (config.perf_map || !config.jitdump_dir.empty()) {
    RegisterForkHook(l);
    if (!l.exit_hook) std::atexit(CloseAtExit);
    l.exit_hook = true;
  }
}

void ListCode(const std::string& name, const void* start, size_t size) {
  Listing& l = TheListing();
  l.regions.push_back(CodeRegion{reinterpret_cast<uintptr_t>(start), size, name});
  l.perf_map.Append(l.regions.back());
  try {
    l.jitdump.Append(l.regions.back());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "a64jit: %s; no more jitdump records\n", e.what());
    l.jitdump.Abandon();
  }
}

std::string PerfMapPath() { return TheListing().perf_map.path(); }
std::string JitdumpPath() { return TheListing().jitdump.path(); }

}  // namespace a64jit::python
