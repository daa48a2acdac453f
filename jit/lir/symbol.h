// The name a LIR call goes to (`call @name(...)`), interned: one pointer that compiled
// functions copy and compare for free. It replaced a std::string in every Instr, which made
// each instruction 24 bytes wider and each copy of a call with a helper's name longer than 15
// characters (most of them) a heap allocation.
#ifndef A64JIT_JIT_LIR_SYMBOL_H_
#define A64JIT_JIT_LIR_SYMBOL_H_

#include <string>

namespace a64jit::lir {

class Symbol {
 public:
  Symbol() = default;
  // Implicit, as the std::string it replaced: `in.callee = "a64_dealloc"`. An empty name is
  // the empty symbol (a call through a register).
  Symbol(const char* name);         // NOLINT(google-explicit-constructor)
  Symbol(const std::string& name);  // NOLINT(google-explicit-constructor)

  bool empty() const { return name_ == nullptr; }
  // The name; "" for the empty symbol.
  const std::string& str() const;
  operator const std::string&() const { return str(); }  // NOLINT(google-explicit-constructor)

  // One interned string per name, so equal names are equal pointers.
  friend bool operator==(Symbol a, Symbol b) { return a.name_ == b.name_; }
  friend bool operator!=(Symbol a, Symbol b) { return a.name_ != b.name_; }
  friend std::string operator+(const std::string& a, Symbol b) { return a + b.str(); }
  friend std::string operator+(const char* a, Symbol b) { return a + b.str(); }

 private:
  const std::string* name_ = nullptr;  // the pool's; never freed
};

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_SYMBOL_H_
