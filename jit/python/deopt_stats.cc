#include "jit/python/deopt_stats.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "jit/python/code_info.h"
#include "jit/python/opcode_names.h"

namespace a64jit::python {

namespace {

// Events are counted under this key; the entry's text is made once, on the first event.
// The statistics keep no type alive (a class made and dropped per call, as a test suite
// makes them, would otherwise live on as long as its entry): the key holds the guilty type's
// address without a reference, its version tag and its name, which tell a type that took a
// dead one's address from it (the name is compared last, only between keys equal in all else
// and without a version tag).
// DeoptEntries adds up same-named types at one site.
template <typename Name>
struct BasicKey {
  const std::string* function;
  int bc;
  lower::DeoptReason reason;
  DeoptExit exit;
  const PyTypeObject* type;
  unsigned int version;  // the type's version tag: unique while not 0, so names need no compare
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
    if (a.version != b.version) return a.version < b.version;
    return a.version == 0 && std::strcmp(NameOf(a), NameOf(b)) < 0;
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
  const KeyView view{function,
                     bc,
                     reason,
                     exit,
                     type,
                     type != nullptr ? type->tp_version_tag : 0,
                     type != nullptr ? type->tp_name : ""};
  auto it = Entries().find(view);
  if (it == Entries().end()) {
    DeoptEntry e;
    e.function = *function;
    e.reason = lower::DeoptReasonName(reason);
    e.type = view.name;
    e.exit = exit;
    Describe(code, bc, &e);
    it = Entries()
             .emplace(Key{function, bc, reason, exit, type, view.version, e.type}, std::move(e))
             .first;
  }
  return it->second;
}

// The entries of recent guard misses, by site cache and type (its version tag not 0): a
// polymorphic site past its cache's entries misses on every use, and finding the entry in the
// map cost more than the rest of the miss (deltablue's polymorphic method sites). A map's
// entries stay where they are until erased; the memo is emptied whenever entries are erased
// or a site is forgotten (its cache's address may become another site's).
struct MissMemo {
  const void* cache = nullptr;
  const PyTypeObject* type = nullptr;
  unsigned int version = 0;
  DeoptEntry* entry = nullptr;
};
constexpr size_t kMissMemoSize = 64;
MissMemo g_miss_memo[kMissMemoSize];

// The entries of recent events (RecordDeopt), by their whole key: an exception that leaves
// compiled frames is an event in each (a test suite's comparisons try one class after another,
// each raising), and finding its entry in the map, comparing the names of types without a
// version tag, was about 190 guest instructions a frame. A hit is what the map's KeyLess calls
// equal: the same site, reason, exit, type address and version, and for version 0 the same
// name. Emptied with the map's entries.
struct EventMemo {
  const std::string* function = nullptr;
  int bc = 0;
  lower::DeoptReason reason{};
  DeoptExit exit{};
  const PyTypeObject* type = nullptr;
  unsigned int version = 0;
  DeoptEntry* entry = nullptr;
};
constexpr size_t kEventMemoSize = 64;
EventMemo g_event_memo[kEventMemoSize];

void ForgetMemos() {
  std::fill(std::begin(g_miss_memo), std::end(g_miss_memo), MissMemo{});
  std::fill(std::begin(g_event_memo), std::end(g_event_memo), EventMemo{});
}

// The memo slot of an event's key, and whether it holds that key's entry.
EventMemo& EventSlot(const std::string* function, int bc, const PyTypeObject* type) {
  const uintptr_t h = reinterpret_cast<uintptr_t>(function) >> 4 ^ static_cast<uintptr_t>(bc) * 31 ^
                      reinterpret_cast<uintptr_t>(type) >> 4;
  return g_event_memo[h % kEventMemoSize];
}

bool Holds(const EventMemo& m, const std::string* function, int bc, lower::DeoptReason reason,
           const PyTypeObject* type, unsigned int version, DeoptExit exit) {
  if (m.entry == nullptr || m.function != function || m.bc != bc || m.reason != reason ||
      m.exit != exit || m.type != type || m.version != version) {
    return false;
  }
  return version != 0 || m.entry->type == (type != nullptr ? type->tp_name : "");
}

}  // namespace

void RecordDeopt(const std::string* function, PyCodeObject* code, int bc, lower::DeoptReason reason,
                 PyTypeObject* type, DeoptExit exit) {
  const unsigned int version = type != nullptr ? type->tp_version_tag : 0;
  EventMemo& memo = EventSlot(function, bc, type);
  if (Holds(memo, function, bc, reason, type, version, exit)) {
    memo.entry->count++;
    return;
  }
  DeoptEntry& e = EntryFor(function, code, bc, reason, type, exit);
  e.count++;
  memo = EventMemo{function, bc, reason, exit, type, version, &e};
}

void RegisterCacheSite(const void* cache, const std::string* function, PyCodeObject* code, int bc) {
  const bool reused = !CacheSites().insert_or_assign(cache, CacheSite{function, code, bc}).second;
  if (reused) ForgetMemos();  // the address was another site's
}

void ForgetCacheSite(const void* cache) {
  CacheSites().erase(cache);
  ForgetMemos();
}

void RecordGuardMiss(const void* cache, PyTypeObject* type) {
  const unsigned int version = type->tp_version_tag;
  MissMemo& memo = g_miss_memo[(reinterpret_cast<uintptr_t>(cache) >> 4 ^
                                reinterpret_cast<uintptr_t>(type) >> 4) %
                               kMissMemoSize];
  if (memo.cache == cache && memo.type == type && memo.version == version && version != 0) {
    memo.entry->count++;
    return;
  }
  auto it = CacheSites().find(cache);
  if (it == CacheSites().end()) return;
  const CacheSite& s = it->second;
  DeoptEntry& e = EntryFor(s.function, s.code, s.bc, lower::DeoptReason::kTypeGuard, type,
                           DeoptExit::kGenericPath);
  e.count++;
  memo = MissMemo{cache, type, version, &e};
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
