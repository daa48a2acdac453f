// A vector that keeps its first N elements inline, for the compiler's many short lists: an
// LIR instruction's operands (one to three, except calls) and a live interval's ranges
// (usually one). With std::vector each of those was a heap allocation, and allocation was
// about a quarter of a compile's time (benchmarks/compile_time). Only for trivially copyable
// elements, which it copies with memcpy; it grows onto the heap past N.
#ifndef A64JIT_JIT_LIR_SMALL_VECTOR_H_
#define A64JIT_JIT_LIR_SMALL_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>

namespace a64jit::lir {

template <typename T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable<T>::value, "SmallVector copies with memcpy");
  static_assert(N > 0, "SmallVector needs inline room");

 public:
  SmallVector() = default;
  SmallVector(std::initializer_list<T> items) { Assign(items.begin(), items.size()); }
  SmallVector(const SmallVector& other) { CopyFrom(other); }
  SmallVector(SmallVector&& other) noexcept { Take(other); }
  ~SmallVector() { Release(); }

  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) CopyFrom(other);
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      Release();
      Take(other);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> items) {
    Assign(items.begin(), items.size());
    return *this;
  }
  template <typename It>
  void assign(It first, It last) {
    clear();
    for (; first != last; ++first) push_back(*first);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return heap_ != nullptr ? heap_ : Inline(); }
  const T* data() const { return heap_ != nullptr ? heap_ : Inline(); }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void push_back(const T& value) {
    if (size_ == capacity_) Grow(2 * capacity_);
    data()[size_++] = value;
  }
  void pop_back() { size_--; }
  void clear() { size_ = 0; }
  // Keeps the first n elements (n <= size()).
  void truncate(size_t n) { size_ = static_cast<uint32_t>(n); }

 private:
  T* Inline() { return reinterpret_cast<T*>(inline_); }
  const T* Inline() const { return reinterpret_cast<const T*>(inline_); }

  void Assign(const T* items, size_t n) {
    size_ = 0;
    if (n > capacity_) Grow(n);
    if (n != 0) std::memcpy(static_cast<void*>(data()), items, n * sizeof(T));
    size_ = static_cast<uint32_t>(n);
  }
  void Grow(size_t capacity) {
    T* bigger = static_cast<T*>(std::malloc(capacity * sizeof(T)));
    if (bigger == nullptr) throw std::bad_alloc();
    if (size_ != 0) std::memcpy(static_cast<void*>(bigger), data(), size_ * sizeof(T));
    std::free(heap_);
    heap_ = bigger;
    capacity_ = static_cast<uint32_t>(capacity);
  }
  // GCC cannot see that the bytes past size_ are never read, and warns of them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
  void CopyInline(const SmallVector& other) {
    std::memcpy(inline_, other.inline_, sizeof(inline_));
  }
#pragma GCC diagnostic pop
  // Both inline: the whole inline room, a copy of constant size that compiles to a few
  // loads and stores (a memcpy of size_ elements was a call of libc's for each
  // instruction moved or copied: 3.2 M calls in compile_time).
  void CopyFrom(const SmallVector& other) {
    if (heap_ == nullptr && other.heap_ == nullptr) {
      CopyInline(other);
      size_ = other.size_;
      return;
    }
    Assign(other.data(), other.size_);
  }
  // Moves other's elements here (this holds none), leaving other empty and inline.
  void Take(SmallVector& other) {
    size_ = other.size_;
    capacity_ = other.capacity_;
    heap_ = other.heap_;
    if (heap_ == nullptr) CopyInline(other);
    other.heap_ = nullptr;
    other.size_ = 0;
    other.capacity_ = N;
  }
  void Release() {
    // Tested here, not by free(): most vectors never leave their inline room, and a call of
    // free(NULL) for each was 5 M of compile_time's 6.5 M calls of free.
    if (heap_ != nullptr) std::free(heap_);
    heap_ = nullptr;
    size_ = 0;
    capacity_ = N;
  }

  T* heap_ = nullptr;  // the elements when they outgrew the inline room
  uint32_t size_ = 0;
  uint32_t capacity_ = N;
  // Not zeroed (that cost 0.7% of compile_time): CopyFrom and Take copy its unused bytes
  // too, as bytes, which nothing reads.
  alignas(T) unsigned char inline_[N * sizeof(T)];
};

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_SMALL_VECTOR_H_
