// TypeMemo: what the runtime found out about a class, remembered by the class, its version tag
// and a small key (an operator's code), for helpers that would otherwise look it up on every
// call (a64_instantiate's __init__, a64_binary_object's operator method).
//
// A version tag is never reused, and a class gets a new one when its MRO's dicts (and so its
// slots) change, so an entry whose tag still matches says what the MRO holds now; a class
// without a valid tag is never remembered. Two entries a set, the newest first: a direct-mapped
// table let two classes that alternate (a tree's node classes) evict each other on every call
// when their addresses fell into one slot, which depends on the heap's layout.
#ifndef A64JIT_JIT_PYTHON_TYPE_MEMO_H_
#define A64JIT_JIT_PYTHON_TYPE_MEMO_H_

#include <Python.h>

#include <cstddef>
#include <cstdint>

namespace a64jit::python {

// The version a lookup in `type` would see, or 0 when it has none.
inline unsigned int ValidVersionTag(const PyTypeObject* type) {
  return (type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) != 0 ? type->tp_version_tag : 0;
}

template <typename Value>
class TypeMemo {
 public:
  // The remembered value for (type, key), or nullptr.
  const Value* Find(const PyTypeObject* type, int key) const {
    const unsigned int version = ValidVersionTag(type);
    const Entry* set = sets_[SetOf(type, key)];
    for (int way = 0; way < 2; way++) {
      const Entry& e = set[way];
      if (e.type == type && e.key == key && e.version == version && version != 0) return &e.value;
    }
    return nullptr;
  }

  // Remembers `value` for (type, key) under the type's tag now; nothing when it has none.
  void Put(const PyTypeObject* type, int key, const Value& value) {
    const unsigned int version = ValidVersionTag(type);
    if (version == 0) return;
    Entry* set = sets_[SetOf(type, key)];
    if (!(set[0].type == type && set[0].key == key)) set[1] = set[0];
    set[0] = Entry{type, version, key, value};
  }

 private:
  static constexpr int kSetBits = 7;
  struct Entry {
    const PyTypeObject* type = nullptr;
    unsigned int version = 0;
    int key = -1;
    Value value{};
  };
  static size_t SetOf(const PyTypeObject* type, int key) {
    const uint64_t h = (reinterpret_cast<uintptr_t>(type) ^ static_cast<uint64_t>(key)) *
                       0x9e3779b97f4a7c15ull;  // Fibonacci hashing: the top bits mix all others
    return static_cast<size_t>(h >> (64 - kSetBits));
  }
  Entry sets_[1 << kSetBits][2];
};

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_TYPE_MEMO_H_
