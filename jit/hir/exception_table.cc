#include "jit/hir/exception_table.h"

#include <string>

namespace a64jit::hir {

namespace {

class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& bytes) : bytes_(bytes) {}
  bool AtEnd() const { return pos_ >= bytes_.size(); }
  bool AtEntryStart() const { return !AtEnd() && (bytes_[pos_] & 0x80) != 0; }
  size_t pos() const { return pos_; }

  int Number() {
    int value = 0;
    for (;;) {
      if (AtEnd()) throw BadExceptionTable("exception table truncated at byte " + Pos());
      const uint8_t b = bytes_[pos_++];
      if (value >= (1 << 24)) throw BadExceptionTable("exception table number too large " + Pos());
      value = (value << 6) | (b & 0x3f);
      if ((b & 0x40) == 0) return value;
    }
  }

 private:
  std::string Pos() const { return std::to_string(pos_); }
  const std::vector<uint8_t>& bytes_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<ExceptionHandler> DecodeExceptionTable(const std::vector<uint8_t>& table) {
  std::vector<ExceptionHandler> out;
  Reader r(table);
  while (!r.AtEnd()) {
    if (!r.AtEntryStart()) {
      throw BadExceptionTable("exception table: no entry starts at byte " +
                              std::to_string(r.pos()));
    }
    ExceptionHandler h;
    h.start = r.Number();
    h.end = h.start + r.Number();
    h.target = r.Number();
    const int depth_lasti = r.Number();
    h.depth = depth_lasti >> 1;
    h.lasti = (depth_lasti & 1) != 0;
    out.push_back(h);
  }
  return out;
}

int HandlerIndexAt(const std::vector<ExceptionHandler>& handlers, int unit) {
  for (size_t i = 0; i < handlers.size(); i++) {
    if (handlers[i].start <= unit && unit < handlers[i].end) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace a64jit::hir
