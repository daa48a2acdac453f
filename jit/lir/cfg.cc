#include "jit/lir/cfg.h"

namespace a64jit::lir {

Groups::Groups(size_t keys, const std::vector<std::pair<int, int>>& pairs) : begin_(keys + 1, 0) {
  for (const auto& kv : pairs) begin_[static_cast<size_t>(kv.first) + 1]++;
  for (size_t k = 0; k < keys; k++) begin_[k + 1] += begin_[k];
  values_.resize(pairs.size());
  std::vector<int> next(begin_.begin(), begin_.end() - 1);
  for (const auto& kv : pairs) values_[static_cast<size_t>(next[kv.first]++)] = kv.second;
}

Groups Predecessors(const Function& f) {
  std::vector<std::pair<int, int>> edges;  // (successor, block)
  edges.reserve(2 * f.blocks.size());
  for (size_t b = 0; b < f.blocks.size(); b++) {
    const Successors succ(f.blocks[b].instrs.back());
    for (int i = 0; i < succ.count; i++) edges.emplace_back(succ.targets[i], static_cast<int>(b));
  }
  return Groups(f.blocks.size(), edges);
}

}  // namespace a64jit::lir
