// The JIT's state inside the process, shared by the files that make up jit.h's job: the
// Runtime (configuration, executor, stubs, statistics), each code object's CodeState, and the
// cache that finds a compiled code's state on the call path. Not an API: jit.h is.
//
// jit.cc holds the call path (entry, deopt, the eval hook, generators), whose always-inline
// chain must stay in one file; enable.cc puts the hook in and takes it out; compile_policy.cc
// decides which functions to compile and when; compile.cc compiles one function; stubs.cc sets up
// the runtime (executor, shared guest stubs, native tools); config.cc reads the environment and
// stats_report.cc answers queries and writes the statistics; runtime_state.cc holds the runtime
// itself, the state cache and the log.
#ifndef A64JIT_JIT_PYTHON_RUNTIME_STATE_H_
#define A64JIT_JIT_PYTHON_RUNTIME_STATE_H_

#include <Python.h>
#include <internal/pycore_frame.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jit/codegen/codegen.h"
#include "jit/decisions.h"
#include "jit/lower/lower.h"
#include "jit/python/jit.h"
#include "jit/python/tiering.h"
#include "jit/runtime/executor.h"
#include "jit/runtime/helpers.h"
#include "jit/runtime/site_cache.h"
#include "jit/runtime/stub_entries.h"

#define A64JIT_HIDDEN __attribute__((visibility("hidden")))

namespace a64jit::python {

// The call path (PushFrame, RunCompiled, ClearFrame, ...) is one function once compiled:
// under QEMU each call it saves is a return, an indirect branch through QEMU's lookup.
#define A64JIT_ALWAYS_INLINE inline __attribute__((always_inline))

// The words of a CodeState that the guest call and send stubs read (jit/lower/call_stub.h,
// send_stub.h).
struct StubView {
  const uint8_t* entry = nullptr;  // the compiled code's entry, once compiled
  int64_t plain_argcount = -1;     // co_argcount when that is all the code takes, else -1
  int64_t frame_bytes = 0;         // what the frame takes on the data stack (FrameSlots)
  // 1 for a generator's or coroutine's code whose stack frame is small enough for the send
  // stub to resume it directly (jit_stack.h's count, as plain_argcount for the call stub).
  int64_t resumable = 0;
};

// Words a frame of `code` takes on the data stack (what 3.11's _PyEvalFramePushAndInit
// reserves).
A64JIT_ALWAYS_INLINE Py_ssize_t FrameSlots(PyCodeObject* code) {
  return code->co_nlocalsplus + code->co_stacksize + static_cast<Py_ssize_t>(FRAME_SPECIALS_SIZE);
}

// Whether `code` takes positional parameters only (no keyword-only ones, no *args or
// **kwargs): a call passing exactly co_argcount positional arguments then binds them as the
// first locals, as they are.
inline bool OnlyPositionalParameters(const PyCodeObject* code) {
  return code->co_kwonlyargcount == 0 && (code->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) == 0;
}

// Per code object, in its co_extra slot.
struct CodeState {
  StubView stub;
  enum class Status { kCounting, kCompiled, kFailed };
  Status status = Status::kCounting;
  int64_t calls = 0;
  int64_t interpreted_ns = 0;  // a function with a loop: its interpreted runs' time in all
  int8_t has_loop = -1;        // its code jumps backward (HasLoop): -1 not yet known, 0 no, 1 yes
  bool listed = false;         // matched the jitlist (decided on the first call)
  bool list_checked = false;
  bool suppressed = false;  // never compiled (a64jit.suppress, cinderjit.jit_suppress)
  // The tiering policy: waiting for the compile budget, which it asks again at call recheck_at.
  bool waiting = false;
  int64_t recheck_at = 0;
  // Until the call whose count reaches quiet_until, the policy's answer is no: the hook counts
  // the call and interprets it without asking (compile_policy.cc). Valid only while
  // quiet_epoch is the runtime's policy_epoch (a change of threshold or configuration).
  int64_t quiet_until = 0;
  uint32_t quiet_epoch = 0;
  size_t code_size = 0;              // instructions and literal pool
  codegen::CodeStats code_stats;     // where the instructions end, for the disassembly
  std::vector<uint32_t> data_words;  // and where its data words are
  std::string name;                  // module:qualname
  std::string module;                // for the text of its stages (TextOf)
  PyCodeObject* code = nullptr;      // set once compiled (and then pinned)
  std::string failure;
  int64_t compile_ns = -1;
  std::string kept_text;  // Config::keep_text's text, made at compile time
  // The compile's decisions (jit/decisions.h), for TextOf to make the same text again.
  std::optional<int> opt_limit;
  Plant plant = Plant::kNone;
  // Compiled with entries at its loop headers (loop_entry.h): asked for when a frame of it ran
  // a loop in the interpreter long enough; the headers' code units.
  bool wants_loop_entries = false;
  // What a comprehension's `.0` held in the frame its compile was asked from
  // (hir::CodeInfo::first_local_iterator), kept for TextOf.
  hir::CodeInfo::LocalIterator first_local_iterator = hir::CodeInfo::LocalIterator::kNone;
  std::vector<int> loop_entries;
  std::vector<int> loop_entry_depths;  // each header's stack depth
  int8_t captured = -1;  // matches Config::capture_pattern: -1 not yet known, 0 no, 1 yes
  // The code's site caches, in the order lowering asked for them, and the rooms that own
  // them (RuntimeAddresses::reserve_site_caches; a cache asked for past its room has one of
  // its own). `reserved`: each room lowering reserved, for TextOf to hand out again.
  std::vector<runtime::HeadedSiteCache*> site_caches;
  std::vector<std::unique_ptr<runtime::HeadedSiteCache[]>> site_rooms;
  std::vector<runtime::SiteCache*> reserved;
  size_t room_size = 0, room_used = 0;        // the last room's caches, and those handed out
  std::vector<lower::DeoptSite> deopt_sites;  // indexed by deopt codes
  std::vector<codegen::ExitByCall> exits;     // exits by call: their offsets' codes (lower.h)
};

struct Runtime {
  Config config;
  Py_ssize_t extra_index = -1;
  std::unique_ptr<runtime::Executor> executor;
  // Compiled code runs on every thread of this interpreter (its code embeds the address of
  // this interpreter's eval breaker). All of it runs holding the GIL: compilation, the
  // statistics and the caches need no other lock.
  PyInterpreterState* interp = nullptr;
  PyThreadState* first_thread = nullptr;  // the thread that enabled the JIT
  // first_thread while the JIT is enabled, else NULL: the on/off state itself, so that the
  // call stub tests both with one load.
  PyThreadState* direct_thread = nullptr;
  bool enabled() const { return direct_thread != nullptr; }
  // What the call stub compares the thread with before it calls compiled code directly:
  // direct_thread, except while a run on a stack too short for a chain of such calls is in
  // progress (stub_off_runs of them; jit_stack.h), when it is NULL and every call of compiled
  // code passes the host.
  PyThreadState* stub_thread = nullptr;
  int stub_off_runs = 0;
  // The stack one level of such a chain may take: kMaxDirectFrame and the stub's own frame.
  uint64_t level_bytes = 0;
  Stats stats;
  CompileBudget budget;              // the tiering policy's (tiering.h), from the first enable
  uint32_t policy_epoch = 1;         // advanced when the policy's settings change (quiet_until)
  int64_t enabled_ns = 0;            // when Enable last ran (MonotonicNs)
  std::vector<int64_t> compile_ns;   // per compiled function, for the median and maximum
  std::vector<CodeState*> compiled;  // pinned: their code objects are never freed
  FILE* log = nullptr;
  // Native mode calls compiled code directly unless config.checked_native asks for the
  // executor (which turns guest faults into Python errors, at the price of signal setup).
  bool direct_calls = false;
  uint64_t call_stub = 0;                      // the guest call stub's entry; 0: CALLs ask a64_call
  uint64_t kw_call_stub = 0;                   // the keyword-call stub's, made with the call stub's
  uint64_t send_stub = 0;                      // the send stub's entry; 0: SENDs ask a64_send
  runtime::StubEntryTable entry_table;         // the stubs above with extra entries
  std::map<std::string, uint64_t> site_stubs;  // by name (jit/lower/site_stubs.h); empty: none
  uint64_t release_stubs = 0;    // codegen/release_stubs.h; 0: deallocs are called as written
  uint64_t into_local_stub = 0;  // codegen/into_local_stub.h; 0: called as written
  int dumps_written = 0;         // Config::dump_dir files of this process
  std::optional<bool> flaky_plant_active;  // decided at the first planted compile
  int64_t stub_entries = 0;                // counted by the stub itself
  int64_t stub_resumes = 0;                // counted by the send stub itself
  int64_t compiles = 0;                    // compiles begun (A64JIT_TEST_FAIL counts them)
};

// The one Runtime, never destroyed: code may outlive main(). A plain pointer rather than a
// function-local static: TheRuntime() is on every call's path, and the static's guard kept
// it out of line. Hidden, so that every file reaches it PC-relative, not through the GOT.
A64JIT_HIDDEN extern Runtime* g_runtime;
A64JIT_HIDDEN Runtime& CreateRuntime();
// Always inline: GCC stopped inlining it once Runtime's constructor grew (2.2 M guest
// instructions a round of the generators benchmark, in 224 K calls, qemu_profile).
__attribute__((always_inline)) inline Runtime& TheRuntime() {
  if (__builtin_expect(g_runtime == nullptr, 0)) return CreateRuntime();
  return *g_runtime;
}

// A direct-mapped cache of code -> state for compiled functions, so a call does not need
// _PyCode_GetExtra (a library call); the guest call stub reads it too (its layout is in
// lower::CallStubFacts). Entries are pinned: compiled code objects never die.
struct StateCacheEntry {
  PyCodeObject* code;
  CodeState* state;
};
static_assert(sizeof(StateCacheEntry) == 16, "the call stub indexes 16-byte entries");
constexpr uintptr_t kStateCacheSize = 1024;
A64JIT_HIDDEN extern StateCacheEntry g_state_cache[kStateCacheSize];
inline uintptr_t StateCacheIndex(const PyCodeObject* code) {
  return (reinterpret_cast<uintptr_t>(code) >> 4) & (kStateCacheSize - 1);
}

// 3.11's layout of a code object's extra slots (_PyCodeObjectExtra, internal/pycore_code.h):
// co_extra is NULL or points at a count and that many slots. Read inline on every interpreted
// call instead of calling _PyCode_GetExtra, a library call through the PLT that also checks
// the object's type (cpython311_facts_test checks this reading against it).
struct CodeExtraSlots {
  Py_ssize_t size;
  void* slots[1];
};
inline void* CodeExtraSlot(const PyCodeObject* code, Py_ssize_t index) {
  const auto* extra = static_cast<const CodeExtraSlots*>(code->co_extra);
  return extra != nullptr && index >= 0 && index < extra->size ? extra->slots[index] : nullptr;
}

// A line in the JIT's log (Config::log), if it has one.
void Log(const std::string& line);

// Tells native tools about code just placed: the perf map and jitdump (code_listing.h) and,
// where it runs natively, a debugger (gdb_jit.h: the code must start with codegen's prologue).
// Frameless code (codegen::CodeStats::frameless) is listed only: it has no prologue to describe.
void AnnounceCode(const Runtime& r, const std::string& name, const void* start, size_t size,
                  bool frameless = false);

// What compiled code calls by name: the helpers, the guest call stub and the site stubs.
std::optional<uint64_t> ResolveCallee(const std::string& name);

// CodeState's co_extra destructor: compiled states are pinned, others freed.
void FreeCodeState(void* p);
// `func`'s CodeState (made if `create`), or NULL with a Python error set.
CodeState* StateOfFunction(PyObject* func, bool create);
// The executor, the shared stubs and the native tools, as `config` asks (engine.cc); false
// with a Python error set if they cannot be made.
bool EnsureRuntime(const Config& config);
// Its two halves: the engine (the code-extra index, the executor, the stubs: the costly part,
// which a start delay defers to when the hook goes in, and its waker builds without the GIL:
// engine.h), and what `config` names to write to
// (the log, the perf map and jitdump, the debugger interface), opened when the JIT is enabled
// so that a bad path is an error there.
bool EnsureEngine(const Config& config);
bool OpenOutputs(const Config& config);
// The name of `func`'s module ("?" without a function).
std::string ModuleOf(PyFunctionObject* func);
// Whether `text` matches `pattern`, whose `*` matches any run of characters.
bool GlobMatch(const char* pattern, const char* text);
// compile_policy.cc: whether `st`'s function is to be compiled on this call (it counts the
// call), and whether this interpreted run of it is to be timed (Config::hot_loop_us).
// When it answers no, it sets st->quiet_until, and the hook counts the calls before it alone.
bool Qualifies(CodeState* st, PyCodeObject* code);
// For a run in progress (loop_entry.h): whether it made its function hot enough, `ran_ns` in.
bool RunQualifies(CodeState* st, PyCodeObject* code, int64_t ran_ns);
bool TimesLoop(const Runtime& r, CodeState* st, PyCodeObject* code);
// Counts a call of a function that is still counting when the policy's answer cannot be yes
// before call quiet_until (Qualifies sets it): most interpreted calls end here.
__attribute__((always_inline)) inline bool CountedQuietly(const Runtime& r, CodeState* st) {
  if (st->status != CodeState::Status::kCounting || st->quiet_epoch != r.policy_epoch ||
      st->calls + 1 >= st->quiet_until) {
    return false;
  }
  st->calls++;
  return true;
}

// The tiering policy's parameters for `config` (its compile budget).
TieringParams TieringFor(const Config& config);

// Puts the eval-frame hook in now if the JIT is on and its start delay still runs: for steering
// that wants compiled code to run at once (a numeric threshold, force_compile).
void StartHookNow();

// The eval-frame hook the JIT installs (jit.cc): every Python frame CPython evaluates.
PyObject* EvalFrameHook(PyThreadState* ts, _PyInterpreterFrame* frame, int throwflag);

// While the JIT is enabled, generators and coroutines whose code is compiled resume in it
// without _PyEval_EvalFrame and the eval-frame hook: PyGen_Type's tp_iternext (next(), `for`,
// C iteration) and the am_send of generators and coroutines (PyIter_Send: `yield from`,
// `await`, asyncio's C Task) are the JIT's stand-ins (jit.cc JitGenIterNext, JitAmSend), which
// do what gen_send_ex2 does around the run (docs/cpython311.md) and leave every other case to
// 3.11's own functions. send(), throw() and close() called as methods keep 3.11's path, through
// the hook. Installs them (once; holding the GIL) and puts 3.11's back.
void InstallGeneratorSlots();
void RestoreGeneratorSlots();

// The same for async generators: the am_send of their asend objects (what `__anext__()` and
// `asend(v)` give; 3.11 has none, so PyIter_Send took tp_iternext or the send() method) is the
// JIT's stand-in while it is enabled (async_gen_send.cc). Called by the two above.
void InstallAsyncGenSlots();
void RestoreAsyncGenSlots();

// A created or suspended generator's, coroutine's or async generator's frame resumed with
// `value` sent (borrowed) as the stand-ins resume one (jit.cc): its compiled code, or the
// interpreter where the hook would only count the resume. False, with nothing changed, where
// 3.11's path must take it (tracing, another interpreter, a resume the hook would compile or
// time); else true and the run's result in *result: yielded while gi_frame_state is
// FRAME_SUSPENDED, else returned (or NULL) with the frame still to finish (FinishGenerator).
bool ResumeWithoutHook(PyGenObject* gen, PyObject* value, PyObject** result);

// The end of gen_send_ex2 for a run that returned (`result`) or raised (NULL): PEP 479's
// RuntimeError, the exception state and the frame cleared (jit.cc).
void FinishGenerator(PyGenObject* gen, _PyInterpreterFrame* frame, PyObject* result);

// The frame object part of clearing a frame (rare: only frames someone asked for have one),
// as 3.11's hidden _PyFrame_Clear does it: the frame object released, or, when someone else
// holds it, given a copy of the frame (frame_objects.cc). True when it took the frame over.
bool ReleaseFrameObject(_PyInterpreterFrame* frame);

// The interpreter running `frame` from its exception (throwflag 1), as a deopt with an error
// does, without the "call" event tracing would report there (raise_in_interpreter.cc).
PyObject* RaiseInInterpreter(PyThreadState* ts, _PyInterpreterFrame* frame);

// Compiles `code` (compile.cc): on success st is kCompiled and its code installed; else
// kFailed, with the reason logged and counted. `frame`, when the compile was asked from one of
// `code`'s frames, gives hints (the iterator a comprehension loops over); nullptr: none.
void Compile(CodeState* st, PyCodeObject* code, PyFunctionObject* func,
             const _PyInterpreterFrame* frame = nullptr);
// Installs the compiler's fault hook when config.fail_point asks for one (A64JIT_TEST_FAIL),
// removes it otherwise (compile.cc).
void ConfigureFaultInjection(const Config& config);
// A compiled function's dump: "hir", "lir" or anything else for "asm", made again now.
std::string TextOf(const CodeState& st, const std::string& what);

// A new file in Config::dump_dir for `name`, numbered by the process's dumps (engine.cc);
// nullptr, logged, if it cannot be made.
FILE* OpenDumpFile(Runtime& r, const std::string& name);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_RUNTIME_STATE_H_
