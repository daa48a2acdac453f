// What the JIT reports about itself: per function (compiled or not, size, address, compile
// time, the text of its stages), and its statistics (GetStats) with the summary a64jit-run
// prints at exit (--stats) and the JSON of --stats-file=PATH (and A64JIT_STATS_FILE at exit).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "jit/python/deopt_stats.h"
#include "jit/python/jit.h"
#include "jit/python/jit_stack.h"
#include "jit/python/runtime_state.h"

namespace a64jit::python {

namespace {

// "n/d (p%)", the figure a reader asks for with its parts.
std::string Share(int64_t n, int64_t d) {
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.2f%%", d > 0 ? 100.0 * static_cast<double>(n) / d : 0.0);
  return std::to_string(n) + "/" + std::to_string(d) + " (" + pct + ")";
}

}  // namespace

bool IsCompiled(PyObject* func) {
  CodeState* st = StateOfFunction(func, false);
  return st != nullptr && st->status == CodeState::Status::kCompiled;
}

int64_t CompiledSize(PyObject* func) {
  CodeState* st = StateOfFunction(func, false);
  return st != nullptr && st->status == CodeState::Status::kCompiled
             ? static_cast<int64_t>(st->code_size)
             : 0;
}

uint64_t CompiledAddress(PyObject* func) {
  CodeState* st = StateOfFunction(func, false);
  return st != nullptr && st->status == CodeState::Status::kCompiled
             ? reinterpret_cast<uintptr_t>(st->stub.entry)
             : 0;
}

int64_t CompilationTimeNs(PyObject* func) {
  CodeState* st = StateOfFunction(func, false);
  return st != nullptr && st->status == CodeState::Status::kCompiled ? st->compile_ns : -1;
}

std::vector<std::string> CompiledFunctions() {
  std::vector<std::string> names;
  for (const CodeState* st : TheRuntime().compiled) names.push_back(st->name);
  return names;
}

std::vector<std::pair<std::string, int64_t>> CompiledFunctionSizes() {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const CodeState* st : TheRuntime().compiled) {
    out.emplace_back(st->name, static_cast<int64_t>(st->code_size));
  }
  return out;
}

std::optional<std::string> Dump(PyObject* func, const std::string& what) {
  if (what != "hir" && what != "lir" && what != "asm") {
    PyErr_Format(PyExc_ValueError, "a64jit.dump: what must be 'hir', 'lir' or 'asm', not '%s'",
                 what.c_str());
    return std::nullopt;
  }
  if (!PyFunction_Check(func)) {
    PyErr_SetString(PyExc_TypeError, "a64jit.dump: expected a Python function");
    return std::nullopt;
  }
  CodeState* st = StateOfFunction(func, false);
  if (st == nullptr || st->status != CodeState::Status::kCompiled) {
    const std::string why = st != nullptr && !st->failure.empty() ? ": " + st->failure : "";
    PyErr_Format(PyExc_ValueError, "a64jit.dump: function is not compiled%s", why.c_str());
    return std::nullopt;
  }
  try {
    return TextOf(*st, what);
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_RuntimeError, "a64jit.dump: cannot make the %s text of %s: %s", what.c_str(),
                 st->name.c_str(), e.what());
    return std::nullopt;
  }
}

std::string DumpKept() {
  const std::string& what = TheRuntime().config.keep_text;
  std::string out;
  for (const CodeState* st : TheRuntime().compiled) {
    out += "==== " + st->name + " (" + what + ") ====\n" + st->kept_text;
  }
  return out;
}

Stats GetStats() {
  Runtime& r = TheRuntime();
  if (r.executor != nullptr) {
    const runtime::CallStats total = r.executor->total_stats();
    r.stats.guest_instructions = total.guest_instructions;
    r.stats.host_calls = total.host_calls;
    r.stats.host_calls_in_hook = total.host_calls_in_hook;
    r.stats.instructions_counted = r.executor->options().count_instructions;
  }
  if (!r.compile_ns.empty()) {
    std::vector<int64_t> ns = r.compile_ns;
    std::sort(ns.begin(), ns.end());
    r.stats.compile_us_median = ns[ns.size() / 2] / 1000;
    r.stats.compile_us_p90 = ns[ns.size() * 9 / 10] / 1000;
    r.stats.compile_us_max = ns.back() / 1000;
  }
  if (r.executor != nullptr) {
    r.stats.code_memory_used = r.executor->code_bytes_used();
    r.stats.code_memory_reserved = r.executor->code_bytes_reserved();
  }
  r.stats.max_code_size = r.config.max_code_size;
  r.stats.jit_stacks_made = JitStacksMade();
  r.stats.jit_stacks_reused = JitStacksReused();
  r.stats.jit_stack_rests_used = JitStackRestsUsed();
  Stats s = r.stats;
  s.stub_entries = r.stub_entries;  // entered directly by compiled code, through the stub
  s.entries += r.stub_entries;
  s.direct_entries += r.stub_entries;
  s.stub_resumes = r.stub_resumes;  // resumed by the send stub
  s.entries += r.stub_resumes;
  s.resumed_entries += r.stub_resumes;
  return s;
}

std::string StatsSummary() {
  const Stats s = GetStats();
  std::ostringstream o;
  o << "a64jit: exec mode " << (s.exec_mode.empty() ? "none" : s.exec_mode) << "\n";
  if (s.hook_started_ms >= 0) {
    o << "a64jit: the eval-frame hook went in " << s.hook_started_ms
      << " ms after the JIT was enabled (start delay " << s.start_delay_ms << " ms)\n";
    o << "a64jit: the engine took " << s.engine_build_us / 1000 << " ms to build, "
      << (s.engine_off_gil != 0 ? "by the waker without the GIL\n" : "holding the GIL\n");
  } else if (!s.exec_mode.empty()) {
    o << "a64jit: the process ended within the start delay (" << s.start_delay_ms
      << " ms): it ran as stock, nothing compiled by the policy\n";
  }
  o << "a64jit: compiled " << s.compiled << " functions, " << s.code_bytes << " bytes\n";
  o << "a64jit: not compiled " << s.failed << "\n";
  o << "a64jit: compiled share " << Share(s.compiled, s.compiled + s.failed + s.budget_waiting)
    << " of the functions that reached the threshold (" << s.bodies
    << " module and class bodies stay interpreted)\n";
  o << "a64jit: compiled entries " << Share(s.entries, s.entries + s.interpreted_entries)
    << " of the function entries; of the interpreted ones, " << s.interpreted_vectorcalls
    << " were plain calls whose frame the JIT pushed (CPython's generic binding skipped) and "
    << s.interpreted_resumes << " generator resumes without the eval-frame hook\n";
  o << "a64jit: type feedback from 3.11's quickened code: " << s.feedback_sites << " sites in "
    << s.feedback_functions << " of the compiled functions\n";
  if (s.loop_time_qualified > 0) {
    o << "a64jit: " << s.loop_time_qualified
      << " functions reached the threshold by their loops' interpreted time\n";
  }
  if (s.loop_entry_compiles > 0 || s.loop_traps_refused > 0) {
    o << "a64jit: loop entries: " << s.loop_entry_compiles
      << " functions compiled while their loop ran interpreted, traps set " << s.loop_traps
      << " times (refused " << s.loop_traps_refused << "), frames entered at a loop header "
      << s.loop_entries << "\n";
  }
  if (s.early_entries > 0 || s.early_entries_refused > 0) {
    o << "a64jit: frames running when the hook went in that went on in compiled code at a loop "
         "header: "
      << s.early_entries << " (refused " << s.early_entries_refused << ")\n";
  }
  if (s.budget_deferred > 0) {
    o << "a64jit: " << s.budget_deferred << " hot functions waited for the compile budget, "
      << s.budget_waiting << " of them still waiting at exit\n";
  }
  for (const auto& [name, why] : s.failures) o << "a64jit:   " << name << ": " << why << "\n";
  o << "a64jit: entries " << s.entries << " (" << s.vectorcall_entries << " by vectorcall, "
    << s.direct_entries << " called directly by compiled code, " << s.stub_entries
    << " of them entered by the guest call stub, " << s.resumed_entries
    << " generator resumes without the eval-frame hook, " << s.stub_resumes
    << " of them by the send stub), deopts " << s.deopts << " (" << s.cold_path_exits
    << " at cold paths)"
    << "\na64jit: binary operators called straight to their class's Python method "
    << s.operator_calls << ", comparisons " << s.comparison_calls
    << ", tuple items and `in` members compared without PyObject_RichCompare " << s.leaf_equalities
    << ", keyword calls entered by the keyword-call stub " << s.keyword_entries
    << ", instances made with their compiled __init__ entered by the stub " << s.init_entries
    << ", strs appended to in place " << s.str_appends_in_place
    << ", async generator values given back without a StopIteration " << s.async_gen_values
    << ", super() methods called without a bound method " << s.super_methods
    << "\na64jit: exceptions caught by compiled handlers " << s.caught
    << ", left compiled frames without the interpreter " << s.unwinds << "\n";
  if (s.HandlersInterpreted() > 0) {
    o << "a64jit: " << s.HandlersInterpreted()
      << " compiled functions leave their exception handlers to the interpreter (by the "
         "opcode a handler uses:";
    for (const auto& [op, n] : s.handler_opcodes) o << " " << op << " " << n;
    o << ")\n";
  }
  o << "a64jit: entries on other threads " << s.other_thread_entries << ", eval-breaker calls "
    << s.breaker_calls << "\n";
  o << "a64jit: emulated instructions "
    << (s.instructions_counted ? std::to_string(s.guest_instructions)
                               : std::string("not counted (A64JIT_UNICORN_UNCOUNTED=1)"))
    << ", host calls " << s.host_calls << " (" << s.host_calls_in_hook
    << " without stopping emulation)\n";
  o << "a64jit: compile time per function: median " << s.compile_us_median << " us, p90 "
    << s.compile_us_p90 << " us, max " << s.compile_us_max << " us; by stage: hir "
    << s.compile_hir_ns / 1000000 << " ms, lower " << s.compile_lower_ns / 1000000 << " ms, emit "
    << s.compile_emit_ns / 1000000 << " ms\n";
  o << "a64jit: code memory " << s.code_memory_used << " bytes in use, " << s.code_memory_reserved
    << " reserved";
  if (s.max_code_size != 0) {
    o << ", cap " << s.max_code_size << " (" << s.refused_by_code_cap
      << " functions left interpreted by it)";
  }
  o << "\n" << DeoptSummary(10);
  return o.str();
}

bool WriteStatsFile(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::fputs(StatsJson().c_str(), f);
  return std::fclose(f) == 0;
}

std::string StatsJson() {
  const Stats s = GetStats();
  // In the order a reader looks for them: what compiled, how it ran, what compiling cost.
  nlohmann::ordered_json j = {{"compiled", s.compiled},
                              {"failed", s.failed},
                              {"entries", s.entries},
                              {"vectorcall_entries", s.vectorcall_entries},
                              {"direct_entries", s.direct_entries},
                              {"stub_entries", s.stub_entries},
                              {"resumed_entries", s.resumed_entries},
                              {"stub_resumes", s.stub_resumes},
                              {"operator_calls", s.operator_calls},
                              {"comparison_calls", s.comparison_calls},
                              {"leaf_equalities", s.leaf_equalities},
                              {"keyword_entries", s.keyword_entries},
                              {"init_entries", s.init_entries},
                              {"str_appends_in_place", s.str_appends_in_place},
                              {"deopts", s.deopts},
                              {"cold_path_exits", s.cold_path_exits},
                              {"interpreted_entries", s.interpreted_entries},
                              {"interpreted_vectorcalls", s.interpreted_vectorcalls},
                              {"interpreted_resumes", s.interpreted_resumes},
                              {"async_gen_values", s.async_gen_values},
                              {"super_methods", s.super_methods},
                              {"bodies", s.bodies},
                              {"emulated_instructions", s.guest_instructions},
                              {"host_calls", s.host_calls},
                              {"host_calls_in_hook", s.host_calls_in_hook},
                              {"code_bytes", s.code_bytes},
                              {"feedback_sites", s.feedback_sites},
                              {"feedback_functions", s.feedback_functions},
                              {"loop_time_qualified", s.loop_time_qualified},
                              {"loop_entry_compiles", s.loop_entry_compiles},
                              {"loop_traps", s.loop_traps},
                              {"loop_traps_refused", s.loop_traps_refused},
                              {"loop_entries", s.loop_entries},
                              {"early_entries", s.early_entries},
                              {"early_entries_refused", s.early_entries_refused},
                              {"budget_deferred", s.budget_deferred},
                              {"budget_waiting", s.budget_waiting},
                              {"start_delay_ms", s.start_delay_ms},
                              {"hook_started_ms", s.hook_started_ms},
                              {"engine_build_us", s.engine_build_us},
                              {"engine_off_gil", s.engine_off_gil},
                              {"jit_stacks_made", s.jit_stacks_made},
                              {"jit_stacks_reused", s.jit_stacks_reused},
                              {"jit_stack_rests_used", s.jit_stack_rests_used},
                              {"exec_mode", s.exec_mode},
                              {"other_thread_entries", s.other_thread_entries},
                              {"breaker_calls", s.breaker_calls},
                              {"caught", s.caught},
                              {"unwinds", s.unwinds},
                              {"handlers_interpreted", s.HandlersInterpreted()},
                              {"compile_us_median", s.compile_us_median},
                              {"compile_us_p90", s.compile_us_p90},
                              {"compile_us_max", s.compile_us_max},
                              {"compile_hir_ns", s.compile_hir_ns},
                              {"compile_lower_ns", s.compile_lower_ns},
                              {"compile_emit_ns", s.compile_emit_ns},
                              {"compile_ns_total", s.compile_ns_total},
                              {"code_memory_used", s.code_memory_used},
                              {"code_memory_reserved", s.code_memory_reserved},
                              {"max_code_size", s.max_code_size},
                              {"refused_by_code_cap", s.refused_by_code_cap}};
  j["functions"] = nlohmann::ordered_json::object();
  for (const auto& [name, size] : CompiledFunctionSizes()) j["functions"][name] = size;
  j["failures"] = nlohmann::ordered_json::object();
  for (const auto& [name, why] : s.failures) j["failures"][name] = why;
  j["unsupported_opcodes"] = nlohmann::ordered_json::object();
  for (const auto& [op, n] : s.unsupported_opcodes) j["unsupported_opcodes"][op] = n;
  j["handler_opcodes"] = nlohmann::ordered_json::object();
  for (const auto& [op, n] : s.handler_opcodes) j["handler_opcodes"][op] = n;
  j["deopt_sites"] = DeoptJson();
  // Names and reasons come from user code: invalid UTF-8 is replaced, never an exception.
  return j.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace a64jit::python
