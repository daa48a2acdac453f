// The per-site caches that compiled code checks inline and the runtime's helpers fill
// (jit/python/helpers.cc). One layout for both sides; lowering reads fields by offsetof.
#ifndef A64JIT_JIT_RUNTIME_SITE_CACHE_H_
#define A64JIT_JIT_RUNTIME_SITE_CACHE_H_

#include <cstddef>
#include <cstdint>

namespace a64jit::runtime {

// 3.11 objects whose type has a managed dict (Py_TPFLAGS_MANAGED_DICT) keep a pointer to
// their inline values four words before the object (_PyObject_ValuesPointer).
constexpr int64_t kInlineValuesOffset = -4 * static_cast<int64_t>(sizeof(void*));
// And, once those values became a dict, that dict three words before it
// (_PyObject_ManagedDictPointer).
constexpr int64_t kManagedDictOffset = -3 * static_cast<int64_t>(sizeof(void*));

// Memory of one site's cache, zeroed, owned by the compiled function.
struct SiteCache {
  uint64_t words[16];
};

// The instruction a site is for, which the runtime writes just before each SiteCache it
// makes (HeadedSiteCache). A cache's helper takes both from here: it sets the frame's
// prev_instr and reads the name itself, so compiled code passes neither (two or three
// instructions less a site, and no literal for the name).
struct SiteHeader {
  const void* prev_instr;  // the instruction's _Py_CODEUNIT; nullptr: no instruction
  union {
    void* name;  // the PyObject* of co_names it loads or stores (borrowed); or nullptr
    int64_t
        argc;  // a CALL's: its oparg, which the call stub reads from here (jit/lower/call_stub.h)
  };
};
struct HeadedSiteCache {
  SiteHeader header;
  SiteCache cache;
};
// Where a header field at `field` (its offset in SiteHeader) is, from the cache's address
// (negative: before it).
constexpr int64_t HeaderFieldFromCache(size_t field) {
  return static_cast<int64_t>(offsetof(HeadedSiteCache, header) + field) -
         static_cast<int64_t>(offsetof(HeadedSiteCache, cache));
}
// A CALL's argc, and the instruction's address, which the call stub stores into the caller's
// frame.
constexpr int64_t kHeaderArgc = HeaderFieldFromCache(offsetof(SiteHeader, argc));
constexpr int64_t kHeaderPrevInstr = HeaderFieldFromCache(offsetof(SiteHeader, prev_instr));
constexpr int64_t kHeaderName = HeaderFieldFromCache(offsetof(SiteHeader, name));
// The cache made right after `cache` in the same room (the runtime's rooms are arrays of
// HeadedSiteCache). `module.attr` of a global passes its global's cache alone to the stub and
// the helper that take both (site_stubs.h, a64_module_attr_into_frame) when its attribute's
// cache is this one: one address fewer to pass, each up to two instructions.
constexpr int64_t kNextSiteCache = sizeof(HeadedSiteCache);
inline SiteCache* NextSiteCache(SiteCache* cache) {
  return reinterpret_cast<SiteCache*>(reinterpret_cast<char*>(cache) + kNextSiteCache);
}
inline const SiteHeader& HeaderOf(const void* cache) {
  return reinterpret_cast<const HeadedSiteCache*>(static_cast<const char*>(cache) -
                                                  offsetof(HeadedSiteCache, cache))
      ->header;
}

// Attribute and method sites keep one entry per receiver type, up to this many: a site that
// sees a base class's method run on several subclasses (Richards' `self.holding` in Task)
// stays on the fast path. Compiled code checks entry 0 inline; the helpers check them all.
constexpr int kPolymorphicEntries = 4;

// LOAD_GLOBAL: the value found in these dicts, valid while neither changes (3.11 gives
// every dict mutation a fresh, process-unique ma_version_tag).
struct GlobalCache {
  void* globals;  // the dicts the value was found with; nullptr: empty
  void* builtins;
  uint64_t globals_version;
  uint64_t builtins_version;
  void* value;  // borrowed from one of the dicts
  // `module.attr` of this global through a64_module_attr_or_helper_stub (lower/site_stubs.h):
  // the `how` its miss passes to a64_module_attr_into_frame, a constant of the site that
  // lowering writes (RuntimeAddresses::set_miss_how). Never changed by a fill.
  int64_t miss_how;
  // Helpers only: where the name's entry was among the globals' keys when the value was found
  // there, plus one (0, as zeroed: not known). A store to any global changes the globals'
  // version tag, so every site of the module misses after it; the refill then reads the
  // value at this entry while its key is still the name, without a lookup (3.11's
  // LOAD_GLOBAL_MODULE keeps the same index, behind the keys' version).
  uint32_t entry;
};

// MAKE_FUNCTION: what 3.11's PyFunction_New looked up in the globals when the site last made
// a function, globals['__name__'] (the function's __module__) and the builtins that
// globals['__builtins__'] gives, valid while the globals keep the version tag they had then
// (both lookups would find the same objects, alive in those dicts). Helpers only.
struct FunctionCache {
  void* globals;  // borrowed, compared by address; nullptr: empty
  uint64_t globals_version;
  void* module;    // borrowed from the globals; nullptr when they have no __name__
  void* builtins;  // borrowed: globals['__builtins__'], or that module's dict
};

// LOAD_ATTR / STORE_ATTR of an instance attribute in the object's inline values: the
// type's version tag and where the attribute's index in the type's shared keys puts it. At a
// slot site (AttrForm::kSlot), a `__slots__` member of the type instead, as 3.11's
// LOAD_ATTR_SLOT caches it: the version tag and the member's offset in the object.
struct AttrEntry {
  uint32_t type_version;  // 0: empty
  // The type it was made for, as a hint (its address's bits, truncated: the helpers' TypeTag):
  // never trusted for a hit, only to find the entry of a type modified since (helpers.cc).
  uint32_t type_tag;
  // Bytes from the start of the inline values (index * sizeof(PyObject*)); at a slot site,
  // from the object's start.
  int64_t offset;
};
// LOAD_ATTR / LOAD_METHOD of a module's attribute (`math.sqrt`), as 3.11's LOAD_ATTR_MODULE
// and LOAD_METHOD_MODULE: the value found in the module's dict, valid while that dict keeps
// the version tag it had (every mutation gives it a fresh one).
struct ModuleEntry {
  // Borrowed, compared by address: a cache must not keep a module alive (test_struct checks
  // that a dropped module is collected). An object that reused the address is caught by the
  // exact-module test and then by its dict's version tag, which no other dict has.
  void* module;      // nullptr: empty
  uint64_t version;  // the module dict's ma_version_tag
  void* value;       // borrowed from the dict
};
// LOAD_ATTR of an attribute the type (or, for a class, the class itself) gives, as
// PyObject_GenericGetAttr and type_getattro find it; helpers only: compiled code never reads
// it (its inline path reads `entries`, whose offsets are in inline values).
enum class DescrKind : uint8_t {
  kEmpty = 0,  // as a zeroed cache has it
  // A data descriptor of the object's type (a `__slots__` member, a C type's member or
  // getter, a property, a named tuple's field): it comes before the instance's own attributes,
  // so a matching type version means the generic path would call its __get__ too.
  kData = 1,
  // Any other attribute of the object's type (a method read as a value, `d.get`, a class
  // constant read through an instance): valid while the instance cannot shadow it, which
  // `guard` tells.
  kTypeAttr,
  // An attribute of a class read through the class itself (`Color.RED`, `Cls.method`), whose
  // metaclass is exactly `type` and gives no attribute of that name.
  kClassAttr,
};
struct DescrEntry {
  uint32_t type_version;  // of the object's type (kClassAttr: of the class); 0: empty
  DescrKind kind;
  // kData: 1 when the descriptor is an exact `property` (whose getter the helper may call
  // itself), else 0.
  uint8_t property;
  uint16_t nentries;  // kTypeAttr with shared keys: their length
  void* descr;        // borrowed from the type's MRO; its __get__ is read at each use
  // kTypeAttr: the type's shared keys, which its instances' inline values follow and which
  // must not hold the name, or nullptr when its instances have no __dict__. kClassAttr: the
  // class, compared only (a class at a dead one's address has another version).
  void* guard;
};
// LOAD_ATTR of an instance attribute kept in a real __dict__ (an instance whose inline values
// became a dict, `vars(obj)` having been read; an object of a type with tp_dictoffset), as
// 3.11's LOAD_ATTR_WITH_HINT: the index of the name among the dict's keys, valid while the
// type's version holds (no data descriptor of that name came) and the key at that index is
// still the name. Helpers only.
struct DictHint {
  uint32_t type_version;  // 0: empty
  uint32_t index;         // in the dict's entries
};
// What an attribute site's entries are for: set by lowering from the site's type feedback
// (RuntimeAddresses::set_attr_form), never changed by a fill.
enum class AttrForm : uint32_t {
  // Instance attributes in inline values (3.11's LOAD_ATTR_INSTANCE_VALUE), or no feedback.
  kInlineValues = 0,
  // `__slots__` members (LOAD_ATTR_SLOT, STORE_ATTR_SLOT): the entries' offsets are bytes from
  // the object's start to the member (PyMemberDef's offset of a T_OBJECT_EX member), and the
  // helpers fill them from member descriptors instead of inline values.
  kSlot = 1,
  // Attributes in an instance's real dict (LOAD_ATTR_WITH_HINT, STORE_ATTR_WITH_HINT): the
  // DictHint, which the load helper fills only for a type with a managed dict, whose pointer
  // compiled code then reads at kManagedDictOffset.
  kDictHint = 2,
};
// The module entry comes first in both caches that have one, so that it is at the same place
// in either (NextSiteCache's users).
struct AttrCache {
  ModuleEntry module;
  // An instance attribute's entries; at a slot site (`form`), `__slots__` members'.
  AttrEntry entries[kPolymorphicEntries];
  uint32_t respecializations;
  AttrForm form;
  DescrEntry descr;
  DictHint hint;
};

// LOAD_METHOD of a method the type defines: its version tag, and for instances with inline
// values the type's shared keys and their length (no instance attribute shadows it).
struct MethodEntry {
  uint32_t type_version;  // 0: empty
  uint32_t nentries;
  void* keys;    // nullptr: the type's instances have no __dict__
  void* method;  // borrowed: the type (guarded by its version) keeps it
};
struct MethodCache {
  ModuleEntry module;  // LOAD_METHOD of a module attribute: [NULL, value]
  MethodEntry entries[kPolymorphicEntries];
  uint32_t respecializations;
};
static_assert(offsetof(AttrCache, module) == offsetof(MethodCache, module),
              "one module entry offset for both");

// A class's __init__ as a64_init_enter found it: valid while the class keeps the version tag
// it had then (a tag is never reused, and the class gets a new one when its MRO's dicts or
// slots change: its __init__, __new__ or __abstractmethods__), its metaclass still makes
// instances as `type` does, and the function still has the code it had.
struct InitMemo {
  uint32_t version;   // the class's version tag when filled; 0: empty
  void* init;         // its __init__, a function (borrowed: the class's MRO holds it)
  void* code;         // that function's code when filled
  const void* state;  // the code's compiled state (python::CodeState; compiled code is pinned)
};

// CALL of a C function, as 3.11's PRECALL_BUILTIN_* and PRECALL_NO_KW_METHOD_DESCRIPTOR_*
// make it: the builtin function (`len`) or method descriptor (`str.isdigit`, from LOAD_METHOD)
// last called here, and how to call its C entry. The call stub (jit/lower/call_stub.h)
// compares the callable and calls `entry(self, arg, nargs, entry_context)`: `arg` is the
// argument vector for METH_FASTCALL, the one argument for METH_O and NULL for METH_NOARGS (a C
// function taking two arguments ignores the third). a64_call_enter fills it on a miss.
struct CCallCache {
  // A C function: a strong reference (so the address is not reused). A user class made by
  // a64_instantiate (`entry`): borrowed, since that checks whatever it is called with (the
  // cache must not keep a class alive; an object that took a dead class's address is called
  // the generic way). A compiled Python function (`state` set): borrowed, since everything
  // the stub takes from the cache belongs to `code`, which the stub checks the function
  // still has (and compiled code is pinned): a new function at a dead one's address with the
  // same code is called right. nullptr: empty.
  void* callable;
  // A method descriptor's type: self must be exactly of it. For a user class made by
  // a64_instantiate, that function (no type: the stub's self-type test fails on it, and the
  // stub takes the class its own way); else nullptr.
  void* self_type;
  void* self;        // a builtin function's self (its module), borrowed from it; a type itself
  void* entry;       // the C function, or a builtin type's tp_vectorcall (4th argument NULL)
  int64_t fastcall;  // 1: arg is the argument vector; 0: the one argument or NULL
  uint32_t respecializations;
  // A compiled Python function called with exactly its positional parameters: its code and
  // that code's state (jit.cc's CodeState); nullptr for a C function.
  void* code;
  const void* state;
  // A C function that is not a builtin (a bound method: `d.get` held in a local, Random's
  // `getrandbits`, which a site sees as a new object on each call of its function; or another
  // module's function, whose module may be dropped): its PyMethodDef (static, never freed),
  // and `callable` nullptr. The stub
  // calls `entry` with the callable's own self for any such object with this PyMethodDef,
  // and the cache keeps nothing alive. nullptr: not this shape.
  const void* method_def;
  // The last callable a64_call_enter found it could not cache (a class with a __new__ of its
  // own, an exception class): compared first, so that its later calls skip the attempt.
  // Only compared, never followed.
  const void* rejected;
  // What `entry` takes as its fourth argument: nullptr (no keyword names) for a C entry or a
  // vectorcall; for a function called through a trampoline (jit/python/method_trampolines.h),
  // its PyMethodDef (a64_varargs_method, str's search methods: static) or, for
  // a64_defining_class_method, the descriptor, borrowed from `callable`.
  void* entry_context;
  // For a class made by a64_instantiate: what a64_init_enter found calling it last
  // (jit/python/instantiate.cc), so that the next call skips the search.
  InitMemo init;
};
// a64_call_enter's cache argument: the cache's address, with this bit set when the site
// calls LOAD_METHOD's [method, self] pair (and so looks for a method descriptor).
constexpr uint64_t kCCallMethodShape = 1;

// BINARY_SUBSCR of a container whose class defines __getitem__ in Python (3.11's
// BINARY_SUBSCR_GETITEM): the class's version tag and that function, borrowed (the class keeps
// it while the tag holds). Helpers only (a64_getitem_cached).
struct GetItemEntry {
  uint32_t type_version;  // 0: empty
  void* function;         // a PyFunctionObject
};
struct GetItemCache {
  GetItemEntry entry;
  uint32_t respecializations;  // misses that filled it, up to the helpers' budget
};

static_assert(sizeof(GlobalCache) <= sizeof(SiteCache), "site cache too small");
static_assert(sizeof(GetItemCache) <= sizeof(SiteCache), "site cache too small");
static_assert(sizeof(CCallCache) <= sizeof(SiteCache), "site cache too small");
static_assert(sizeof(AttrCache) <= sizeof(SiteCache), "site cache too small");
static_assert(sizeof(MethodCache) <= sizeof(SiteCache), "site cache too small");

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_RUNTIME_SITE_CACHE_H_
