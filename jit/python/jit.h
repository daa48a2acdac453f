// The JIT inside CPython 3.11: which functions get compiled and when, entering compiled
// code, and leaving it for the interpreter.
//
// Entry, first call: an eval-frame hook sees every Python frame CPython creates. It counts
// calls, compiles a function once it qualifies (threshold or jitlist), and runs compiled
// code on the very `_PyInterpreterFrame` CPython made; CPython pushes and pops that frame.
// It also sets the function's `vectorcall` to the JIT's entry.
// Entry, later calls: `func->vectorcall` pushes a frame on the thread's data stack itself
// (as _PyEvalFramePushAndInit would), runs the compiled code without going through the
// hook, and clears the frame as _PyFrame_Clear would (a frame object that outlives the call
// takes over a copy). Calls it does not handle (keywords, defaults, *args) go the first way.
// Either way the frame is linked as the thread's current frame while compiled code runs,
// with prev_instr kept current, so sys._getframe, frame objects, tracebacks and line
// numbers see what they would see in the interpreter.
// Exit: compiled code returns the result, or a deopt code after writing the value stack's
// owned values into the frame; the runtime completes the frame from the code's DeoptSite
// (DeoptSite in jit/lower/lower.h: prev_instr, stacktop, borrowed locals and constants), then
// `_PyEval_EvalFrameDefault` takes over at that instruction (throwflag 1 to unwind a
// pending exception through the exception table, 0 to execute the instruction).
// Generators and coroutines run compiled code too: their frames enter through the hook on
// send(), and next(), `yield from` and `await` resume them directly (jit.cc JitGenIterNext,
// JitAmSend). Other
// threads of the interpreter run compiled code through the hook; only the thread that enabled the
// JIT takes the direct call path. Interpreted, always: tracing or profiling on, another
// interpreter, and functions with unsupported bytecode.
#ifndef A64JIT_JIT_PYTHON_JIT_H_
#define A64JIT_JIT_PYTHON_JIT_H_

#include <Python.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jit/decisions.h"
#include "jit/runtime/executor.h"

namespace a64jit::python {

struct Config {
  // Compile a function when it is called for the (threshold+1)-th time: 0 compiles on the
  // first call (for testing: everything that runs is compiled). kAutoThreshold: the tiering
  // policy (tiering.h). nullopt: not given, and Enable gives it DefaultThreshold.
  std::optional<int64_t> threshold;
  static constexpr int64_t kAutoThreshold = -1;
  bool auto_tiering() const { return threshold == kAutoThreshold; }
  // The threshold when none is given, for the runner, a64jit.enable() and A64JIT_*
  // variables alike: a JIT list given alone compiles what it lists on the first call, as
  // CinderX's list does; anything else gets the tiering policy.
  int64_t DefaultThreshold() const {
    return jitlist.empty() && jitlist_file.empty() ? kAutoThreshold : 0;
  }
  void SettleThreshold() {
    if (!threshold) threshold = DefaultThreshold();
  }
  // The tiering policy's compile budget: the share of the time since the JIT was enabled
  // that compiling may take, in percent (0: no budget).
  int64_t compile_budget_pct = 10;
  // With the tiering policy and a budget, the eval-frame hook goes in this many milliseconds
  // after the JIT is enabled, not at once: 3.11 stops running Python-to-Python calls inside
  // the caller's interpreter loop while a hook is in, which costs an interpreted program
  // about a tenth, and a process too short to compile anything would only pay that.
  // kAutoStartDelay: three times the CPU time the process took to get to the enable (its
  // start-up, as measured on this machine). 0: at once (a64jit.enable()'s default).
  int64_t start_delay_ms = kAutoStartDelay;
  static constexpr int64_t kAutoStartDelay = -1;
  // A function with a loop (a JUMP_BACKWARD) whose interpreted runs have taken this many
  // microseconds in all, callees included, compiles at its next call even below the
  // threshold: calls alone miss a loop that runs long in a function called a few times, and
  // there is no on-stack replacement to take over a running frame. 0: calls only. Wall-clock
  // time, so which functions it picks can vary between runs; threshold 0 never needs it.
  int64_t hot_loop_us = kDefaultHotLoopUs;
  static constexpr int64_t kDefaultHotLoopUs = 1000;
  // A function compiled after this many interpreted calls or more (3.11 having quickened it:
  // feedback.h) leaves the blocks that had not run by then to the interpreter (ColdExit, and
  // what only they lead to is not compiled). Fewer calls say too little about a block that
  // runs now and then: at 100, a wall test of the suite's particles ran after compiling, and
  // left compiled code about 400 times a call. The tiering policy's functions have 1,000
  // calls (TieringParams::min_calls) unless a loop made them hot. 0: whatever the count.
  int64_t cold_path_calls = kDefaultColdPathCalls;
  static constexpr int64_t kDefaultColdPathCalls = 1000;
  // Only functions matching one of these "module:qualname" patterns (`*` matches any run
  // of characters); empty: all functions.
  std::vector<std::string> jitlist;
  std::optional<runtime::ExecMode> exec_mode;  // nullopt: this host's
  std::string log;                             // "", "stderr", or a file to append to
  // Native mode: run compiled code through the executor, so a fault in it becomes a Python
  // SystemError with a disassembly instead of a signal (slower: signal setup per entry).
  bool checked_native = false;
  // "hir", "lir" or "asm": keep that text of every function from its compile, so that
  // DumpKept works after the interpreter has finalised. Empty: texts are made on demand
  // (they are about ten times the size of the code, and slower to make than the code).
  std::string keep_text;
  // A JIT list file (jitlist_file.h) and its patterns, read when the config is made: with a
  // file, only functions matching one of its or `jitlist`'s patterns are compiled (an empty
  // file: none).
  std::string jitlist_file;
  std::vector<std::string> jitlist_file_patterns;
  // A cap on code memory in use (bytes): a function whose code would pass it stays
  // interpreted, with the reason logged and in stats()' failures (a smaller one later may
  // still fit). 0: no cap.
  uint64_t max_code_size = 0;
  // The stack each thread's Python frames and compiled code run on (jit_stack.h), in MiB of
  // address space reserved; pages are committed as they are touched.
  int64_t stack_mib = 4096;
  // Native tools (code_listing.h): perf's /tmp/perf-PID.map, jitdump files in a directory.
  bool perf_map = false;
  std::string jitdump_dir;
  // Bisection (jit/decisions.h, difftest/bisect): take only the first opt_limit optional
  // decisions of each function compiled; write each compiled function's decisions, HIR, LIR
  // and disassembly, made by its compile, to a file in dump_dir (keep_text's text is then
  // all three).
  std::optional<int> opt_limit;
  std::string dump_dir;
  // Test-only: break the functions matching plant_pattern with `plant`; with a counter file,
  // only in one process in three (the counter's value before this process, mod 3, is 2).
  Plant plant = Plant::kNone;
  std::string plant_pattern;
  std::string plant_flaky_counter;
  // Record the arguments and results of calls to functions matching capture_pattern in
  // capture_file (call_capture.h; for difftest/bisect's reproducers).
  std::string capture_pattern;
  std::string capture_file;
  // Test-only fault injection (compiler::FaultHook): every fail_every-th compile fails at
  // fail_point ("hir", "lower", "emit", "code-memory"); empty: none.
  std::string fail_point;
  int64_t fail_every = 1;
};

// Settings from the A64JIT_* variables of options.h's table (the JIT's, not the runner's).
// `any` is false when none of A64JIT_THRESHOLD, A64JIT_JITLIST and A64JIT_JITLIST_FILE is
// set. Throws std::invalid_argument "VARIABLE: what is wrong" for a malformed value.
struct EnvConfig {
  Config config;
  bool any = false;
};
EnvConfig ConfigFromEnvironment();
// Reads config->jitlist_file's patterns into config->jitlist_file_patterns (throws
// std::invalid_argument naming the file and line).
void LoadJitListFile(Config* config);
// The reverse: sets the variables ConfigFromEnvironment reads to what `config` says (and
// clears those it leaves unset), so a subprocess that reads them runs as configured.
void ExportToEnvironment(const Config& config);
std::vector<std::string> SplitList(const std::string& s);
// A non-negative decimal count (a threshold, a byte count); nullopt for anything else.
std::optional<int64_t> ParseCount(const std::string& s);

struct Stats {
  int64_t compiled = 0;
  int64_t failed = 0;
  std::map<std::string, std::string> failures;         // "module:qualname" -> reason
  std::map<std::string, int64_t> unsupported_opcodes;  // opcode name -> functions
  int64_t entries = 0;                                 // runs of compiled code
  int64_t vectorcall_entries = 0;                      // of which entered by vectorcall
  int64_t direct_entries = 0;  // of which called by compiled code itself (EnterCompiledCall)
  int64_t stub_entries = 0;    // of which entered by the guest call stub (jit/lower/call_stub.h)
  // Of the entries, generator and coroutine resumes by next(), `yield from` or `await` that
  // skipped the eval-frame hook (jit.cc JitGenIterNext, JitAmSend).
  int64_t resumed_entries = 0;
  int64_t stub_resumes = 0;  // of which by compiled code's SEND, through the send stub
  // Binary operators whose class's Python method compiled code called straight
  // (a64_binary_object), without PyNumber_* and the class's slot.
  int64_t operator_calls = 0;
  // The same for comparisons of two instances of one class (python_compare.h), without
  // PyObject_RichCompare and the class's slot.
  int64_t comparison_calls = 0;
  // Pairs of items that tuple comparisons and `in` over a constant tuple compared as equal or
  // not without PyObject_RichCompareBool (leaf_equality.h: strs, numbers, None).
  int64_t leaf_equalities = 0;
  // CALLs with keyword arguments whose compiled callee the keyword-call stub entered itself,
  // its parameters bound by a64_call_kw_enter (no host frame between).
  int64_t keyword_entries = 0;
  // Instances of a user class made by the call stub with its compiled __init__ entered as any
  // compiled callee is (a64_init_enter).
  int64_t init_entries = 0;
  // `s += t` of strs whose t compiled code appended to s's own object, as stock does
  // (a64_binary_op_into_local), instead of making a new str.
  int64_t str_appends_in_place = 0;
  int64_t deopts = 0;           // of which left for the interpreter
  int64_t cold_path_exits = 0;  // of which at a block that had not run when compiled
  // Function frames (not module or class bodies) the interpreter ran: not compiled (yet),
  // or an entry compiled code does not take (a generator being made, a throw(), tracing).
  int64_t interpreted_entries = 0;
  // Of which plain calls of functions still counting whose frame the JIT's vectorcall for
  // interpreted functions pushed and took to the interpreter itself (jit.cc
  // InterpretedVectorcall), without CPython's generic binding and the eval-frame hook.
  int64_t interpreted_vectorcalls = 0;
  // Of which generator and coroutine resumes by next(), `yield from` or `await` that the JIT's
  // stand-ins took to the interpreter themselves (jit.cc ResumeInterpreted), without
  // _PyEval_EvalFrame and the eval-frame hook.
  int64_t interpreted_resumes = 0;
  // Values async generators yielded to `async for` and `await agen.asend(v)` that the JIT's
  // stand-in gave back without the StopIteration 3.11 makes for each (async_gen_send.cc).
  int64_t async_gen_values = 0;
  // Methods `super().name(...)` found and called without the bound method 3.11 makes
  // (super_lookup.h).
  int64_t super_methods = 0;
  int64_t bodies = 0;  // module and class bodies seen (never compiled: they run once)
  // Entries of compiled code on a thread other than the one that enabled the JIT.
  int64_t other_thread_entries = 0;
  // Times compiled code found the eval breaker or tracing set and called a64_eval_breaker.
  int64_t breaker_calls = 0;
  // Exceptions caught by a handler in compiled code (without leaving for the interpreter).
  int64_t caught = 0;
  // Exceptions that left a compiled frame through the runtime (traceback entry and stack
  // released there), not through the interpreter: not counted as deopts.
  int64_t unwinds = 0;
  // Compiled functions whose exception handlers stay interpreted (hir::Function::
  // handlers_left_by), per opcode that made them so; HandlersInterpreted() totals them.
  std::map<std::string, int64_t> handler_opcodes;
  int64_t HandlersInterpreted() const {
    int64_t n = 0;
    for (const auto& [op, count] : handler_opcodes) n += count;
    return n;
  }
  uint64_t guest_instructions = 0;  // Unicorn; 0 natively
  // Unicorn: guest -> host calls, and those made without stopping emulation (0 natively).
  uint64_t host_calls = 0, host_calls_in_hook = 0;
  bool instructions_counted = true;  // false under A64JIT_UNICORN_UNCOUNTED=1
  uint64_t code_bytes = 0;
  // Compiled instructions whose inline forms 3.11's quickened code narrowed (hir/feedback.h),
  // and the functions with at least one.
  int64_t feedback_sites = 0, feedback_functions = 0;
  // Functions that qualified for compiling by their loops' interpreted time
  // (Config::hot_loop_us) before their call count reached the threshold.
  int64_t loop_time_qualified = 0;
  // Loop entries (loop_entry.h): functions compiled for a frame running their loop in the
  // interpreter; times traps were set at their loop headers, and refused (a frame of the code
  // was not an entry frame); frames that entered compiled code at a header.
  int64_t loop_entry_compiles = 0;
  int64_t loop_traps = 0;
  int64_t loop_traps_refused = 0;
  int64_t loop_entries = 0;
  // Early frames (early_frames.h), running when the hook went in: those that went on in
  // compiled code from a loop header, and those refused at a header (the reason in
  // early_frames.h).
  int64_t early_entries = 0;
  int64_t early_entries_refused = 0;
  // The tiering policy (threshold auto): functions that proved hot but waited for the compile
  // budget at least once, and those still waiting at exit.
  int64_t budget_deferred = 0;
  int64_t budget_waiting = 0;
  // Config::start_delay_ms as it applied, and when the eval-frame hook went in: milliseconds
  // after the enable, -1 while it has not (the process may end first: then it ran as stock).
  int64_t start_delay_ms = 0;
  int64_t hook_started_ms = -1;
  // The engine (executor and stubs, engine.h): how long its build took, and whether the start
  // delay's waker built it without the GIL (1) or a thread holding the GIL did (0).
  int64_t engine_build_us = 0;
  int64_t engine_off_gil = 0;
  // Thread stacks (jit_stack.h) mapped, and taken again from threads that ended.
  int64_t jit_stacks_made = 0;
  int64_t jit_stacks_reused = 0;
  int64_t jit_stack_rests_used = 0;  // threads whose recursion went on to the stack rest
  // Compile time: per function (median, 90th percentile, maximum) and per stage (total over
  // functions).
  int64_t compile_us_median = 0;
  int64_t compile_us_p90 = 0;
  int64_t compile_us_max = 0;
  int64_t compile_hir_ns = 0;    // bytecode -> optimised HIR
  int64_t compile_lower_ns = 0;  // HIR -> verified LIR
  int64_t compile_emit_ns = 0;   // register allocation, encoding, loading
  int64_t compile_ns_total = 0;  // all compiles, all stages
  // Code memory: bytes placed (functions, stubs; each rounded up to 16) and mapped.
  uint64_t code_memory_used = 0;
  uint64_t code_memory_reserved = 0;
  uint64_t max_code_size = 0;       // the cap (0: none)
  int64_t refused_by_code_cap = 0;  // functions left interpreted because of it
  std::string exec_mode;
};

// Py_EnterRecursiveCall(where) with its fast path inline: a library call costs two
// indirect branches, which dominate a call under QEMU. Py_LeaveRecursiveCall() is
// `ts->recursion_remaining++`.
inline bool EnterRecursiveCall(PyThreadState* ts, const char* where) {
  if (ts->recursion_remaining > 0) {
    ts->recursion_remaining--;
    return true;
  }
  return Py_EnterRecursiveCall(where) == 0;
}

// The vectorcall the JIT installs on compiled functions; whether `f` is it (compiled code's
// call helper then calls it directly); and the same for a caller that knows the thread state
// (compiled code): direct calls avoid indirect branches, which dominate a call under QEMU.
PyObject* JitVectorcall(PyObject* callable, PyObject* const* args, size_t nargsf,
                        PyObject* kwnames);
inline bool IsJitVectorcall(vectorcallfunc f) { return f == JitVectorcall; }
// Whether `callable` is a Python function whose code is compiled.
inline bool IsCompiledFunction(PyObject* callable) {
  return PyFunction_Check(callable) &&
         IsJitVectorcall(reinterpret_cast<PyFunctionObject*>(callable)->vectorcall);
}
PyObject* CallCompiled(PyThreadState* ts, PyObject* callable, PyObject* const* args, size_t nargsf,
                       PyObject* kwnames);
// A Python function object called with positional arguments as its vectorcall would call it,
// a compiled one through CallCompiled without that indirect call: for helpers that call a
// function they looked up.
inline PyObject* CallFunction(PyThreadState* ts, PyObject* function, PyObject* const* args,
                              size_t nargsf) {
  return IsJitVectorcall(reinterpret_cast<PyFunctionObject*>(function)->vectorcall)
             ? CallCompiled(ts, function, args, nargsf, nullptr)
             : PyObject_Vectorcall(function, args, nargsf, nullptr);
}
// `function(first, *args)` for a Python function object, as CallFunction would make it with
// the vector [first, args...], without building that vector for a compiled function whose
// plain call fits: `first` and the arguments go straight into its frame (a64_instantiate's
// new object and __init__'s arguments; a64_binary_object's two operands).
PyObject* CallFunctionWithFirst(PyThreadState* ts, PyObject* function, PyObject* first,
                                PyObject* const* args, Py_ssize_t nargs);
// The same for compiled code's CALL, which owns `callable` and its `total` arguments (the
// last len(kwnames) of them by keyword, as in vectorcall): their references move into the new
// frame (or are released after binding or CPython's path) instead of being taken and dropped
// again. args[-1] may be overwritten meanwhile.
PyObject* CallCompiledConsuming(PyThreadState* ts, PyObject* callable, PyObject* const* args,
                                Py_ssize_t total, PyObject* kwnames = nullptr);

// Compiled code's CALL of a compiled function, made by the caller's own code with no host
// frame between the two (under Unicorn, no nested emulation either). EnterCompiledCall
// pushes the callee's frame, moves `callable` and its `nargs` positional arguments into
// it (or, for another shape, binds them: defaults, *args, keyword-only defaults, and the
// keyword arguments whose names `kwnames` gives, their values after the positional ones; and
// releases them all), makes it current and returns the entry to call as entry(ts, *out);
// nullptr, with nothing done, when the call must take CallCompiledConsuming instead
// (arguments that do not bind, tracing, a full data stack, the recursion limit). The frame's
// code is borrowed, as the call stub's own push leaves it: the stub pops a plain return's
// frame without releasing it. LeaveCompiledCall takes what the entry returned for every other
// end (the frame's code its own reference again), finishes a deopt in the interpreter, and
// pops the frame.
const void* EnterCompiledCall(PyThreadState* ts, PyObject* callable, PyObject* const* args,
                              Py_ssize_t nargs, PyObject* kwnames, _PyInterpreterFrame** out);
PyObject* LeaveCompiledCall(PyThreadState* ts, _PyInterpreterFrame* frame, uint64_t result);

// A function compiled code's MAKE_FUNCTION made (a closure, lambda or generator expression
// made anew on each call of its maker): the JIT's vectorcall when its code is compiled
// already, as its first run would install it. Until then, calls of it from compiled code
// missed the call stub's direct path (which tests the vectorcall) and took the host helper.
void AdoptJitVectorcall(PyFunctionObject* func);

// For a call site's cache (runtime::CCallCache): the state of the compiled code of Python
// function `callable` when a call with `nargs` positional arguments passes exactly its
// positional parameters, so that the call stub can enter it directly; else nullptr.
const void* DirectCallState(PyObject* callable, Py_ssize_t nargs);

// Counts a call of a64_eval_breaker (Stats::breaker_calls).
void CountBreakerCall();
// Counts an exception a compiled handler caught (a64_catch_exception).
void CountCaughtException();
// The pending exception's traceback entry for `frame`, the thread's current frame, as the
// interpreter's error path adds it. PyEval_GetFrame makes the frame object (keeping the
// pending exception) but clears the error it fails with: MemoryError is then pending, as
// after the interpreter's _PyFrame_GetFrameObject.
void AddTracebackEntry(_PyInterpreterFrame* frame);

// All calls need the GIL. Errors are Python exceptions (return false / nullptr).
bool Enable(const Config& config);
void Disable();
bool IsEnabled();
// Compiles `func` now; false (no exception) when it cannot be compiled, see Failure().
bool ForceCompile(PyObject* func);  // false for a suppressed function
// Steering, as cinderx.jit does it (jit/python/README.md). Suppress: `func` is never
// compiled (false with a Python error: not a function). The threshold, JIT list and code cap
// changed here apply from the next call that asks: a function already compiled stays so, and
// the list is matched once per function, on its first call after the JIT is on.
bool Suppress(PyObject* func);
int64_t Threshold();
void SetThreshold(int64_t calls);
std::vector<std::string> JitList();  // the list file's patterns, then those given
void AppendJitList(const std::string& pattern);
void SetMaxCodeSize(uint64_t bytes);
bool IsCompiled(PyObject* func);
int64_t CompiledSize(PyObject* func);  // bytes of machine code, 0 when not compiled
// Where its code starts (0 when not compiled), and how long compiling it took in
// nanoseconds (-1 when not compiled).
uint64_t CompiledAddress(PyObject* func);
int64_t CompilationTimeNs(PyObject* func);
std::vector<std::string> CompiledFunctions();
// (module:qualname, bytes of machine code) of every compiled function, in compile order.
std::vector<std::pair<std::string, int64_t>> CompiledFunctionSizes();
// "hir", "lir" or "asm" of a compiled function; nullopt with a Python exception otherwise.
std::optional<std::string> Dump(PyObject* func, const std::string& what);
// The text Config::keep_text kept of every compiled function, each under a
// "==== module:qualname (what) ====" line. Touches no Python object: it runs after the
// interpreter has finalised.
std::string DumpKept();
Stats GetStats();
// One line per figure, for `a64jit-run --stats`.
std::string StatsSummary();
// {"compiled": N, ...}: the convention of difftest/junit/runner.py's A64JIT_STATS_FILE.
std::string StatsJson();
// Writes StatsJson() to `path`; false if it cannot.
bool WriteStatsFile(const std::string& path);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_JIT_H_
