#include "jit/python/deopt_stats.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "jit/python/code_info.h"
#include "jit/python/opcode_names.h"

namespace a64jit::python {

namespace {

// Events are counted under this key; the entry's text is made once, on the first event.
// The statistics keep no type alive (a class made and dropped per call, as a test suite
// makes them, would otherwise live on as long as its entry): the key holds the guilty type's
// address without a reference, and its name, which tells a type that took a dead one's
// address from it. Not its version tag: a class whose attributes change as it is used
// (`Shape.count += 1` in `__init__`) gets a new tag on every change, and a key per tag made
// one more entry, with its line looked up, on every miss (1,700 guest instructions each, and
// memory without bound). DeoptEntries adds up same-named types at one site.
template <typename Name>
struct BasicKey {
  const std::string* function;
  int bc;
  lower::DeoptReason reason;
  DeoptExit exit;
  const PyTypeObject* type;
  Name name;
};
using Key = BasicKey<std::string>;
using KeyView = BasicKey<const char*>;

struct KeyLess {
  using is_transparent = void;
  template <typename A, typename B>
  bool operator()(const A& a, const B& b) const {
    if (a.function != b.function) return a.function < b.function;
    if (a.bc != b.bc) return a.bc < b.bc;
    if (a.reason != b.reason) return a.reason < b.reason;
    if (a.exit != b.exit) return a.exit < b.exit;
    if (a.type != b.type) return a.type < b.type;
    return std::strcmp(NameOf(a), NameOf(b)) < 0;
  }
  static const char* NameOf(const Key& k) { return k.name.c_str(); }
  static const char* NameOf(const KeyView& k) { return k.name; }
};

struct CacheSite {
  const std::string* function;
  PyCodeObject* code;
  int bc;
};

std::map<Key, DeoptEntry, KeyLess>& Entries() {
  static auto* entries = new std::map<Key, DeoptEntry, KeyLess>();
  return *entries;
}

std::unordered_map<const void*, CacheSite>& CacheSites() {
  static auto* sites = new std::unordered_map<const void*, CacheSite>();
  return *sites;
}

// The name a key keeps for `type` (none: ""), and its version tag (none: 0).
const char* TypeName(const PyTypeObject* type) { return type != nullptr ? type->tp_name : ""; }
unsigned int TagOf(const PyTypeObject* type) { return type != nullptr ? type->tp_version_tag : 0; }

// Whether a memo's entry, found for the type at `type`'s address, is this type's: the type's
// version tag when the memo saw this one (unique while not 0), else the same name (a dead
// type's address may be another's now). `version` is then the type's tag, and `name` the
// tp_name it matched: a class whose tag changes at every event (`Shape.made += 1` in its
// __init__ gives it and its subclasses new tags) is told by that pointer, without comparing
// the name's bytes each time (shapes: 0.3% of a warm call in strcmp).
bool SameType(const DeoptEntry& entry, const PyTypeObject* type, unsigned int* version,
              const char** name) {
  const unsigned int now = TagOf(type);
  if (now != 0 && now == *version) return true;
  const char* seen = TypeName(type);
  if (seen != *name && std::strcmp(entry.type.c_str(), seen) != 0) return false;
  *version = now;
  *name = seen;
  return true;
}

// The memos below are set-associative: 512 sets of two entries, the more recent first. With
// 256 entries each directly mapped, two hot keys of a program sharing a slot (likely among a
// few dozen) found each other's entry there on every event, and the map then took about 160
// guest instructions an event (shapes: 1,167 map lookups a call in one heap layout, none in
// another).
constexpr int kMemoSetBits = 9;
constexpr size_t kMemoSets = size_t{1} << kMemoSetBits;
constexpr int kMemoWays = 2;

// A memo's set for two addresses (Fibonacci hashing: the low bits of an address say little).
size_t MemoSet(uintptr_t a, const void* b) {
  const uint64_t h = (a ^ reinterpret_cast<uintptr_t>(b) >> 3) * 0x9E3779B97F4A7C15ull;
  return static_cast<size_t>(h >> (64 - kMemoSetBits));
}

// FindInSet past the front entry: out of line, so that a hit at the front saves no registers.
template <typename Memo, typename Holds>
__attribute__((noinline)) Memo* FindBehindFront(Memo* set, Holds holds) {
  for (int way = 1; way < kMemoWays; way++) {
    if (!holds(set[way])) continue;
    std::swap(set[0], set[way]);
    return &set[0];
  }
  return nullptr;
}

// Finds the entry in `set` that `holds` accepts, moved to the front; nullptr when none does.
template <typename Memo, typename Holds>
inline __attribute__((always_inline)) Memo* FindInSet(Memo* set, Holds holds) {
  return holds(set[0]) ? &set[0] : FindBehindFront(set, holds);
}

// Puts `memo` at the front of `set`, the least recent entry dropped.
template <typename Memo>
void RememberInSet(Memo* set, const Memo& memo) {
  for (int way = kMemoWays - 1; way > 0; way--) set[way] = set[way - 1];
  set[0] = memo;
}

int64_t g_memo_misses = 0;  // events whose entry the memos did not hold (DeoptMemoMisses)

// The line and unspecialised opcode of code unit `bc`. Called with an exception possibly
// pending (an error exit): it is kept.
void Describe(PyCodeObject* code, int bc, DeoptEntry* e) {
  if (bc < 0) return;
  e->offset = 2 * bc;
  e->line = PyCode_Addr2Line(code, e->offset);
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  if (PyObject* bytes = PyCode_GetCode(code)) {  // 3.11: without the quickened forms
    if (e->offset < PyBytes_GET_SIZE(bytes)) {
      e->opcode = OpcodeName(static_cast<unsigned char>(PyBytes_AS_STRING(bytes)[e->offset]));
    }
    Py_DECREF(bytes);
  } else {
    PyErr_Clear();
  }
  PyErr_Restore(type, value, tb);
}

}  // namespace

const char* DeoptExitName(DeoptExit exit) {
  switch (exit) {
    case DeoptExit::kInterpreter:
      return "interpreter";
    case DeoptExit::kUnwound:
      return "unwound";
    case DeoptExit::kGenericPath:
      return "generic path";
  }
  return "?";
}

namespace {

// The entry of one event's key, made on its first event.
DeoptEntry& EntryFor(const std::string* function, PyCodeObject* code, int bc,
                     lower::DeoptReason reason, PyTypeObject* type, DeoptExit exit) {
  const KeyView view{function, bc, reason, exit, type, TypeName(type)};
  auto it = Entries().find(view);
  if (it == Entries().end()) {
    DeoptEntry e;
    e.function = *function;
    e.reason = lower::DeoptReasonName(reason);
    e.type = view.name;
    e.exit = exit;
    Describe(code, bc, &e);
    it = Entries().emplace(Key{function, bc, reason, exit, type, e.type}, std::move(e)).first;
  }
  return it->second;
}

// The entries of recent guard misses, by site cache and type: a polymorphic site past its
// cache's entries misses on every use, and finding the entry in the map cost more than the
// rest of the miss (deltablue's polymorphic method sites). A map's entries stay where they
// are until erased; the memo is emptied whenever entries are erased or a site is forgotten
// (its cache's address may become another site's).
struct MissMemo {
  const void* cache = nullptr;
  const PyTypeObject* type = nullptr;
  unsigned int version = 0;  // the type's tag when last seen here (SameType)
  DeoptEntry* entry = nullptr;
  const char* name = nullptr;  // its tp_name when last seen here (SameType)
};
MissMemo g_miss_memo[kMemoSets][kMemoWays];

// The entries of recent events (RecordDeopt), by their whole key: an exception that leaves
// compiled frames is an event in each (a test suite's comparisons try one class after another,
// each raising), and finding its entry in the map was about 190 guest instructions a frame. A
// hit is what the map's KeyLess calls equal: the same site, reason, exit, type address and
// name. Emptied with the map's entries.
struct EventMemo {
  const std::string* function = nullptr;
  int bc = 0;
  lower::DeoptReason reason{};
  DeoptExit exit{};
  const PyTypeObject* type = nullptr;
  unsigned int version = 0;
  DeoptEntry* entry = nullptr;
  const char* name = nullptr;
};
EventMemo g_event_memo[kMemoSets][kMemoWays];

void ForgetMemos() {
  for (auto& set : g_miss_memo) std::fill(std::begin(set), std::end(set), MissMemo{});
  for (auto& set : g_event_memo) std::fill(std::begin(set), std::end(set), EventMemo{});
}

// The memo set of an event's key, and whether a memo holds that key's entry.
EventMemo* EventSet(const std::string* function, int bc, const PyTypeObject* type) {
  return g_event_memo[MemoSet(
      reinterpret_cast<uintptr_t>(function) + 8 * static_cast<uintptr_t>(bc), type)];
}

bool Holds(EventMemo& m, const std::string* function, int bc, lower::DeoptReason reason,
           const PyTypeObject* type, DeoptExit exit) {
  return m.entry != nullptr && m.function == function && m.bc == bc && m.reason == reason &&
         m.exit == exit && m.type == type && SameType(*m.entry, type, &m.version, &m.name);
}

}  // namespace

void RecordDeopt(const std::string* function, PyCodeObject* code, int bc, lower::DeoptReason reason,
                 PyTypeObject* type, DeoptExit exit) {
  EventMemo* set = EventSet(function, bc, type);
  if (EventMemo* m = FindInSet(
          set, [&](EventMemo& m) { return Holds(m, function, bc, reason, type, exit); })) {
    m->entry->count++;
    return;
  }
  g_memo_misses++;
  DeoptEntry& e = EntryFor(function, code, bc, reason, type, exit);
  e.count++;
  RememberInSet(set, EventMemo{function, bc, reason, exit, type, TagOf(type), &e});
}

void RegisterCacheSite(const void* cache, const std::string* function, PyCodeObject* code, int bc) {
  const bool reused = !CacheSites().insert_or_assign(cache, CacheSite{function, code, bc}).second;
  if (reused) ForgetMemos();  // the address was another site's
}

void ForgetCacheSite(const void* cache) {
  CacheSites().erase(cache);
  ForgetMemos();
}

namespace {

// RecordGuardMiss when the memos do not hold the key: the entry from the map, then in the memo.
// Out of line, so that a memo's hit saves no registers.
__attribute__((noinline)) void RecordGuardMissInMap(MissMemo* set, const void* cache,
                                                    PyTypeObject* type) {
  g_memo_misses++;
  auto it = CacheSites().find(cache);
  if (it == CacheSites().end()) return;
  const CacheSite& s = it->second;
  DeoptEntry& e = EntryFor(s.function, s.code, s.bc, lower::DeoptReason::kTypeGuard, type,
                           DeoptExit::kGenericPath);
  e.count++;
  RememberInSet(set, MissMemo{cache, type, TagOf(type), &e});
}

}  // namespace

void RecordGuardMiss(const void* cache, PyTypeObject* type) {
  MissMemo* set = g_miss_memo[MemoSet(reinterpret_cast<uintptr_t>(cache), type)];
  if (MissMemo* m = FindInSet(set, [&](MissMemo& m) {
        return m.entry != nullptr && m.cache == cache && m.type == type &&
               SameType(*m.entry, type, &m.version, &m.name);
      })) {
    m->entry->count++;
    return;
  }
  RecordGuardMissInMap(set, cache, type);
}

size_t DeoptKeyCount() { return Entries().size(); }
int64_t DeoptMemoMisses() { return g_memo_misses; }
size_t DeoptMemoSet(const void* cache, const PyTypeObject* type) {
  return MemoSet(reinterpret_cast<uintptr_t>(cache), type);
}

std::vector<DeoptEntry> DeoptEntries() {
  // Entries of one site, reason and exit whose types have one name (each key orders them by
  // address) become one.
  std::vector<DeoptEntry> out;
  std::map<std::tuple<const std::string*, int, lower::DeoptReason, DeoptExit, std::string>, size_t>
      index;
  for (const auto& [key, e] : Entries()) {
    auto [at, added] = index.emplace(
        std::make_tuple(key.function, key.bc, key.reason, key.exit, key.name), out.size());
    if (added) {
      out.push_back(e);
    } else {
      out[at->second].count += e.count;
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const DeoptEntry& a, const DeoptEntry& b) { return a.count > b.count; });
  return out;
}

void ClearDeoptStats() {
  Entries().clear();
  ForgetMemos();
}

std::string DeoptSummary(size_t top) {
  const std::vector<DeoptEntry> all = DeoptEntries();
  int64_t total = 0;
  for (const DeoptEntry& e : all) total += e.count;
  std::ostringstream o;
  o << "a64jit: deopt sites " << all.size() << ", events " << total
    << " (a64jit.get_deopt_stats() has them all)\n";
  for (size_t i = 0; i < all.size() && i < top; i++) {
    const DeoptEntry& e = all[i];
    o << "a64jit:   " << e.count << "  " << e.function << " line " << e.line << " "
      << (e.opcode.empty() ? "?" : e.opcode) << " @" << e.offset << ": " << e.reason
      << (e.type.empty() ? "" : " (" + e.type + ")") << " -> " << DeoptExitName(e.exit) << "\n";
  }
  return o.str();
}

nlohmann::ordered_json DeoptJson() {
  nlohmann::ordered_json sites = nlohmann::ordered_json::array();
  for (const DeoptEntry& e : DeoptEntries()) {
    sites.push_back({{"function", e.function},
                     {"line", e.line},
                     {"offset", e.offset},
                     {"opcode", e.opcode},
                     {"reason", e.reason},
                     {"type", e.type},
                     {"exit", DeoptExitName(e.exit)},
                     {"count", e.count}});
  }
  return sites;
}

}  // namespace a64jit::python
