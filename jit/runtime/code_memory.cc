#include "jit/runtime/code_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace a64jit::runtime {
namespace {

uintptr_t PageSize() {
  static const uintptr_t size = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

CodeMemory::CodeMemory(size_t arena_size) : arena_size_(arena_size) {}

CodeMemory::~CodeMemory() {
  for (const Arena& a : arenas_) munmap(a.base, a.size);
}

void* MapAwayFromCode(size_t bytes) {
  // Each mapping takes the next range below the last one, from 16 TiB down.
  static std::atomic<uintptr_t> next_end{uintptr_t{1} << 44};
  const size_t span = (bytes + (size_t{1} << 20) - 1) & ~((size_t{1} << 20) - 1);
  const uintptr_t hint = next_end.fetch_sub(span) - span;
  void* p = mmap(reinterpret_cast<void*>(hint), bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

uint8_t* CodeMemory::Add(const uint8_t* code, size_t size) {
  const size_t need = (size + 15) & ~size_t{15};
  if (arenas_.empty() || arenas_.back().used + need > arenas_.back().size) {
    const size_t page = PageSize();
    const size_t arena = std::max(arena_size_, (need + page - 1) / page * page);
    // Born read+execute: nothing is writable until Write() flips exactly the pages it needs.
    void* base = mmap(nullptr, arena, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
      throw CodeMemoryExhausted("code memory: mmap of " + std::to_string(arena) +
                                " bytes failed: " + std::strerror(errno));
    }
    arenas_.push_back(Arena{static_cast<uint8_t*>(base), arena, 0});
    if (on_arena_) on_arena_(static_cast<uint8_t*>(base), arena);
  }
  Arena& a = arenas_.back();
  uint8_t* at = a.base + a.used;
  a.used += need;
  Write(at, code, size);
  return at;
}

void CodeMemory::Write(uint8_t* at, const uint8_t* code, size_t size) {
  if (size == 0) return;
  const uint64_t addr = reinterpret_cast<uintptr_t>(at);
  if (!Contains(addr) || !Contains(addr + size - 1)) {
    throw std::runtime_error("code memory: write outside the code arenas");
  }
  Protect(at, size, true);
  std::memcpy(at, code, size);
  Protect(at, size, false);
  FlushInstructionCache(at, size);
}

uint64_t CodeMemory::NextAddress() const {
  if (arenas_.empty()) return 0;
  return reinterpret_cast<uintptr_t>(arenas_.back().base + arenas_.back().used);
}

size_t CodeMemory::used_bytes() const {
  size_t n = 0;
  for (const Arena& a : arenas_) n += a.used;
  return n;
}

size_t CodeMemory::reserved_bytes() const {
  size_t n = 0;
  for (const Arena& a : arenas_) n += a.size;
  return n;
}

void FlushInstructionCache(const uint8_t* begin, size_t size) {
#if defined(__aarch64__)
  auto* b = reinterpret_cast<char*>(const_cast<uint8_t*>(begin));
  __builtin___clear_cache(b, b + size);
#else
  (void)begin;
  (void)size;
#endif
}

void CodeMemory::Protect(uint8_t* begin, size_t size, bool writable) {
  const uintptr_t page = PageSize();
  const uintptr_t lo = reinterpret_cast<uintptr_t>(begin) & ~(page - 1);
  const uintptr_t hi = (reinterpret_cast<uintptr_t>(begin) + size + page - 1) & ~(page - 1);
  const int prot = writable ? (PROT_READ | PROT_WRITE) : (PROT_READ | PROT_EXEC);
  if (mprotect(reinterpret_cast<void*>(lo), hi - lo, prot) != 0) {
    throw std::runtime_error(std::string("code memory: mprotect failed: ") + std::strerror(errno));
  }
}

bool CodeMemory::Contains(uint64_t address) const {
  for (const Arena& a : arenas_) {
    const uint64_t base = reinterpret_cast<uintptr_t>(a.base);
    if (address >= base && address < base + a.size) return true;
  }
  return false;
}

}  // namespace a64jit::runtime
