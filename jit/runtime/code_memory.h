// Executable memory for generated code, kept W^X: a page is writable or executable, never
// both. Writes flip the affected pages to read+write, copy, flip them back to read+execute
// and, on an aarch64 host, flush the instruction cache over the bytes written (the data and
// instruction caches are not coherent there). Emulators keep their own translation caches:
// the Executor tells its backend which bytes changed.
#ifndef A64JIT_JIT_RUNTIME_CODE_MEMORY_H_
#define A64JIT_JIT_RUNTIME_CODE_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

namespace a64jit::runtime {

// No memory could be mapped for more code: the code that asked for it stays unplaced, and the
// executor goes on with what it has.
class CodeMemoryExhausted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Maps `bytes` of read-write memory (MAP_NORESERVE: committed as touched), or returns nullptr,
// away from where the kernel puts code arenas and libraries: near 16 TiB on a 47/48-bit
// address space (anywhere, where that address is not available). A stack of gigabytes placed
// top-down as everything else would push the next code arena out of a `bl`'s reach of the
// helpers (128 MiB), and every call of a helper from it would become an indirect one.
void* MapAwayFromCode(size_t bytes);

class CodeMemory {
 public:
  // Called when a new arena is mapped (its start and size).
  using ArenaListener = std::function<void(const uint8_t*, size_t)>;

  explicit CodeMemory(size_t arena_size = 16u << 20);
  ~CodeMemory();
  CodeMemory(const CodeMemory&) = delete;
  CodeMemory& operator=(const CodeMemory&) = delete;

  void set_arena_listener(ArenaListener listener) { on_arena_ = std::move(listener); }

  // Reserves `size` bytes (16-byte aligned) and writes `code` there. Throws
  // CodeMemoryExhausted when a new arena cannot be mapped.
  uint8_t* Add(const uint8_t* code, size_t size);
  // Overwrites bytes inside a previous allocation.
  void Write(uint8_t* at, const uint8_t* code, size_t size);
  // True if `address` lies in any arena (safe to call from a signal handler).
  bool Contains(uint64_t address) const;
  // Where the next Add will place its code if it fits in the current arena; 0 if none.
  uint64_t NextAddress() const;
  // Bytes placed by Add (each rounded up to 16), and bytes of the arenas mapped for them.
  size_t used_bytes() const;
  size_t reserved_bytes() const;

 private:
  struct Arena {
    uint8_t* base;
    size_t size;
    size_t used;
  };
  void Protect(uint8_t* begin, size_t size, bool writable);

  size_t arena_size_;
  std::vector<Arena> arenas_;
  ArenaListener on_arena_;
};

// Makes instructions written to [begin, begin+size) visible to instruction fetch on this
// host: a cache flush on aarch64, nothing on x86-64 (coherent, and Unicorn has its own).
void FlushInstructionCache(const uint8_t* begin, size_t size);

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_RUNTIME_CODE_MEMORY_H_
