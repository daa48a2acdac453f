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

namespace {

constexpr int kNoBlock = -1;
constexpr int kManyBlocks = -2;

// Dense numbers for the vregs whose liveness crosses a block boundary: defined in more than
// one block, used outside their defining block, or used in it before being defined (a
// value carried around a loop). Every other vreg lives within one block, and its interval
// is just its first and last mention; only these need the dataflow. In compiled Python
// most vregs are temporaries of one bytecode, so this keeps the bit sets (blocks x vregs,
// four of them) a small fraction of their full size, in time and in peak memory.
std::vector<int> CrossBlockVregs(const Function& f, int* count) {
  const size_t nv = f.vreg_types.size();
  std::vector<int> home(nv, kNoBlock);  // the one block that defines it, or kManyBlocks
  std::vector<bool> crosses(nv, false);
  for (int p : f.params) home[static_cast<size_t>(p)] = 0;  // defined on entry to block 0
  for (size_t b = 0; b < f.blocks.size(); b++) {
    const int block = static_cast<int>(b);
    for (const Instr& in : f.blocks[b].instrs) {
      ForEachUse(in, [&](int v) {
        const size_t i = static_cast<size_t>(v);
        if (home[i] != block) crosses[i] = true;  // used before (or without) a def here
      });
      if (in.dst < 0) continue;
      int& h = home[static_cast<size_t>(in.dst)];
      if (h != kNoBlock && h != block) crosses[static_cast<size_t>(in.dst)] = true;
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

}  // namespace

std::vector<LiveInterval> ComputeLiveIntervals(const Function& f) {
  const size_t nb = f.blocks.size();
  int ng = 0;
  const std::vector<int> global = CrossBlockVregs(f, &ng);
  std::vector<int> vreg_of(static_cast<size_t>(ng));
  for (size_t v = 0; v < global.size(); v++) {
    if (global[v] >= 0) vreg_of[static_cast<size_t>(global[v])] = static_cast<int>(v);
  }
  const size_t bits = static_cast<size_t>(ng);
  std::vector<BitSet> use(nb, BitSet(bits)), def(nb, BitSet(bits)), live_in(nb, BitSet(bits)),
      live_out(nb, BitSet(bits));
  std::vector<int> first(nb), last(nb);  // instruction numbers of each block
  int k = 0;
  for (size_t b = 0; b < nb; b++) {
    first[b] = k;
    for (const Instr& in : f.blocks[b].instrs) {
      ForEachUse(in, [&](int v) {
        const int g = global[static_cast<size_t>(v)];
        if (g >= 0 && !def[b].Get(static_cast<size_t>(g))) use[b].Set(static_cast<size_t>(g));
      });
      if (in.dst >= 0 && global[static_cast<size_t>(in.dst)] >= 0) {
        def[b].Set(static_cast<size_t>(global[static_cast<size_t>(in.dst)]));
      }
      k++;
    }
    last[b] = k - 1;
  }
  // Backward dataflow to a fixed point: in = use | (out - def), out = union of succ ins.
  BitSet out(bits), in(bits);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t bi = nb; bi-- > 0;) {
      const Instr& term = f.blocks[bi].instrs.back();
      std::fill(out.words().begin(), out.words().end(), 0);
      if (term.op == Op::kJmp || term.op == Op::kBr) {
        out.Union(live_in[static_cast<size_t>(term.targets[0])]);
        if (term.op == Op::kBr) out.Union(live_in[static_cast<size_t>(term.targets[1])]);
      }
      live_out[bi] = out;
      in = out;
      auto& iw = in.words();
      auto& dw = def[bi].words();
      for (size_t w = 0; w < iw.size(); w++) iw[w] &= ~dw[w];
      in.Union(use[bi]);
      changed |= live_in[bi].Union(in);
    }
  }
  const size_t nv = f.vreg_types.size();
  std::vector<int> start(nv, INT_MAX), end(nv, INT_MIN);
  auto cover = [&](size_t v, int pos) {
    start[v] = std::min(start[v], pos);
    end[v] = std::max(end[v], pos);
  };
  for (int p : f.params) cover(static_cast<size_t>(p), -1);
  k = 0;
  for (size_t b = 0; b < nb; b++) {
    live_in[b].ForEach([&](size_t g) { cover(static_cast<size_t>(vreg_of[g]), 2 * first[b]); });
    live_out[b].ForEach([&](size_t g) { cover(static_cast<size_t>(vreg_of[g]), 2 * last[b] + 1); });
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

namespace {

// General and f64 registers share one index space so that one table marks both busy:
// register r of class c is slot c * kRegsPerClass + r (aarch64 has 32 of each).
constexpr int kRegsPerClass = 32;
constexpr int kRegClasses = 2;  // 0: general, 1: f64

// Positions (2k for instruction k) of the calls, ascending.
std::vector<int> CallPositions(const Function& f) {
  std::vector<int> calls;
  int k = 0;
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (in.op == Op::kCall) calls.push_back(2 * k);
      k++;
    }
  }
  return calls;
}

// Instructions mentioning each vreg: the spill heuristic's weight.
std::vector<int> UseCounts(const Function& f) {
  std::vector<int> uses(f.vreg_types.size(), 0);
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      ForEachUse(in, [&](int v) { uses[static_cast<size_t>(v)]++; });
      if (in.dst >= 0) uses[static_cast<size_t>(in.dst)]++;
    }
  }
  return uses;
}

// Preferred registers (RegisterFile): arguments first, then call results and returns.
std::vector<int> RegisterHints(const Function& f, const RegisterFile& regs) {
  std::vector<int> hint(f.vreg_types.size(), -1);
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
  return hint;
}

bool Contains(const std::vector<int>& set, int r) {
  return std::find(set.begin(), set.end(), r) != set.end();
}

// The linear scan proper: intervals in order of their start, each given a free register or,
// when none is free, the register of the least valuable active interval (which is spilled)
// or a spill slot.
class LinearScan {
 public:
  LinearScan(const Function& f, const RegisterFile& regs, Allocation& a)
      : f_(f),
        regs_(regs),
        a_(a),
        call_positions_(CallPositions(f)),
        uses_(UseCounts(f)),
        hint_(RegisterHints(f, regs)),
        reg_busy_(kRegClasses * kRegsPerClass, false),
        callee_used_(kRegClasses * kRegsPerClass, false) {}

  void Allocate(const LiveInterval& iv) {
    const size_t v = static_cast<size_t>(iv.vreg);
    const bool fp = IsFloat(f_.TypeOf(iv.vreg));
    const Class cls{fp ? kRegsPerClass : 0, fp ? regs_.fp_callee_saved : regs_.gp_callee_saved,
                    fp ? regs_.fp_caller_saved : regs_.gp_caller_saved};
    ExpireBefore(iv.start);
    const bool crosses = CrossesCall(iv);
    a_.crosses_call[v] = crosses;
    int chosen = PickFree(cls, hint_[v], crosses);
    if (chosen < 0) chosen = Steal(iv, cls, crosses);
    if (chosen < 0) {
      a_.where[v] = Location{Location::Kind::kSpill, a_.spill_slots++};
      return;
    }
    reg_busy_[static_cast<size_t>(chosen)] = true;
    a_.where[v] = Location{Location::Kind::kReg, chosen - cls.base};
    active_.push_back(Active{iv.end, iv.vreg, chosen, iv.start});
    if (Contains(cls.callee, chosen - cls.base)) callee_used_[static_cast<size_t>(chosen)] = true;
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
  // An interval holding a register; `reg` is a slot of reg_busy_.
  struct Active {
    int end, vreg, reg, start;
  };
  // The register class of the interval being allocated: its first slot in reg_busy_, and
  // its callee- and caller-saved registers (register numbers) in order of preference.
  struct Class {
    int base;
    const std::vector<int>& callee;
    const std::vector<int>& caller;
  };

  // Frees the registers of intervals that ended before `start`.
  void ExpireBefore(int start) {
    active_.erase(std::remove_if(active_.begin(), active_.end(),
                                 [&](const Active& x) {
                                   if (x.end < start) {
                                     reg_busy_[static_cast<size_t>(x.reg)] = false;
                                     return true;
                                   }
                                   return false;
                                 }),
                  active_.end());
  }

  // A call inside the interval (not at its last use) would clobber a caller-saved register.
  bool CrossesCall(const LiveInterval& iv) const {
    auto next_call = std::upper_bound(call_positions_.begin(), call_positions_.end(), iv.start);
    return next_call != call_positions_.end() && *next_call + 1 < iv.end;
  }

  // A free register slot: the hint if it is free and caller-saved (and no call is crossed),
  // else the first free caller-saved one (no call crossed), else the first free callee-saved
  // one; -1 if none.
  int PickFree(const Class& cls, int hint, bool crosses) const {
    if (!crosses && hint >= 0 && !reg_busy_[static_cast<size_t>(cls.base + hint)] &&
        Contains(cls.caller, hint)) {
      return cls.base + hint;
    }
    int chosen = -1;
    if (!crosses) chosen = FirstFree(cls, cls.caller);
    if (chosen < 0) chosen = FirstFree(cls, cls.callee);
    return chosen;
  }

  int FirstFree(const Class& cls, const std::vector<int>& set) const {
    for (int r : set) {
      if (!reg_busy_[static_cast<size_t>(cls.base + r)]) return cls.base + r;
    }
    return -1;
  }

  // No free register: spill whichever of this interval and the active ones it could take a
  // register from is used least per position it covers (a long-lived value used everywhere,
  // like a frame pointer, keeps its register; a long-lived rarely used one goes to memory).
  // Returns the register slot taken from the spilled active interval, or -1 if `iv` itself
  // is the one to spill.
  int Steal(const LiveInterval& iv, const Class& cls, bool crosses) {
    auto allowed = [&](int reg) {
      const int r = reg - cls.base;
      if (reg / kRegsPerClass != cls.base / kRegsPerClass) return false;
      if (Contains(cls.callee, r)) return true;
      return !crosses && Contains(cls.caller, r);
    };
    auto weight = [&](int vreg, int start, int end) {
      return static_cast<double>(uses_[static_cast<size_t>(vreg)]) / (end - start + 2);
    };
    int victim = -1;
    double victim_weight = 0;
    for (size_t i = 0; i < active_.size(); i++) {
      if (!allowed(active_[i].reg)) continue;
      const double w = weight(active_[i].vreg, active_[i].start, active_[i].end);
      if (victim < 0 || w < victim_weight) {
        victim = static_cast<int>(i);
        victim_weight = w;
      }
    }
    if (victim < 0 || !(victim_weight < weight(iv.vreg, iv.start, iv.end))) return -1;
    Active stolen = active_[static_cast<size_t>(victim)];
    a_.where[static_cast<size_t>(stolen.vreg)] = Location{Location::Kind::kSpill, a_.spill_slots++};
    active_.erase(active_.begin() + victim);
    return stolen.reg;
  }

  const Function& f_;
  const RegisterFile& regs_;
  Allocation& a_;
  const std::vector<int> call_positions_;
  const std::vector<int> uses_;
  const std::vector<int> hint_;
  std::vector<Active> active_;
  std::vector<bool> reg_busy_;     // per register slot
  std::vector<bool> callee_used_;  // per register slot
};

}  // namespace

Allocation AllocateRegisters(const Function& f, const RegisterFile& regs) {
  Allocation a;
  const size_t nv = f.vreg_types.size();
  a.where.assign(nv, Location{});
  a.crosses_call.assign(nv, false);
  std::vector<LiveInterval> intervals = ComputeLiveIntervals(f);
  std::stable_sort(intervals.begin(), intervals.end(),
                   [](const LiveInterval& x, const LiveInterval& y) { return x.start < y.start; });
  LinearScan scan(f, regs, a);
  for (const LiveInterval& iv : intervals) scan.Allocate(iv);
  scan.ReportCalleeSaved();
  return a;
}

}  // namespace a64jit::lir
