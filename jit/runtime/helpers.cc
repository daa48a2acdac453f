#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

namespace {

// From the function's type alone (decltype does not use the function, so lowering links
// without the runtime that defines the helpers).
template <typename F>
struct Arity;
template <typename Ret, typename... Args>
struct Arity<Ret(Args...)> {
  static constexpr int value = static_cast<int>(sizeof...(Args));
};

}  // namespace

const char* HelperName(Helper h) {
  static constexpr const char* kNames[] = {
#define A64JIT_HELPER_NAME(fn, ...) #fn,
      A64JIT_HELPERS(A64JIT_HELPER_NAME)
#undef A64JIT_HELPER_NAME
  };
  return kNames[static_cast<size_t>(h)];
}

int HelperArity(Helper h) {
  static constexpr int kArity[] = {
#define A64JIT_HELPER_ARITY(fn, ...) Arity<decltype(fn)>::value,
      A64JIT_HELPERS(A64JIT_HELPER_ARITY)
#undef A64JIT_HELPER_ARITY
  };
  return kArity[static_cast<size_t>(h)];
}

}  // namespace a64jit::runtime
