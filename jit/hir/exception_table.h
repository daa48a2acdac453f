// CPython 3.11's exception table (co_exceptiontable), decoded. Each entry says: an exception
// raised by an instruction in [start, end) (code units) unwinds the value stack to `depth`
// entries, pushes the raising instruction's offset as an int if `lasti`, pushes the
// exception, and jumps to `target`. The format (Objects/exception_handling_notes.txt in
// CPython): per entry four numbers, start, length, target and depth << 1 | lasti, each
// written big-end first in 6-bit groups, bit 6 set on every group but a number's last;
// bit 7 marks the first byte of an entry.
#ifndef A64JIT_JIT_HIR_EXCEPTION_TABLE_H_
#define A64JIT_JIT_HIR_EXCEPTION_TABLE_H_

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace a64jit::hir {

struct ExceptionHandler {
  int start = 0;   // first code unit covered
  int end = 0;     // one past the last
  int target = 0;  // the handler's first code unit
  int depth = 0;   // value-stack entries kept
  bool lasti = false;
};

// A table that does not decode (truncated, or a number past 2^30).
class BadExceptionTable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::vector<ExceptionHandler> DecodeExceptionTable(const std::vector<uint8_t>& table);

// The entry covering code unit `unit`, or -1. Entries do not overlap (the compiler splits
// nested ranges), so the first match is the only one.
int HandlerIndexAt(const std::vector<ExceptionHandler>& handlers, int unit);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_EXCEPTION_TABLE_H_
