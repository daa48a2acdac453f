// Compiling one function at run time: the addresses its code embeds, the compile itself
// (compiler.h's pipeline) with its decisions, dumps and test plants, placing the code and
// its site caches, and the text of its stages made again on request (TextOf). What decides
// when a function is compiled (Qualifies) stays with the call path in jit.cc.
#include <cstdio>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "jit/codegen/codegen.h"
#include "jit/compiler.h"
#include "jit/decisions.h"
#include "jit/python/code_info.h"
#include "jit/python/deopt_stats.h"
#include "jit/python/helpers.h"
#include "jit/python/jit_stack.h"
#include "jit/python/opcode_names.h"
#include "jit/python/runtime_state.h"
#include "jit/runtime/capped_sink.h"
#include "jit/runtime/code_memory.h"
#include "jit/runtime/helpers.h"

namespace a64jit::python {

namespace {

// The addresses `code`'s compiled code embeds, the call stub's among them.
lower::RuntimeAddresses AddressesFor(PyCodeObject* code) {
  lower::RuntimeAddresses rt = AddressesOf(code);
  rt.call_stub = TheRuntime().call_stub;
  rt.send_stub = TheRuntime().send_stub;
  rt.stub_entries = &TheRuntime().entry_table;
  rt.site_stubs = TheRuntime().site_stubs.empty() ? 0 : 1;
  rt.release_stubs = TheRuntime().release_stubs;
  rt.into_local_stub = TheRuntime().into_local_stub;
  rt.set_miss_how = [](runtime::SiteCache* cache, int64_t how) {
    reinterpret_cast<runtime::GlobalCache*>(cache)->miss_how = how;
  };
  rt.set_attr_form = [](runtime::SiteCache* cache, runtime::AttrForm form) {
    reinterpret_cast<runtime::AttrCache*>(cache)->form = form;
  };
  return rt;
}

// What a compile of `st`'s code takes besides the code object: the loop entries it asked for,
// and the blocks that had not run only when enough calls stand behind that
// (Config::cold_path_calls).
void AsCompiled(const CodeState& st, hir::CodeInfo* info) {
  info->loop_entries = st.wants_loop_entries;
  info->first_local_iterator = st.first_local_iterator;
  if (st.calls < TheRuntime().config.cold_path_calls) info->unrun.clear();
}

}  // namespace

// A compiled function's dump: "hir", "lir" or anything else for "asm", made now (see
// compiler::CompiledCode for why it is not kept). The LIR names the function's site caches:
// replaying them in the order Compile asked for them gives the addresses the code uses.
std::string TextOf(const CodeState& st, const std::string& what) {
  if (what != "hir" && what != "lir") {
    codegen::CompiledFunction loaded;
    loaded.bytes.assign(st.stub.entry, st.stub.entry + st.code_size);
    loaded.stats = st.code_stats;
    loaded.data_words = st.data_words;
    return codegen::Disassemble(loaded, reinterpret_cast<uintptr_t>(st.stub.entry));
  }
  hir::CodeInfo info = CodeInfoOf(st.code, st.module);
  AsCompiled(st, &info);  // but a cold block the interpreter ran since shows as run now
  Decisions decisions(st.opt_limit, st.plant);  // as the compile took them
  lower::RuntimeAddresses rt = AddressesFor(st.code);
  if (what == "hir") return compiler::HirText(info, rt, &decisions);
  size_t next = 0, next_room = 0;
  rt.new_site_cache = [&st, &next](int, int, int) -> runtime::SiteCache* {
    if (next >= st.site_caches.size()) throw std::logic_error("LIR text: more site caches");
    return &st.site_caches[next++]->cache;
  };
  rt.reserve_site_caches = [&st, &next_room](int) -> runtime::SiteCache* {
    if (next_room >= st.reserved.size()) throw std::logic_error("LIR text: more site rooms");
    return st.reserved[next_room++];
  };
  return compiler::LirText(info, rt, &decisions);
}

namespace {

// The counter in `path` (0 if there is none), which is then written back one higher.
int64_t BumpCounterFile(const std::string& path) {
  int64_t value = 0;
  if (FILE* in = std::fopen(path.c_str(), "r")) {
    long long v = 0;
    if (std::fscanf(in, "%lld", &v) == 1) value = v;
    std::fclose(in);
  }
  if (FILE* out = std::fopen(path.c_str(), "w")) {
    std::fprintf(out, "%lld\n", static_cast<long long>(value + 1));
    std::fclose(out);
  }
  return value;
}

// The test-only plant (Config::plant) for function `name`: none unless the pattern matches;
// with a flaky counter, in one process in three.
Plant PlantFor(Runtime& r, const std::string& name) {
  const Config& c = r.config;
  if (c.plant == Plant::kNone || !GlobMatch(c.plant_pattern.c_str(), name.c_str())) {
    return Plant::kNone;
  }
  if (c.plant_flaky_counter.empty()) return c.plant;
  if (!r.flaky_plant_active) r.flaky_plant_active = BumpCounterFile(c.plant_flaky_counter) % 3 == 2;
  return *r.flaky_plant_active ? c.plant : Plant::kNone;
}

// Config::dump_dir's file for one compile: the function's name, its decisions, then the
// HIR, LIR and disassembly its compile made (`all_text`).
void WriteDump(Runtime& r, const CodeState& st, const Decisions& decisions,
               const std::string& all_text) {
  FILE* out = OpenDumpFile(r, st.name);
  if (out == nullptr) return;
  const std::string limit = st.opt_limit ? std::to_string(*st.opt_limit) : "none";
  std::fprintf(out, "function: %s\nopt limit: %s\ndecisions: %zu (%d taken)\n=== decisions ===\n%s",
               st.name.c_str(), limit.c_str(), decisions.records().size(), decisions.taken(),
               decisions.Text().c_str());
  std::fputs(all_text.c_str(), out);
  std::fclose(out);
}

// Makes `c` the code of `st` and counts it.
void Install(Runtime& r, CodeState* st, PyCodeObject* code, compiler::CompiledCode& c) {
  st->code = code;
  st->deopt_sites = std::move(c.deopt_sites);
  st->exits = std::move(c.code.code.exits);
  st->stub.frame_bytes = static_cast<int64_t>(sizeof(PyObject*)) * FrameSlots(code);
  // Generator code too: its call path clears the locals past the parameters (HIR ClearLocals),
  // as other code does at its entry (lower.cc).
  // Called directly by the call stub only with a frame small enough for jit_stack.h's count.
  const bool plain =
      OnlyPositionalParameters(code) && c.code.code.stats.frame_size <= kMaxDirectFrame;
  st->stub.plain_argcount = plain ? code->co_argcount : -1;
  st->stub.resumable = (code->co_flags & (CO_GENERATOR | CO_COROUTINE)) != 0 &&
                       c.code.code.stats.frame_size <= kMaxDirectFrame;
  st->stub.entry = c.code.entry;
  st->code_size = c.code.code.bytes.size();
  st->code_stats = c.code.code.stats;
  st->data_words = c.code.code.data_words;
  st->kept_text = std::move(c.text);
  st->loop_entries = std::move(c.loop_entries);
  st->loop_entry_depths = std::move(c.loop_entry_depths);
  st->compile_ns = c.times.total_ns();
  st->status = CodeState::Status::kCompiled;
  Py_INCREF(code);  // the machine code embeds its constants and names
  g_state_cache[StateCacheIndex(code)] = {code, st};
  r.compiled.push_back(st);
  r.stats.compiled++;
  r.stats.code_bytes += st->code_size;
  r.stats.feedback_sites += c.feedback_sites;
  r.stats.feedback_functions += c.feedback_sites > 0;
  if (const std::optional<int> op = c.handlers_left_by) {
    r.stats.handler_opcodes[*op >= 0 ? OpcodeName(*op) : std::string("(other)")]++;
  }
  r.stats.compile_hir_ns += c.times.hir_ns;
  r.stats.compile_lower_ns += c.times.lower_ns;
  r.stats.compile_emit_ns += c.times.emit_ns;
  r.stats.compile_ns_total += st->compile_ns;
  r.compile_ns.push_back(st->compile_ns);
  AnnounceCode(r, "a64jit:" + st->name, st->stub.entry, st->code_size);
  Log("compiled " + st->name + " (" + std::to_string(st->code_size) + " bytes)");
}

// A new room of `count` zeroed caches for st, which NewSiteCache hands out from now on.
runtime::HeadedSiteCache* AddRoom(CodeState* st, size_t count) {
  st->site_rooms.push_back(std::make_unique<runtime::HeadedSiteCache[]>(count));
  st->room_size = count;
  st->room_used = 0;
  return st->site_rooms.back().get();
}

// RuntimeAddresses::reserve_site_caches for st: a room of `count` zeroed caches.
runtime::SiteCache* ReserveSiteCaches(CodeState* st, int count) {
  st->reserved.push_back(&AddRoom(st, static_cast<size_t>(count))->cache);
  return st->reserved.back();
}

// RuntimeAddresses::new_site_cache for st: the next cache of its room (or a room of one),
// its header naming the instruction at code unit `bc` and co_names[name].
runtime::SiteCache* NewSiteCache(CodeState* st, PyCodeObject* code, int bc, int name, int argc) {
  if (st->room_used == st->room_size) AddRoom(st, 1);
  runtime::HeadedSiteCache* site = &st->site_rooms.back()[st->room_used++];
  if (bc >= 0) site->header.prev_instr = _PyCode_CODE(code) + bc;
  if (name >= 0) site->header.name = PyTuple_GET_ITEM(code->co_names, name);
  if (argc >= 0) site->header.argc = argc;
  st->site_caches.push_back(site);
  RegisterCacheSite(&site->cache, &st->name, code, bc);
  return &site->cache;
}

// A64JIT_TEST_FAIL=POINT:N: every Nth compile of this process fails at POINT
// (compiler::FaultHook) with what a real failure there throws.
void InjectFault(const char* point) {
  const Runtime& r = TheRuntime();
  if (r.config.fail_point != point || r.compiles % r.config.fail_every != 0) return;
  if (r.config.fail_point == "code-memory") {
    throw runtime::CodeMemoryExhausted(
        "code memory: mmap failed: Cannot allocate memory (injected: A64JIT_TEST_FAIL)");
  }
  throw std::bad_alloc();
}

// hir::CodeInfo::first_local_iterator of `code` from its `frame`: the kind of iterator
// local 0 holds when it is a comprehension's or generator expression's `.0` (an argument, so
// bound before the frame runs), exactly of enumerate's, a dict item, key or value iterator's,
// or zip's type.
hir::CodeInfo::LocalIterator FirstLocalIterator(PyCodeObject* code,
                                                const _PyInterpreterFrame* frame) {
  using LocalIterator = hir::CodeInfo::LocalIterator;
  if (code->co_argcount != 1 || code->co_nlocalsplus < 1) return LocalIterator::kNone;
  PyObject* name = PyTuple_GET_ITEM(code->co_localsplusnames, 0);
  if (!PyUnicode_Check(name) || PyUnicode_CompareWithASCIIString(name, ".0") != 0) {
    return LocalIterator::kNone;
  }
  PyObject* it = frame->localsplus[0];
  if (it == nullptr) return LocalIterator::kNone;
  if (Py_IS_TYPE(it, &PyEnum_Type)) return LocalIterator::kEnumerate;
  if (Py_IS_TYPE(it, &PyDictIterItem_Type)) return LocalIterator::kDictItems;
  if (Py_IS_TYPE(it, &PyDictIterKey_Type)) return LocalIterator::kDictKeys;
  if (Py_IS_TYPE(it, &PyDictIterValue_Type)) return LocalIterator::kDictValues;
  if (Py_IS_TYPE(it, &PyZip_Type)) return LocalIterator::kZip;
  return LocalIterator::kNone;
}

// Compiles and installs, or leaves st failed with the reason.
void TryCompile(Runtime& r, CodeState* st, PyCodeObject* code, PyFunctionObject* func) {
  r.compiles++;
  try {
    lower::RuntimeAddresses rt = AddressesFor(code);
    rt.new_site_cache = [st, code](int bc, int name, int argc) {
      return NewSiteCache(st, code, bc, name, argc);
    };
    rt.reserve_site_caches = [st](int count) { return ReserveSiteCaches(st, count); };
    runtime::Executor& executor = *r.executor;
    runtime::CappedSink capped(executor, r.config.max_code_size,
                               [&executor] { return executor.code_bytes_used(); });
    runtime::CodeSink& sink =
        r.config.max_code_size != 0 ? static_cast<runtime::CodeSink&>(capped) : executor;
    st->opt_limit = r.config.opt_limit;
    st->plant = PlantFor(r, st->name);
    Decisions decisions(st->opt_limit, st->plant);
    const bool dump = !r.config.dump_dir.empty();
    // Without a limit, a plant or a dump, nothing asks about decisions: none are recorded.
    const bool counted = st->opt_limit || st->plant != Plant::kNone || dump;
    hir::CodeInfo info =
        CodeInfoOf(code, ModuleOf(func), func != nullptr ? func->func_globals : nullptr);
    AsCompiled(*st, &info);
    compiler::CompiledCode c =
        compiler::Compile(info, rt, sink, ResolveCallee, dump ? "all" : r.config.keep_text,
                          counted ? &decisions : nullptr);
    if (dump) WriteDump(r, *st, decisions, c.text);
    Install(r, st, code, c);
  } catch (const hir::Unsupported& e) {
    st->status = CodeState::Status::kFailed;
    if (e.opcode() >= 0) {
      const std::string op = OpcodeName(e.opcode());
      st->failure = "unsupported opcode " + op + " at offset " + std::to_string(e.offset());
      r.stats.unsupported_opcodes[op]++;
    } else {
      st->failure = std::string(e.what()) + " (offset " + std::to_string(e.offset()) + ")";
    }
  } catch (const runtime::CodeCapReached& e) {
    st->status = CodeState::Status::kFailed;
    st->failure = e.what();
    r.stats.refused_by_code_cap++;
  } catch (const runtime::CodeMemoryExhausted& e) {
    st->status = CodeState::Status::kFailed;
    st->failure = e.what();  // the function stays interpreted; later ones may still fit
  } catch (const std::bad_alloc&) {
    st->status = CodeState::Status::kFailed;
    st->failure = "out of memory while compiling";
  } catch (const std::exception& e) {
    st->status = CodeState::Status::kFailed;
    st->failure = std::string("internal error: ") + e.what();
  }
}

}  // namespace

void ConfigureFaultInjection(const Config& config) {
  compiler::SetFaultHook(config.fail_point.empty() ? nullptr : InjectFault);
}

void Compile(CodeState* st, PyCodeObject* code, PyFunctionObject* func,
             const _PyInterpreterFrame* frame) {
  Runtime& r = TheRuntime();
  const int64_t start = MonotonicNs();
  if (frame != nullptr) st->first_local_iterator = FirstLocalIterator(code, frame);
  TryCompile(r, st, code, func);
  r.budget.Record(Py_SIZE(code), MonotonicNs() - start);  // a failed compile costs too
  if (st->status == CodeState::Status::kFailed) {
    for (runtime::HeadedSiteCache* site : st->site_caches) ForgetCacheSite(&site->cache);
    r.stats.failed++;
    r.stats.failures[st->name] = st->failure;
    Log("not compiled " + st->name + ": " + st->failure);
  }
}

}  // namespace a64jit::python
