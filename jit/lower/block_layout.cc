#include "jit/lower/block_layout.h"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "jit/lir/cfg.h"

namespace a64jit::lower {

namespace {

// One HIR block's LIR blocks: a [begin, end) of the emission order.
using Group = std::pair<size_t, size_t>;

class Layout {
 public:
  Layout(lir::Function* f, std::vector<char> cold, const std::vector<int>& group,
         const std::vector<int>& order)
      : f_(*f), cold_(std::move(cold)), group_(group), order_(order) {}

  void Run() {
    PropagateCold();
    Renumber(Order(Groups()));
  }

 private:
  // A block reached only from cold blocks is cold too: the continuation of a slow path's own
  // checks (after the eval breaker's helper, say) would otherwise sit in the hot code, where
  // the hot path must branch around it.
  // Each block is tested once, and again only when one of its predecessors turns cold (a
  // pass over every block until nothing changed took one pass per block of a cold chain).
  void PropagateCold() {
    const lir::Groups preds = lir::Predecessors(f_);
    const auto all_preds_cold = [&](size_t b) {
      return preds.begin(b) != preds.end(b) &&
             std::all_of(preds.begin(b), preds.end(b),
                         [&](int p) { return cold_[static_cast<size_t>(p)] != 0; });
    };
    std::vector<int> work;
    work.reserve(2 * f_.blocks.size());
    for (size_t b = f_.blocks.size(); b-- > 1;) work.push_back(static_cast<int>(b));
    while (!work.empty()) {
      const size_t b = static_cast<size_t>(work.back());
      work.pop_back();
      if (cold_[b] || !all_preds_cold(b)) continue;
      cold_[b] = 1;
      const lir::Successors succ(f_.blocks[b].instrs.back());
      for (int i = 0; i < succ.count; i++) {
        if (succ.targets[i] > 0) work.push_back(succ.targets[i]);
      }
    }
  }

  bool Hot(size_t k) const { return cold_[static_cast<size_t>(order_[k])] == 0; }

  // Each HIR block's run of the emission order.
  std::vector<Group> Groups() const {
    std::vector<Group> groups;
    for (size_t i = 0; i < order_.size();) {
      const int group = group_[static_cast<size_t>(order_[i])];
      size_t j = i;
      while (j < order_.size() && group_[static_cast<size_t>(order_[j])] == group) j++;
      groups.emplace_back(i, j);
      i = j;
    }
    return groups;
  }

  // Whether the last hot block of group `g` ends in a jump, or a branch's not-taken way, to
  // the first hot block of group `next`.
  bool GoesOnInto(Group g, Group next) const {
    int last = -1, first = -1;
    for (size_t k = g.first; k < g.second; k++) {
      if (Hot(k)) last = order_[k];
    }
    for (size_t k = next.first; k < next.second && first < 0; k++) {
      if (Hot(k)) first = order_[k];
    }
    if (last < 0 || first < 0) return false;
    const lir::Instr& t = f_.blocks[static_cast<size_t>(last)].instrs.back();
    return (t.op == lir::Op::kJmp && t.targets[0] == first) ||
           (t.op == lir::Op::kBr && t.targets[1] == first);
  }

  // Blocks in the order code was emitted into them, and each group's cold blocks right after
  // its hot ones: straight-line code falls through instead of branching around exits. A
  // group whose hot code ends by going on into the next group's (the return block's group,
  // last, after the function's last return, say) leaves its cold blocks until after the next
  // group's hot blocks, so that it falls through; at most kDeferredGroups in a row, so that
  // what an exit uses is not kept live across long stretches of hot code.
  std::vector<int> Order(const std::vector<Group>& groups) const {
    constexpr size_t kDeferredGroups = 3;
    std::vector<int> order;
    order.reserve(order_.size());
    const auto take = [&](Group g, bool cold) {
      for (size_t k = g.first; k < g.second; k++) {
        if (!Hot(k) == cold) order.push_back(order_[k]);
      }
    };
    std::vector<size_t> waiting;  // groups whose cold blocks are still to place
    for (size_t g = 0; g < groups.size(); g++) {
      take(groups[g], false);
      waiting.push_back(g);
      const bool goes_on = g + 1 < groups.size() && waiting.size() < kDeferredGroups &&
                           GoesOnInto(groups[g], groups[g + 1]);
      if (goes_on) continue;
      for (size_t w : waiting) take(groups[w], true);
      waiting.clear();
    }
    return order;
  }

  // The blocks moved into `order`, every branch target renumbered.
  void Renumber(const std::vector<int>& order) {
    std::vector<int> index(f_.blocks.size(), -1);
    for (size_t n = 0; n < order.size(); n++) {
      index[static_cast<size_t>(order[n])] = static_cast<int>(n);
    }
    std::vector<lir::Block> blocks;
    blocks.reserve(order.size());
    for (int b : order) blocks.push_back(std::move(f_.blocks[static_cast<size_t>(b)]));
    for (lir::Block& b : blocks) {
      lir::Instr& t = b.instrs.back();
      for (int& target : t.targets) {
        if (target >= 0) target = index[static_cast<size_t>(target)];
      }
    }
    f_.blocks = std::move(blocks);
  }

  lir::Function& f_;
  std::vector<char> cold_;
  const std::vector<int>& group_;
  const std::vector<int>& order_;
};

}  // namespace

void LayOutBlocks(lir::Function* f, std::vector<char> cold, const std::vector<int>& group,
                  const std::vector<int>& order) {
  Layout(f, std::move(cold), group, order).Run();
}

}  // namespace a64jit::lower
