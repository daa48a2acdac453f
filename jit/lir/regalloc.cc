#include "jit/lir/regalloc.h"

#include <algorithm>
#include <climits>
#include <optional>
#include <type_traits>
#include <utility>

#include "jit/lir/cfg.h"

namespace a64jit::lir {
namespace {

constexpr int kNoBlock = -1;
constexpr int kManyBlocks = -2;

// Every vreg mention of the function, in block order, as 8 bytes each: liveness walks
// these three times instead of the 176-byte instructions (a median function's are about
// 50 kB, more than a level-1 data cache). Within an instruction the uses come first and the
// def last, so a forward walk sees reads before the write and a backward walk the write
// first.
struct Mention {
  int vreg;
  int pos;  // 2k for a use by instruction k (in block order), 2k + 1 for its def
  bool is_def() const { return (pos & 1) != 0; }
};
struct Mentions {
  std::vector<Mention> all;
  std::vector<int> block_begin;  // block b's mentions: [block_begin[b], block_begin[b + 1])
  std::vector<int> first_pos;    // 2k for block b's first instruction k; then 2 x the count
  std::vector<Successors> succ;  // per block
  size_t blocks() const { return succ.size(); }
  size_t begin(size_t b) const { return static_cast<size_t>(block_begin[b]); }
  size_t end(size_t b) const { return static_cast<size_t>(block_begin[b + 1]); }
};

Mentions FindMentions(const Function& f) {
  Mentions m;
  const size_t nb = f.blocks.size();
  size_t instrs = 0;
  for (const Block& b : f.blocks) instrs += b.instrs.size();
  m.all.reserve(4 * instrs);  // about three mentions an instruction
  m.block_begin.reserve(nb + 1);
  m.first_pos.reserve(nb + 1);
  m.succ.reserve(nb);
  int k = 0;
  for (const Block& b : f.blocks) {
    m.block_begin.push_back(static_cast<int>(m.all.size()));
    m.first_pos.push_back(2 * k);
    for (const Instr& in : b.instrs) {
      ForEachUse(in, [&](int v) { m.all.push_back(Mention{v, 2 * k}); });
      if (in.dst >= 0) m.all.push_back(Mention{in.dst, 2 * k + 1});
      k++;
    }
    m.succ.emplace_back(b.instrs.back());
  }
  m.block_begin.push_back(static_cast<int>(m.all.size()));
  m.first_pos.push_back(2 * k);
  return m;
}

// Dense numbers for the vregs whose liveness crosses a block boundary: defined in more than
// one block, used outside their defining block, or used in it before being defined (a
// value carried around a loop). Every other vreg lives within one block, and its interval
// is just its first and last mention; only these need the dataflow. In compiled Python
// most vregs are temporaries of one bytecode, so this keeps the bit sets (blocks x vregs,
// four of them) a small fraction of their full size, in time and in peak memory.
std::vector<int> CrossBlockVregs(const Function& f, const Mentions& m, int* count) {
  const size_t nv = f.vreg_types.size();
  std::vector<int> home(nv, kNoBlock);  // the one block that defines it, or kManyBlocks
  std::vector<uint8_t> crosses(nv, 0);  // bytes: read and written for every operand
  for (int p : f.params) home[static_cast<size_t>(p)] = 0;  // defined on entry to block 0
  for (size_t b = 0; b < m.blocks(); b++) {
    const int block = static_cast<int>(b);
    for (size_t i = m.begin(b); i != m.end(b); i++) {
      const Mention& x = m.all[i];
      const size_t v = static_cast<size_t>(x.vreg);
      if (!x.is_def()) {
        if (home[v] != block) crosses[v] = true;  // used before (or without) a def here
        continue;
      }
      int& h = home[v];
      if (h != kNoBlock && h != block) crosses[v] = true;
      h = h == kNoBlock || h == block ? block : kManyBlocks;
    }
  }
  std::vector<int> index(nv, -1);
  *count = 0;
  for (size_t v = 0; v < nv; v++) {
    if (crosses[v]) index[v] = (*count)++;
  }
  return index;
}

// Orders and merges the ranges of one vreg, in place; touching ranges ([a, b] and [b + 1, c])
// merge. BuildIntervals adds them walking backwards, so they arrive by descending start
// and reversing sorts them; the sort stays for any other order.
void Normalize(LiveInterval& iv) {
  if (iv.ranges.size() == 1) {  // most vregs: one range, within one block
    iv.start = iv.ranges[0].start;
    iv.end = iv.ranges[0].end;
    return;
  }
  const auto by_start = [](const LiveRange& x, const LiveRange& y) { return x.start < y.start; };
  std::reverse(iv.ranges.begin(), iv.ranges.end());
  if (!std::is_sorted(iv.ranges.begin(), iv.ranges.end(), by_start)) {
    std::sort(iv.ranges.begin(), iv.ranges.end(), by_start);
  }
  size_t kept = 0;
  for (const LiveRange& r : iv.ranges) {
    if (kept != 0 && r.start <= iv.ranges[kept - 1].end + 1) {
      iv.ranges[kept - 1].end = std::max(iv.ranges[kept - 1].end, r.end);
    } else {
      iv.ranges[kept++] = r;
    }
  }
  iv.ranges.truncate(kept);
  iv.start = iv.ranges.front().start;
  iv.end = iv.ranges.back().end;
}

// The vregs live into and out of each block: bit sets over the cross-block vregs' dense
// numbers (DenseLiveness), read in place, or lists (SparseLiveness).
class LiveSets {
 public:
  LiveSets(std::vector<uint64_t> in, std::vector<uint64_t> out, size_t words,
           std::vector<int> vreg_of)
      : in_bits_(std::move(in)),
        out_bits_(std::move(out)),
        words_(words),
        vreg_of_(std::move(vreg_of)) {}
  LiveSets(Groups in, Groups out) : in_lists_(std::move(in)), out_lists_(std::move(out)) {}

  // fn(vreg) for each vreg live into block b but not out of block `prev` (b - 1 in layout;
  // -1: none), whose range need not close at b's start: it goes on into `prev`, and one
  // range spans both. Lists (SparseLiveness) give all of b's live-in, which closes and
  // reopens such a range; BuildIntervals then merges the two.
  template <typename Fn>
  void ForEachInNotOut(size_t b, int prev, Fn fn) const {
    ForEach(in_lists_, in_bits_, b, prev < 0 ? nullptr : &out_bits_, prev, fn);
  }
  // fn(vreg) for each vreg live out of block b but not into block `next` (b + 1; -1: none):
  // those live into `next` have a range open already. Lists give all of b's live-out.
  template <typename Fn>
  void ForEachOutNotIn(size_t b, int next, Fn fn) const {
    ForEach(out_lists_, out_bits_, b, next < 0 ? nullptr : &in_bits_, next, fn);
  }

 private:
  // The vregs of block b's list, or the bits of set[b] that are not in minus[other] (all of
  // them when minus is null).
  template <typename Fn>
  void ForEach(const std::optional<Groups>& lists, const std::vector<uint64_t>& set, size_t b,
               const std::vector<uint64_t>* minus, int other, Fn fn) const {
    if (lists) {
      for (const int* v = lists->begin(b); v != lists->end(b); v++) fn(*v);
      return;
    }
    for (size_t w = 0; w < words_; w++) {
      uint64_t bits = set[b * words_ + w];
      if (minus != nullptr) bits &= ~(*minus)[static_cast<size_t>(other) * words_ + w];
      for (; bits != 0; bits &= bits - 1) {
        fn(vreg_of_[64 * w + static_cast<size_t>(__builtin_ctzll(bits))]);
      }
    }
  }

  std::vector<uint64_t> in_bits_, out_bits_;  // words_ per block
  size_t words_ = 0;
  std::vector<int> vreg_of_;  // dense number -> vreg
  std::optional<Groups> in_lists_, out_lists_;
};

// The ranges of every vreg, block by block, walking each block backwards: a range opens at
// a use (or at the block's end, for what is live out) and closes at the def (or at the
// block's start, for what is live in). A def nothing reads still gets its one position, so
// it never lands on a register that holds a live value.
std::vector<LiveInterval> BuildIntervals(const Function& f, const Mentions& m,
                                         const LiveSets& live) {
  const size_t nv = f.vreg_types.size();
  std::vector<LiveInterval> by_vreg(nv);
  std::vector<int> open_end(nv, INT_MIN);  // end of the range open at the current position
  std::vector<uint8_t> is_param(nv, 0);
  for (int p : f.params) is_param[static_cast<size_t>(p)] = true;
  auto opens = [&](size_t v, int end) {
    if (open_end[v] == INT_MIN) open_end[v] = end;
  };
  // Ranges arrive by descending start. One that ends where the last one added starts (a
  // value live through consecutive blocks) extends it: no range per block to store and
  // merge later.
  auto closes = [&](size_t v, int start) {
    auto& ranges = by_vreg[v].ranges;
    if (!ranges.empty() && ranges.back().start == open_end[v] + 1) {
      ranges.back().start = start;
    } else {
      ranges.push_back(LiveRange{start, open_end[v]});
    }
    open_end[v] = INT_MIN;
  };
  const size_t nb = f.blocks.size();
  for (size_t bi = nb; bi-- > 0;) {
    const int first = m.first_pos[bi];  // 2k of the block's first instruction
    const int last_def = m.first_pos[bi + 1] - 1;
    const int next = bi + 1 < nb ? static_cast<int>(bi) + 1 : -1;
    live.ForEachOutNotIn(bi, next, [&](int v) { opens(static_cast<size_t>(v), last_def); });
    for (size_t i = m.end(bi); i-- > m.begin(bi);) {
      const Mention& x = m.all[i];
      const size_t v = static_cast<size_t>(x.vreg);
      if (x.is_def()) {
        if (open_end[v] == INT_MIN) opens(v, x.pos);
        closes(v, x.pos);
      } else {
        opens(v, x.pos);
      }
    }
    // What is still open here is what is live in: a vreg read before its def in one block is
    // a cross-block one (CrossBlockVregs), in the live-in set; but for the parameters, below.
    live.ForEachInNotOut(bi, static_cast<int>(bi) - 1, [&](int v) {
      const size_t u = static_cast<size_t>(v);
      closes(u, bi == 0 && is_param[u] ? -1 : first);
    });
  }
  // A parameter read in block 0 only is no cross-block vreg, so not in its live-in set: it is
  // live from the entry.
  for (int p : f.params) {
    const size_t u = static_cast<size_t>(p);
    if (open_end[u] != INT_MIN) closes(u, -1);
    if (by_vreg[u].ranges.empty()) by_vreg[u].ranges.push_back(LiveRange{-1, -1});
  }
  // Compacted in place: the vregs with a range, in vreg order.
  size_t kept = 0;
  for (size_t v = 0; v < nv; v++) {
    if (by_vreg[v].ranges.empty()) continue;
    by_vreg[v].vreg = static_cast<int>(v);
    Normalize(by_vreg[v]);
    if (kept != v) by_vreg[kept] = std::move(by_vreg[v]);
    kept++;
  }
  by_vreg.resize(kept);
  return by_vreg;
}

// Where each cross-block vreg (dense number, CrossBlockVregs) is defined, and where it is
// read before any def in the same block (an upward-exposed use); each block once per vreg.
struct DefsAndUses {
  Groups def_blocks, use_blocks;
};

DefsAndUses FindDefsAndUses(const Mentions& m, const std::vector<int>& global, int ng) {
  std::vector<std::pair<int, int>> defs, uses;  // (dense vreg, block)
  std::vector<int> defined_in(static_cast<size_t>(ng), -1), used_in(static_cast<size_t>(ng), -1);
  for (size_t b = 0; b < m.blocks(); b++) {
    const int block = static_cast<int>(b);
    for (size_t i = m.begin(b); i != m.end(b); i++) {
      const Mention& x = m.all[i];
      const int g = global[static_cast<size_t>(x.vreg)];
      if (g < 0) continue;
      const size_t u = static_cast<size_t>(g);
      if (!x.is_def()) {
        if (defined_in[u] == block || used_in[u] == block) continue;
        used_in[u] = block;
        uses.emplace_back(g, block);
      } else if (defined_in[u] != block) {
        defined_in[u] = block;
        defs.emplace_back(g, block);
      }
    }
  }
  return DefsAndUses{Groups(static_cast<size_t>(ng), defs), Groups(static_cast<size_t>(ng), uses)};
}

// At most this many cross-block vregs, liveness is a bit set per block (four 64-bit words
// at most) iterated to a fixed point: 88% of compile_time's functions have 64 or fewer, and
// the median 46. Past it, a vreg at a time (SparseLiveness).
constexpr int kDenseLiveness = 256;

// in = use | (out & ~def) and out = the union of the successors' in, blocks taken in reverse
// order until nothing changes (one pass more than the deepest loop nest), with `words` 64-bit
// words a block. For at most 64 cross-block vregs (most functions) `words` is the constant 1,
// and the loop over words goes.
template <typename Words>
void SolveLiveness(const Mentions& m, Words words, const std::vector<uint64_t>& use,
                   const std::vector<uint64_t>& def, std::vector<uint64_t>& in,
                   std::vector<uint64_t>& out) {
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = m.blocks(); b-- > 0;) {
      const size_t at = b * words;
      const Successors& succ = m.succ[b];
      for (size_t w = 0; w < words; w++) {
        uint64_t o = 0;
        for (int s = 0; s < succ.count; s++) {
          o |= in[static_cast<size_t>(succ.targets[s]) * words + w];
        }
        out[at + w] = o;
        const uint64_t n = use[at + w] | (o & ~def[at + w]);
        changed = changed || n != in[at + w];
        in[at + w] = n;
      }
    }
  }
}

// The vregs live into and out of each block (`global`: their dense numbers,
// CrossBlockVregs), as bit sets: each block's upward-exposed uses and defs in one walk, then
// the dataflow to its fixed point (SolveLiveness).
LiveSets DenseLiveness(const Mentions& m, const std::vector<int>& global, int ng) {
  const size_t nb = m.blocks();
  const size_t words = (static_cast<size_t>(ng) + 63) / 64;
  std::vector<uint64_t> use(nb * words, 0), def(nb * words, 0), in(nb * words, 0),
      out(nb * words, 0);
  auto bit = [](const std::vector<uint64_t>& set, size_t at, int g) {
    return (set[at + static_cast<size_t>(g) / 64] >> (g % 64) & 1) != 0;
  };
  auto mark = [](std::vector<uint64_t>& set, size_t at, int g) {
    set[at + static_cast<size_t>(g) / 64] |= uint64_t{1} << (g % 64);
  };
  for (size_t b = 0; b < nb; b++) {
    const size_t at = b * words;
    for (size_t i = m.begin(b); i != m.end(b); i++) {
      const Mention& x = m.all[i];
      const int g = global[static_cast<size_t>(x.vreg)];
      if (g < 0) continue;
      if (x.is_def()) {
        mark(def, at, g);
      } else if (!bit(def, at, g)) {
        mark(use, at, g);
      }
    }
  }
  if (words == 1) {
    SolveLiveness(m, std::integral_constant<size_t, 1>(), use, def, in, out);
  } else {
    SolveLiveness(m, words, use, def, in, out);
  }
  std::vector<int> vreg_of(static_cast<size_t>(ng));
  for (size_t v = 0; v < global.size(); v++) {
    if (global[v] >= 0) vreg_of[static_cast<size_t>(global[v])] = static_cast<int>(v);
  }
  return LiveSets(std::move(in), std::move(out), words, std::move(vreg_of));
}

// The vregs live into and out of each block, found one vreg at a time, walking backwards from its
// upward-exposed uses through predecessors until a block that defines it: the work is
// proportional to the blocks where it is live. For many cross-block vregs, where bit sets
// are mostly zeros: they took 78 ms and 25 MB for one long function (200 lines of
// `s += math.sqrt(x)`: 10,420 blocks, 4,810 cross-block vregs).
LiveSets SparseLiveness(const Function& f, const Mentions& m, const std::vector<int>& global,
                        int ng) {
  const size_t nb = f.blocks.size();
  const DefsAndUses du = FindDefsAndUses(m, global, ng);
  const Groups preds = Predecessors(f);
  std::vector<std::pair<int, int>> live_in_pairs, live_out;  // (block, vreg)
  // Per block, the last vreg (dense number) marked there: no clearing between vregs.
  std::vector<int> defines(nb, -1), live_in(nb, -1), out_marked(nb, -1);
  std::vector<int> work;
  for (size_t v = 0; v < global.size(); v++) {
    const int g = global[v];
    if (g < 0) continue;
    const size_t u = static_cast<size_t>(g);
    for (const int* b = du.def_blocks.begin(u); b != du.def_blocks.end(u); b++) {
      defines[static_cast<size_t>(*b)] = g;
    }
    for (const int* b = du.use_blocks.begin(u); b != du.use_blocks.end(u); b++) {
      live_in[static_cast<size_t>(*b)] = g;
      live_in_pairs.emplace_back(*b, static_cast<int>(v));
      work.push_back(*b);
    }
    while (!work.empty()) {
      const size_t b = static_cast<size_t>(work.back());
      work.pop_back();
      for (const int* p = preds.begin(b); p != preds.end(b); p++) {
        const size_t q = static_cast<size_t>(*p);
        if (out_marked[q] != g) {
          out_marked[q] = g;
          live_out.emplace_back(*p, static_cast<int>(v));
        }
        if (defines[q] == g || live_in[q] == g) continue;
        live_in[q] = g;
        live_in_pairs.emplace_back(*p, static_cast<int>(v));
        work.push_back(*p);
      }
    }
  }
  return LiveSets(Groups(nb, live_in_pairs), Groups(nb, live_out));
}

LiveSets FindLiveness(const Function& f, const Mentions& m, Liveness how) {
  int ng = 0;
  const std::vector<int> global = CrossBlockVregs(f, m, &ng);
  const bool dense = how == Liveness::kAuto ? ng <= kDenseLiveness : how == Liveness::kDense;
  return dense ? DenseLiveness(m, global, ng) : SparseLiveness(f, m, global, ng);
}

}  // namespace

bool LiveInterval::Overlaps(const LiveInterval& other) const {
  size_t i = 0, j = 0;
  while (i < ranges.size() && j < other.ranges.size()) {
    const LiveRange& x = ranges[i];
    const LiveRange& y = other.ranges[j];
    if (x.start <= y.end && y.start <= x.end) return true;
    (x.end < y.end ? i : j)++;
  }
  return false;
}

std::vector<LiveInterval> ComputeLiveIntervals(const Function& f, Liveness how) {
  const Mentions m = FindMentions(f);
  return BuildIntervals(f, m, FindLiveness(f, m, how));
}

namespace {

// General and f64 registers share one index space so that one table marks both busy:
// register r of class c is slot c * kRegsPerClass + r (aarch64 has 32 of each).
constexpr int kRegsPerClass = 32;
constexpr int kRegClasses = 2;  // 0: general, 1: f64

// What the scan needs from the instructions, found in one walk over them.
struct ScanFacts {
  // calls_before[p]: how many calls are at positions below p (a call by instruction k is at
  // 2k), for p up to 2 x the instructions: CrossesCall's question for a range is a difference.
  std::vector<int> calls_before;
  std::vector<int> uses;  // instructions mentioning each vreg: the spill weight
  // Preferred registers (RegisterFile): arguments first, then call results and returns.
  std::vector<int> hint;
  // The vreg each vreg is first copied from (`d = mov s`), or -1: d prefers s's register,
  // which is free from the copy on when s ends there, and the move then emits nothing.
  std::vector<int> copy_of;
};

// Vregs in a calling convention's argument order, each hinted to its argument register
// unless it has a hint already.
class ArgumentHints {
 public:
  ArgumentHints(const Function& f, const RegisterFile& regs, std::vector<int>& hint)
      : f_(f), regs_(regs), hint_(hint) {}
  void Next(int v) {
    const bool fp = IsFloat(f_.TypeOf(v));
    const std::vector<int>& arg_regs = fp ? regs_.fp_args : regs_.gp_args;
    size_t& next = fp ? next_fp_ : next_gp_;
    if (next < arg_regs.size() && hint_[static_cast<size_t>(v)] < 0) {
      hint_[static_cast<size_t>(v)] = arg_regs[next];
    }
    next++;
  }
  // An immediate argument takes the next general argument register itself.
  void SkipImmediate() { next_gp_++; }

 private:
  const Function& f_;
  const RegisterFile& regs_;
  std::vector<int>& hint_;
  size_t next_gp_ = 0, next_fp_ = 0;
};

// Sets the hint of each vreg passed to `call` in an argument register to that register.
void HintArguments(const Function& f, const Instr& call, const RegisterFile& regs,
                   std::vector<int>& hint) {
  ArgumentHints hints(f, regs, hint);
  for (const Operand& o : call.args) {
    if (o.is_vreg()) {
      hints.Next(o.vreg);
    } else {
      hints.SkipImmediate();
    }
  }
}

ScanFacts FindScanFacts(const Function& f, const RegisterFile& regs) {
  const size_t nv = f.vreg_types.size();
  ScanFacts facts{{}, std::vector<int>(nv, 0), std::vector<int>(nv, -1), std::vector<int>(nv, -1)};
  std::vector<int> call_positions;       // ascending
  std::vector<int> result_hint(nv, -1);  // applied after every argument hint
  int k = 0;
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      ForEachUse(in, [&](int v) { facts.uses[static_cast<size_t>(v)]++; });
      if (in.dst >= 0) facts.uses[static_cast<size_t>(in.dst)]++;
      if (in.op == Op::kMov && in.args[0].is_vreg() &&
          facts.copy_of[static_cast<size_t>(in.dst)] < 0) {
        facts.copy_of[static_cast<size_t>(in.dst)] = in.args[0].vreg;
      }
      int result = -1;
      if (IsCall(in.op)) {
        call_positions.push_back(2 * k);
        HintArguments(f, in, regs, facts.hint);
        result = in.dst;
      }
      // A tail call's arguments end there too, and nothing after it needs a register kept.
      if (in.op == Op::kTailCall) HintArguments(f, in, regs, facts.hint);
      if (in.op == Op::kRet && !in.args.empty() && in.args[0].is_vreg()) result = in.args[0].vreg;
      if (result >= 0 && result_hint[static_cast<size_t>(result)] < 0) {
        result_hint[static_cast<size_t>(result)] =
            IsFloat(f.TypeOf(result)) ? regs.fp_result : regs.gp_result;
      }
      k++;
    }
  }
  facts.calls_before.assign(static_cast<size_t>(2 * k + 1), 0);
  for (int c : call_positions) facts.calls_before[static_cast<size_t>(c + 1)]++;
  for (size_t p = 1; p < facts.calls_before.size(); p++) {
    facts.calls_before[p] += facts.calls_before[p - 1];
  }
  for (size_t v = 0; v < nv; v++) {
    if (facts.hint[v] < 0) facts.hint[v] = result_hint[v];
  }
  // A parameter with no other preference stays where it arrives (no move in the prologue).
  ArgumentHints params(f, regs, facts.hint);
  for (int p : f.params) params.Next(p);
  return facts;
}

// A set of register numbers (0-31) as bits: membership is one test, not a search.
uint32_t Mask(const std::vector<int>& regs) {
  uint32_t mask = 0;
  for (int r : regs) mask |= uint32_t{1} << r;
  return mask;
}

bool Contains(uint32_t mask, int r) { return (mask >> r & 1) != 0; }

// Who holds one register (or spill slot) where: disjoint ranges sorted by their start, in
// one vector (a std::map allocated a node per range; with this vector the emit stage of
// benchmarks/compile_time takes 12% less time).
class Occupancy {
 public:
  // The vregs holding it somewhere in `iv`'s ranges (with repeats), or just whether any does.
  template <typename Fn>
  void ForEachConflict(const LiveInterval& iv, Fn fn) const {
    for (const LiveRange& r : iv.ranges) {
      auto it = FirstAfter(r.end);
      while (it != held_.begin()) {
        --it;
        if (it->end < r.start) break;  // disjoint and sorted: earlier ones end sooner
        fn(it->vreg);
      }
    }
  }
  bool IsFree(const LiveInterval& iv) const {
    // The scan goes by start, so the usual case is a register whose last holder ended
    // before `iv` begins (the ranges are disjoint and sorted: the last one ends last).
    if (held_.empty() || held_.back().end < iv.start) return true;
    if (held_.back().start <= iv.start) return false;  // the last holder covers iv's start
    // Else a holder has a range later on: most often a value's use on a cold path at the
    // end. The first range that ends at or after iv's start decides iv's first range; the
    // scan's starts only grow, so that range is found by a cursor that only moves forward
    // (a binary search for each register tried took a tenth of compile time).
    if (iv.start < cursor_pos_) cursor_ = 0;
    cursor_pos_ = iv.start;
    while (cursor_ < held_.size() && held_[cursor_].end < iv.start) cursor_++;
    if (held_[cursor_].start <= iv.ranges[0].end) return false;
    if (iv.ranges.size() == 1) return true;
    bool free = true;
    ForEachConflict(iv, [&](int) { free = false; });
    return free;
  }
  void Add(const LiveInterval& iv) {
    if (held_.capacity() == 0) held_.reserve(16);  // a register is mostly reused many times
    for (const LiveRange& r : iv.ranges) {
      const Held h{r.start, r.end, iv.vreg};
      if (held_.empty() || held_.back().start < r.start) {
        held_.push_back(h);  // the usual case, as above: after everything held
      } else {
        const auto at = held_.insert(FirstAfter(r.start), h);
        cursor_ = std::min(cursor_, static_cast<size_t>(at - held_.begin()));
      }
    }
  }
  void Remove(const LiveInterval& iv) {
    for (const LiveRange& r : iv.ranges) {
      auto it = FirstAfter(r.start);
      if (it == held_.begin() || (it - 1)->start != r.start) continue;
      if (static_cast<size_t>(it - 1 - held_.begin()) < cursor_) cursor_--;
      held_.erase(it - 1);
    }
  }

 private:
  struct Held {
    int start, end, vreg;
  };
  // The first range starting after `pos`.
  std::vector<Held>::const_iterator FirstAfter(int pos) const {
    return std::upper_bound(held_.begin(), held_.end(), pos,
                            [](int p, const Held& h) { return p < h.start; });
  }
  std::vector<Held> held_;
  // IsFree's cursor: every range before held_[cursor_] ends before cursor_pos_.
  mutable size_t cursor_ = 0;
  mutable int cursor_pos_ = INT_MIN;
};

// The scan proper: intervals in order of their start, each given a register free over all
// its ranges or, when none is, the register of already placed intervals that are worth less
// (which are spilled), or else a spill slot. Spill slots are shared the same way.
class LinearScan {
 public:
  LinearScan(const Function& f, const RegisterFile& regs, Allocation& a,
             const std::vector<LiveInterval>& intervals)
      : f_(f),
        regs_(regs),
        a_(a),
        facts_(FindScanFacts(f, regs)),
        interval_of_(f.vreg_types.size(), nullptr),
        held_(kRegClasses * kRegsPerClass),
        callee_used_(kRegClasses * kRegsPerClass, false),
        callee_mask_{Mask(regs.gp_callee_saved), Mask(regs.fp_callee_saved)},
        caller_mask_{Mask(regs.gp_caller_saved), Mask(regs.fp_caller_saved)},
        arg_mask_{Mask(regs.gp_args), Mask(regs.fp_args)} {
    for (const LiveInterval& iv : intervals) interval_of_[static_cast<size_t>(iv.vreg)] = &iv;
  }

  void Allocate(const LiveInterval& iv) {
    const size_t v = static_cast<size_t>(iv.vreg);
    const bool fp = IsFloat(f_.TypeOf(iv.vreg));
    const Class cls{fp ? kRegsPerClass : 0, fp ? regs_.fp_callee_saved : regs_.gp_callee_saved,
                    fp ? regs_.fp_caller_saved : regs_.gp_caller_saved, callee_mask_[fp],
                    caller_mask_[fp]};
    const bool crosses = CrossesCall(iv);
    a_.crosses_call[v] = crosses;
    int chosen = PickFree(iv, cls, facts_.hint[v], CopiedRegister(v, fp), crosses);
    if (chosen < 0) chosen = Steal(iv, cls, crosses);
    if (chosen < 0) {
      Spill(iv);
      return;
    }
    held_[static_cast<size_t>(chosen)].Add(iv);
    a_.where[v] = Location{Location::Kind::kReg, chosen - cls.base};
    if (Contains(cls.callee_mask, chosen - cls.base))
      callee_used_[static_cast<size_t>(chosen)] = true;
  }

  // The callee-saved registers handed out, ascending: the prologue saves them.
  void ReportCalleeSaved() {
    for (int r : regs_.gp_callee_saved) {
      if (callee_used_[static_cast<size_t>(r)]) a_.used_gp_callee_saved.push_back(r);
    }
    for (int r : regs_.fp_callee_saved) {
      if (callee_used_[static_cast<size_t>(kRegsPerClass + r)]) {
        a_.used_fp_callee_saved.push_back(r);
      }
    }
    std::sort(a_.used_gp_callee_saved.begin(), a_.used_gp_callee_saved.end());
    std::sort(a_.used_fp_callee_saved.begin(), a_.used_fp_callee_saved.end());
  }

 private:
  // The register class of the interval being allocated: its first slot in held_, and its
  // callee- and caller-saved registers (register numbers) in order of preference, and the
  // same as sets.
  struct Class {
    int base;
    const std::vector<int>& callee;
    const std::vector<int>& caller;
    uint32_t callee_mask, caller_mask;
  };

  // A call inside a range (not at its last use) would clobber a caller-saved register.
  // That is a call at a position c with start <= c <= end - 2.
  bool CrossesCall(const LiveInterval& iv) const {
    const std::vector<int>& before = facts_.calls_before;
    const int last = static_cast<int>(before.size()) - 1;
    for (const LiveRange& r : iv.ranges) {
      const int from = std::max(r.start, 0), to = std::min(r.end - 1, last);
      if (to > from && before[static_cast<size_t>(to)] > before[static_cast<size_t>(from)]) {
        return true;
      }
    }
    return false;
  }

  // The register (number in its class) of the vreg that `v` is a copy of, when that one is
  // in a register of the same class; else -1.
  int CopiedRegister(size_t v, bool fp) const {
    const int src = facts_.copy_of[v];
    if (src < 0 || IsFloat(f_.TypeOf(src)) != fp) return -1;
    const Location& at = a_.where[static_cast<size_t>(src)];
    return at.is_reg() ? at.index : -1;
  }

  // A free register slot: the hint if it is free and caller-saved (and no call is crossed),
  // else the register of the value it copies if free (callee-saved when a call is crossed),
  // else the first free caller-saved one (no call crossed), else the first free callee-saved
  // one; -1 if none.
  int PickFree(const LiveInterval& iv, const Class& cls, int hint, int copied, bool crosses) const {
    if (!crosses && hint >= 0 && Contains(cls.caller_mask, hint) &&
        held_[static_cast<size_t>(cls.base + hint)].IsFree(iv)) {
      return cls.base + hint;
    }
    if (copied >= 0 && (!crosses || Contains(cls.callee_mask, copied)) &&
        held_[static_cast<size_t>(cls.base + copied)].IsFree(iv)) {
      return cls.base + copied;
    }
    int chosen = -1;
    // A value with no preference of its own takes a caller-saved register that is no
    // argument register first: those stay free for the values that end as arguments of the
    // next call (a slot address, a count), which would otherwise take another one and be
    // moved there.
    if (!crosses && hint < 0) chosen = FirstFree(iv, cls, cls.caller, ArgumentMask(cls));
    if (!crosses && chosen < 0) chosen = FirstFree(iv, cls, cls.caller);
    if (chosen < 0) chosen = FirstFree(iv, cls, cls.callee);
    return chosen;
  }

  // The first register of `set`, in order, that is free over `iv` and not in `skip`.
  int FirstFree(const LiveInterval& iv, const Class& cls, const std::vector<int>& set,
                uint32_t skip = 0) const {
    for (int r : set) {
      if (Contains(skip, r)) continue;
      if (held_[static_cast<size_t>(cls.base + r)].IsFree(iv)) return cls.base + r;
    }
    return -1;
  }
  uint32_t ArgumentMask(const Class& cls) const { return arg_mask_[cls.base != 0]; }

  // Uses per position covered: a long-lived value used everywhere, like a frame pointer,
  // keeps its register; a long-lived rarely used one goes to memory.
  double Weight(const LiveInterval& iv) const {
    int length = 0;
    for (const LiveRange& r : iv.ranges) length += r.end - r.start + 1;
    return static_cast<double>(facts_.uses[static_cast<size_t>(iv.vreg)]) / (length + 1);
  }

  // No free register: take the allowed register whose holders over `iv`'s ranges are all
  // worth less than `iv`, and cost least together; they are spilled. Returns the register
  // slot, or -1 if `iv` itself is the one to spill.
  int Steal(const LiveInterval& iv, const Class& cls, bool crosses) {
    const double own = Weight(iv);
    int best = -1;
    double best_cost = 0;
    std::vector<int> holders, best_holders;
    auto consider = [&](int r) {
      const size_t slot = static_cast<size_t>(cls.base + r);
      holders.clear();
      held_[slot].ForEachConflict(iv, [&](int x) { holders.push_back(x); });
      std::sort(holders.begin(), holders.end());
      holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
      double cost = 0;
      for (int x : holders) {
        const double w = Weight(*interval_of_[static_cast<size_t>(x)]);
        if (!(w < own)) return;
        cost += w;
      }
      if (best < 0 || cost < best_cost) {
        best = static_cast<int>(slot);
        best_cost = cost;
        best_holders = holders;
      }
    };
    if (!crosses) {
      for (int r : cls.caller) consider(r);
    }
    for (int r : cls.callee) consider(r);
    if (best < 0) return -1;
    for (int x : best_holders) {
      const LiveInterval& victim = *interval_of_[static_cast<size_t>(x)];
      held_[static_cast<size_t>(best)].Remove(victim);
      Spill(victim);
    }
    return best;
  }

  // A spill slot free over all of `iv`'s ranges, or a new one.
  void Spill(const LiveInterval& iv) {
    size_t slot = 0;
    while (slot < slots_.size() && !slots_[slot].IsFree(iv)) slot++;
    if (slot == slots_.size()) slots_.emplace_back();
    slots_[slot].Add(iv);
    a_.where[static_cast<size_t>(iv.vreg)] =
        Location{Location::Kind::kSpill, static_cast<int>(slot)};
    a_.spill_slots = static_cast<int>(slots_.size());
  }

  const Function& f_;
  const RegisterFile& regs_;
  Allocation& a_;
  const ScanFacts facts_;
  std::vector<const LiveInterval*> interval_of_;  // per vreg
  std::vector<Occupancy> held_;                   // per register slot
  std::vector<bool> callee_used_;                 // per register slot
  std::vector<Occupancy> slots_;                  // per spill slot
  const uint32_t callee_mask_[kRegClasses];       // per class (0: general, 1: f64)
  const uint32_t caller_mask_[kRegClasses];
  const uint32_t arg_mask_[kRegClasses];  // the calling convention's argument registers
};

// The order the scan takes intervals in: by start, ties in vreg order (the order of
// `intervals`). Starts are positions, from -1 (a parameter) to twice the instruction count,
// so a counting sort does it in one pass each way.
std::vector<int> ByStart(const std::vector<LiveInterval>& intervals) {
  int last = -1;
  for (const LiveInterval& iv : intervals) last = std::max(last, iv.start);
  std::vector<int> next(static_cast<size_t>(last + 3), 0);  // start + 2 -> count, then offset
  for (const LiveInterval& iv : intervals) next[static_cast<size_t>(iv.start + 2)]++;
  for (size_t i = 1; i < next.size(); i++) next[i] += next[i - 1];
  std::vector<int> order(intervals.size());
  for (size_t i = 0; i < intervals.size(); i++) {
    order[static_cast<size_t>(next[static_cast<size_t>(intervals[i].start + 1)]++)] =
        static_cast<int>(i);
  }
  return order;
}

}  // namespace

Allocation AllocateRegisters(const Function& f, const RegisterFile& regs) {
  Allocation a;
  const size_t nv = f.vreg_types.size();
  a.where.assign(nv, Location{});
  a.crosses_call.assign(nv, false);
  const std::vector<LiveInterval> intervals = ComputeLiveIntervals(f);
  LinearScan scan(f, regs, a, intervals);
  for (int i : ByStart(intervals)) scan.Allocate(intervals[static_cast<size_t>(i)]);
  scan.ReportCalleeSaved();
  return a;
}

}  // namespace a64jit::lir
