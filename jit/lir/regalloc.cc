#include "jit/lir/regalloc.h"

#include <algorithm>
#include <climits>

namespace a64jit::lir {
namespace {

class BitSet {
 public:
  explicit BitSet(size_t n = 0) : words_((n + 63) / 64, 0) {}
  void Set(size_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  void Clear(size_t i) { words_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
  bool Get(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  // this |= other; returns true if anything changed.
  bool Union(const BitSet& other) {
    bool changed = false;
    for (size_t w = 0; w < words_.size(); w++) {
      uint64_t v = words_[w] | other.words_[w];
      changed |= v != words_[w];
      words_[w] = v;
    }
    return changed;
  }
  template <typename Fn>
  void ForEach(Fn fn) const {
    for (size_t w = 0; w < words_.size(); w++) {
      for (uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) {
        fn(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
      }
    }
  }
  std::vector<uint64_t>& words() { return words_; }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace

std::vector<LiveInterval> ComputeLiveIntervals(const Function& f) {
  const size_t nv = f.vreg_types.size();
  const size_t nb = f.blocks.size();
  std::vector<BitSet> use(nb, BitSet(nv)), def(nb, BitSet(nv)), live_in(nb, BitSet(nv)),
      live_out(nb, BitSet(nv));
  std::vector<int> first(nb), last(nb);  // instruction numbers of each block
  int k = 0;
  for (size_t b = 0; b < nb; b++) {
    first[b] = k;
    for (const Instr& in : f.blocks[b].instrs) {
      ForEachUse(in, [&](int v) {
        if (!def[b].Get(static_cast<size_t>(v))) use[b].Set(static_cast<size_t>(v));
      });
      if (in.dst >= 0) def[b].Set(static_cast<size_t>(in.dst));
      k++;
    }
    last[b] = k - 1;
  }
  // Backward dataflow to a fixed point: in = use | (out - def), out = union of succ ins.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t bi = nb; bi-- > 0;) {
      const Instr& term = f.blocks[bi].instrs.back();
      BitSet out(nv);
      if (term.op == Op::kJmp || term.op == Op::kBr) {
        out.Union(live_in[static_cast<size_t>(term.targets[0])]);
        if (term.op == Op::kBr) out.Union(live_in[static_cast<size_t>(term.targets[1])]);
      }
      live_out[bi] = out;
      BitSet in = out;
      auto& iw = in.words();
      auto& dw = def[bi].words();
      for (size_t w = 0; w < iw.size(); w++) iw[w] &= ~dw[w];
      in.Union(use[bi]);
      changed |= live_in[bi].Union(in);
    }
  }
  std::vector<int> start(nv, INT_MAX), end(nv, INT_MIN);
  auto cover = [&](size_t v, int pos) {
    start[v] = std::min(start[v], pos);
    end[v] = std::max(end[v], pos);
  };
  for (int p : f.params) cover(static_cast<size_t>(p), -1);
  k = 0;
  for (size_t b = 0; b < nb; b++) {
    live_in[b].ForEach([&](size_t v) { cover(v, 2 * first[b]); });
    live_out[b].ForEach([&](size_t v) { cover(v, 2 * last[b] + 1); });
    for (const Instr& in : f.blocks[b].instrs) {
      ForEachUse(in, [&](int v) { cover(static_cast<size_t>(v), 2 * k); });
      if (in.dst >= 0) cover(static_cast<size_t>(in.dst), 2 * k + 1);
      k++;
    }
  }
  std::vector<LiveInterval> intervals;
  for (size_t v = 0; v < nv; v++) {
    if (start[v] != INT_MAX)
      intervals.push_back(LiveInterval{static_cast<int>(v), start[v], end[v]});
  }
  return intervals;
}

Allocation AllocateRegisters(const Function& f, const RegisterFile& regs) {
  Allocation a;
  const size_t nv = f.vreg_types.size();
  a.where.assign(nv, Location{});
  a.crosses_call.assign(nv, false);

  std::vector<int> call_positions;
  int k = 0;
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (in.op == Op::kCall) call_positions.push_back(2 * k);
      k++;
    }
  }

  std::vector<LiveInterval> intervals = ComputeLiveIntervals(f);
  std::stable_sort(intervals.begin(), intervals.end(),
                   [](const LiveInterval& x, const LiveInterval& y) { return x.start < y.start; });

  struct Active {
    int end, vreg, reg, start;
  };
  // Instructions mentioning each vreg: the spill heuristic's weight.
  std::vector<int> uses(nv, 0);
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      ForEachUse(in, [&](int v) { uses[static_cast<size_t>(v)]++; });
      if (in.dst >= 0) uses[static_cast<size_t>(in.dst)]++;
    }
  }
  // Preferred registers (RegisterFile): arguments first, then call results and returns.
  std::vector<int> hint(nv, -1);
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (in.op != Op::kCall) continue;
      size_t next_gp = 0, next_fp = 0;
      for (const Operand& o : in.args) {
        if (!o.is_vreg()) continue;
        const bool fp = IsFloat(f.TypeOf(o.vreg));
        const std::vector<int>& arg_regs = fp ? regs.fp_args : regs.gp_args;
        size_t& next = fp ? next_fp : next_gp;
        if (next < arg_regs.size() && hint[static_cast<size_t>(o.vreg)] < 0) {
          hint[static_cast<size_t>(o.vreg)] = arg_regs[next];
        }
        next++;
      }
    }
  }
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      int v = -1;
      if (in.op == Op::kCall && in.dst >= 0) v = in.dst;
      if (in.op == Op::kRet && !in.args.empty() && in.args[0].is_vreg()) v = in.args[0].vreg;
      if (v < 0 || hint[static_cast<size_t>(v)] >= 0) continue;
      hint[static_cast<size_t>(v)] = IsFloat(f.TypeOf(v)) ? regs.fp_result : regs.gp_result;
    }
  }

  std::vector<Active> active;
  std::vector<bool> reg_busy(64, false);  // indexed by class * 32 + register number
  std::vector<bool> callee_used(64, false);

  for (const LiveInterval& iv : intervals) {
    const size_t v = static_cast<size_t>(iv.vreg);
    const bool fp = IsFloat(f.TypeOf(iv.vreg));
    const int cls = fp ? 32 : 0;
    // Expire intervals that ended before this one starts.
    active.erase(std::remove_if(active.begin(), active.end(),
                                [&](const Active& x) {
                                  if (x.end < iv.start) {
                                    reg_busy[static_cast<size_t>(x.reg)] = false;
                                    return true;
                                  }
                                  return false;
                                }),
                 active.end());
    auto next_call = std::upper_bound(call_positions.begin(), call_positions.end(), iv.start);
    const bool crosses = next_call != call_positions.end() && *next_call + 1 < iv.end;
    a.crosses_call[v] = crosses;

    const std::vector<int>& callee = fp ? regs.fp_callee_saved : regs.gp_callee_saved;
    const std::vector<int>& caller = fp ? regs.fp_caller_saved : regs.gp_caller_saved;
    int chosen = -1;
    auto try_pick = [&](const std::vector<int>& set) {
      for (int r : set) {
        if (!reg_busy[static_cast<size_t>(cls + r)]) {
          chosen = cls + r;
          return;
        }
      }
    };
    const int h = hint[v];
    if (!crosses && h >= 0 && !reg_busy[static_cast<size_t>(cls + h)] &&
        std::find(caller.begin(), caller.end(), h) != caller.end()) {
      chosen = cls + h;
    }
    if (chosen < 0 && !crosses) try_pick(caller);
    if (chosen < 0) try_pick(callee);

    if (chosen < 0) {
      // No free register: spill whichever of this interval and the active ones it could
      // take a register from is used least per position it covers (a long-lived value used
      // everywhere, like a frame pointer, keeps its register; a long-lived rarely used one
      // goes to memory).
      auto allowed = [&](int reg) {
        const int r = reg - cls;
        if (reg / 32 != cls / 32) return false;
        if (std::find(callee.begin(), callee.end(), r) != callee.end()) return true;
        return !crosses && std::find(caller.begin(), caller.end(), r) != caller.end();
      };
      auto weight = [&](int vreg, int start, int end) {
        return static_cast<double>(uses[static_cast<size_t>(vreg)]) / (end - start + 2);
      };
      int victim = -1;
      double victim_weight = 0;
      for (size_t i = 0; i < active.size(); i++) {
        if (!allowed(active[i].reg)) continue;
        const double w = weight(active[i].vreg, active[i].start, active[i].end);
        if (victim < 0 || w < victim_weight) {
          victim = static_cast<int>(i);
          victim_weight = w;
        }
      }
      if (victim >= 0 && victim_weight < weight(iv.vreg, iv.start, iv.end)) {
        Active stolen = active[static_cast<size_t>(victim)];
        a.where[static_cast<size_t>(stolen.vreg)] =
            Location{Location::Kind::kSpill, a.spill_slots++};
        active.erase(active.begin() + victim);
        chosen = stolen.reg;
      } else {
        a.where[v] = Location{Location::Kind::kSpill, a.spill_slots++};
        continue;
      }
    }
    reg_busy[static_cast<size_t>(chosen)] = true;
    a.where[v] = Location{Location::Kind::kReg, chosen - cls};
    active.push_back(Active{iv.end, iv.vreg, chosen, iv.start});
    const int r = chosen - cls;
    if (std::find(callee.begin(), callee.end(), r) != callee.end()) {
      callee_used[static_cast<size_t>(chosen)] = true;
    }
  }
  for (int r : regs.gp_callee_saved) {
    if (callee_used[static_cast<size_t>(r)]) a.used_gp_callee_saved.push_back(r);
  }
  for (int r : regs.fp_callee_saved) {
    if (callee_used[static_cast<size_t>(32 + r)]) a.used_fp_callee_saved.push_back(r);
  }
  std::sort(a.used_gp_callee_saved.begin(), a.used_gp_callee_saved.end());
  std::sort(a.used_fp_callee_saved.begin(), a.used_fp_callee_saved.end());
  return a;
}

}  // namespace a64jit::lir
