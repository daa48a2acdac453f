// The compile policy: which functions are compiled, and when. A function qualifies once it is
// on the JIT list (A64JIT_JITLIST and A64JIT_JITLIST_FILE, glob patterns over module:qualname) and
// its calls reach the threshold, or, with A64JIT_HOT_LOOP_US, once its interpreted runs have
// taken that long (only functions with a loop are timed). With the threshold `auto`, the
// tiering policy decides instead (tiering.h): proven hot, and within the compile budget.
#include <Python.h>
#include <opcode.h>

#include <limits>

#include "jit/python/runtime_state.h"

namespace a64jit::python {

namespace {

// Whether `code` has a loop: a backward jump in its unquickened code. 3.11 ends a `for` body
// and a `while True` body with JUMP_BACKWARD, and a `while COND` body with the test again and
// a POP_JUMP_BACKWARD_IF_*; JUMP_BACKWARD_NO_INTERRUPT only loops over an awaitable.
bool HasLoop(PyCodeObject* code) {
  PyObject* bytes = PyCode_GetCode(code);
  if (bytes == nullptr) {
    PyErr_Clear();
    return false;
  }
  const auto* units = reinterpret_cast<const _Py_CODEUNIT*>(PyBytes_AS_STRING(bytes));
  const Py_ssize_t n = PyBytes_GET_SIZE(bytes) / 2;
  bool found = false;
  for (Py_ssize_t i = 0; i < n && !found; i++) {
    switch (_Py_OPCODE(units[i])) {
      case JUMP_BACKWARD:              // `for`, `while True`
      case POP_JUMP_BACKWARD_IF_TRUE:  // `while` with a condition tests it at the bottom
      case POP_JUMP_BACKWARD_IF_FALSE:
      case POP_JUMP_BACKWARD_IF_NONE:
      case POP_JUMP_BACKWARD_IF_NOT_NONE:
        found = true;
        break;
      default:
        break;
    }
  }
  Py_DECREF(bytes);
  return found;
}

}  // namespace

// Whether `text` matches `pattern`, whose `*` matches any run of characters.
bool GlobMatch(const char* pattern, const char* text) {
  if (*pattern == '\0') return *text == '\0';
  if (*pattern == '*') {
    for (const char* t = text;; t++) {
      if (GlobMatch(pattern + 1, t)) return true;
      if (*t == '\0') return false;
    }
  }
  return *pattern == *text && GlobMatch(pattern + 1, text + 1);
}

TieringParams TieringFor(const Config& config) {
  TieringParams p;
  p.budget_share = static_cast<double>(config.compile_budget_pct) / 100.0;
  return p;
}

namespace {

// The tiering policy's answer for a listed function on this call (counted).
bool TieringQualifies(Runtime& r, CodeState* st, PyCodeObject* code) {
  const int64_t calls = ++st->calls;
  if (st->waiting && calls < st->recheck_at) return false;
  CompileBudget& budget = r.budget;
  // Most interpreted calls end here, before the cost estimate (a division) is made.
  if (calls < budget.params().min_calls && st->has_loop != 1) return false;
  const int64_t cost = budget.ExpectedCostNs(Py_SIZE(code));
  if (!ProvenHot(budget.params(), calls, st->has_loop == 1, st->interpreted_ns, cost,
                 r.config.hot_loop_us * 1000)) {
    return false;
  }
  if (!budget.Allows(MonotonicNs(), cost)) {
    if (!st->waiting) {
      r.stats.budget_deferred++;
      r.stats.budget_waiting++;
    }
    st->waiting = true;
    // A function with a loop runs long each call: it asks again on its next one.
    st->recheck_at = calls + (st->has_loop == 1 ? 1 : budget.params().recheck_calls);
    return false;
  }
  if (st->waiting) r.stats.budget_waiting--;
  st->waiting = false;
  if (calls < budget.params().min_calls) r.stats.loop_time_qualified++;
  return true;
}

}  // namespace

namespace {

// Whether interpreted runs of functions with a loop are timed (TimesLoop).
bool LoopsTimed(const Config& c) { return c.hot_loop_us > 0 && c.threshold.value_or(0) != 0; }

// Whether `st`'s function has a loop, found once.
bool HasLoopKnown(CodeState* st, PyCodeObject* code) {
  if (st->has_loop < 0) st->has_loop = HasLoop(code) ? 1 : 0;
  return st->has_loop == 1;
}

// The threshold policy's answer for a listed function on this call (counted).
bool CountQualifies(Runtime& r, CodeState* st) {
  const Config& c = r.config;
  if (st->calls++ >= c.threshold.value_or(0)) return true;
  if (c.hot_loop_us > 0 && st->interpreted_ns >= c.hot_loop_us * 1000) {
    r.stats.loop_time_qualified++;
    return true;
  }
  return false;
}

// The first call count (after the call is counted) at which Qualifies may answer yes again,
// after it answered no at call st->calls; 0 when any call may (a function whose loop time
// counts, or one that waits for the budget at its next call).
int64_t QuietUntil(const Runtime& r, CodeState* st, PyCodeObject* code) {
  const Config& c = r.config;
  if (!st->listed) return std::numeric_limits<int64_t>::max();
  if (LoopsTimed(c) && HasLoopKnown(st, code)) return 0;
  if (!c.auto_tiering()) {  // yes once the count passes the threshold
    const int64_t threshold = c.threshold.value_or(0);
    return threshold < std::numeric_limits<int64_t>::max() ? threshold + 1 : threshold;
  }
  return st->waiting ? st->recheck_at : r.budget.params().min_calls;
}

// st->listed, on the first question about `st`'s function.
void CheckListed(const Config& c, CodeState* st) {
  if (st->list_checked) return;
  st->list_checked = true;
  st->listed = c.jitlist.empty() && c.jitlist_file.empty();
  for (const auto* list : {&c.jitlist, &c.jitlist_file_patterns}) {
    for (const std::string& p : *list) {
      if (GlobMatch(p.c_str(), st->name.c_str())) st->listed = true;
    }
  }
}

}  // namespace

bool Qualifies(CodeState* st, PyCodeObject* code) {
  if (st->suppressed) return false;
  Runtime& r = TheRuntime();
  const Config& c = r.config;
  CheckListed(c, st);
  const bool yes =
      st->listed && (c.auto_tiering() ? TieringQualifies(r, st, code) : CountQualifies(r, st));
  if (!yes) {
    st->quiet_until = QuietUntil(r, st, code);
    st->quiet_epoch = r.policy_epoch;
  }
  return yes;
}

// Whether a timed run of `st`'s function, `ran_ns` long so far, makes it hot enough to compile
// now: the policy's question (loop time against the expected compile cost, and the budget;
// or the hot-loop floor under a plain threshold), without counting a call.
bool RunQualifies(CodeState* st, PyCodeObject* code, int64_t ran_ns) {
  Runtime& r = TheRuntime();
  const Config& c = r.config;
  CheckListed(c, st);  // (a frame that began before the hook: its function was never asked about)
  if (st->suppressed || !st->listed || c.hot_loop_us <= 0) return false;
  const int64_t interpreted_ns = st->interpreted_ns + ran_ns;
  const int64_t floor_ns = c.hot_loop_us * 1000;
  if (!c.auto_tiering()) return interpreted_ns >= floor_ns;
  const int64_t cost = r.budget.ExpectedCostNs(Py_SIZE(code));
  return ProvenHot(r.budget.params(), st->calls, true, interpreted_ns, cost, floor_ns) &&
         r.budget.Allows(MonotonicNs(), cost);
}

// Whether an interpreted run of `st`'s function is timed, for Config::hot_loop_us: only
// functions with a loop that are still counting, on their way to a threshold above 0.
bool TimesLoop(const Runtime& r, CodeState* st, PyCodeObject* code) {
  if (!LoopsTimed(r.config) || !st->listed || st->status != CodeState::Status::kCounting) {
    return false;
  }
  return HasLoopKnown(st, code);
}

}  // namespace a64jit::python
