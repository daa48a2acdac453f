#include "difftest/lir/generator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace a64jit::difftest {
namespace {

using lir::Instr;
using lir::Op;
using lir::Operand;
using lir::Type;

constexpr size_t kMemorySize = 65536;
constexpr int64_t kMaxIndexBytes = 63 * 8;  // indices are masked to 0..63
constexpr Type kIntTypes[] = {Type::kI8, Type::kI16, Type::kI32, Type::kI64};

class Generator {
 public:
  Generator(uint64_t seed, const GenOptions& options) : rng_(seed), options_(options) {}

  GeneratedProgram Run() {
    GeneratedProgram p;
    const bool many = Chance(options_.p_many_args);
    if (many) p.module.functions.push_back(ManyArgsCallee());
    p.module.functions.push_back(Main(many));
    p.input.entry = "f";
    p.input.memory_size = kMemorySize;
    p.input.memory_seed = Next();
    p.input.args = {lir::Value{InterestingInt()}, lir::Value{InterestingInt()},
                    lir::Value::Double(InterestingDouble()),
                    lir::Value::Double(InterestingDouble())};
    return p;
  }

 private:
  // ---- randomness ---------------------------------------------------------------------

  uint64_t Next() { return rng_(); }
  int Below(int n) { return static_cast<int>(Next() % static_cast<uint64_t>(n)); }
  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  template <typename T, size_t N>
  const T& Pick(const T (&a)[N]) {
    return a[Below(static_cast<int>(N))];
  }

  uint64_t InterestingInt() {
    static const uint64_t kValues[] = {0,
                                       1,
                                       2,
                                       3,
                                       7,
                                       0x7f,
                                       0x80,
                                       0xff,
                                       0x100,
                                       0x7fff,
                                       0x8000,
                                       0xffff,
                                       4095,
                                       4096,
                                       4097,
                                       0xfff000,
                                       0xfff001,
                                       0xffffff,
                                       0x1000000,
                                       0x7fffffff,
                                       0x80000000,
                                       0xffffffff,
                                       0x100000000ull,
                                       0x5555555555555555ull,
                                       0x5555555555555554ull,
                                       0xff00ff00ff00ff00ull,
                                       0xff00ff00ff00ff01ull,
                                       0x00ff00ff00ff00ffull,
                                       0x7fffffffffffffffull,
                                       0x8000000000000000ull,
                                       ~0ull,
                                       ~0ull - 1,
                                       0xfffffffffffff000ull,
                                       0x123456789abcdefull,
                                       0xffff0000ffff0000ull,
                                       0x0000ffffffff0000ull,
                                       63,
                                       64,
                                       65,
                                       31,
                                       32,
                                       33};
    switch (Below(4)) {
      case 0:
        return Pick(kValues);
      case 1: {  // +-2^k +-1
        const uint64_t p = uint64_t{1} << Below(64);
        const uint64_t v = Chance(0.5) ? p + 1 : p - 1;
        return Chance(0.5) ? v : 0 - v;
      }
      case 2:
        return static_cast<uint64_t>(Below(200)) - 100;
      default:
        return Next();
    }
  }

  double InterestingDouble() {
    static const double kValues[] = {0.0,
                                     -0.0,
                                     1.0,
                                     -1.0,
                                     0.5,
                                     1.5,
                                     3.0,
                                     1e-310,
                                     -1e-310,
                                     1e300,
                                     -1e300,
                                     9.2233720368547758e18,
                                     -9.2233720368547758e18,
                                     2147483647.5,
                                     -2147483648.5,
                                     1.0 / 3.0,
                                     123456.789,
                                     HUGE_VAL,
                                     -HUGE_VAL};
    if (Chance(0.05)) return std::nan("");
    if (Chance(0.7)) return Pick(kValues);
    return static_cast<double>(static_cast<int64_t>(Next())) / static_cast<double>(1 + Below(1000));
  }

  // ---- function building --------------------------------------------------------------

  int NewBlock() {
    f_->blocks.emplace_back();
    return static_cast<int>(f_->blocks.size()) - 1;
  }
  int Emit(Instr in) {
    f_->blocks[static_cast<size_t>(block_)].instrs.push_back(std::move(in));
    return f_->blocks[static_cast<size_t>(block_)].instrs.back().dst;
  }
  Instr Make(Op op, Type t, lir::Operands args) {
    Instr in;
    in.op = op;
    in.dst = f_->NewVReg(t);
    in.args = std::move(args);
    return in;
  }
  void Terminate(Instr in) { f_->blocks[static_cast<size_t>(block_)].instrs.push_back(in); }
  void Jump(int target) {
    Instr j;
    j.op = Op::kJmp;
    j.targets[0] = target;
    Terminate(j);
  }

  std::vector<int>& Pool(Type t) { return pools_[static_cast<int>(t)]; }
  void Add(int v) { Pool(f_->TypeOf(v)).push_back(v); }
  int PickValue(Type t) {
    std::vector<int>& p = Pool(t);
    return p[static_cast<size_t>(Below(static_cast<int>(p.size())))];
  }
  Type IntType() { return Pick(kIntTypes); }

  Operand IntOperand(Type t) {
    return Chance(0.35) ? Operand::Imm(static_cast<int64_t>(InterestingInt()))
                        : Operand::VReg(PickValue(t));
  }
  Operand FloatOperand() {
    return Chance(0.25) ? Operand::FImm(InterestingDouble()) : Operand::VReg(PickValue(Type::kF64));
  }

  // ---- statements ---------------------------------------------------------------------

  void IntBinary() {
    static const Op kOps[] = {Op::kAdd,  Op::kSub,  Op::kMul, Op::kSDiv, Op::kUDiv,
                              Op::kSRem, Op::kURem, Op::kAnd, Op::kOr,   Op::kXor,
                              Op::kShl,  Op::kLShr, Op::kAShr};
    const Type t = IntType();
    Operand a = Chance(0.1) ? IntOperand(t) : Operand::VReg(PickValue(t));
    Add(Emit(Make(Pick(kOps), t, {a, IntOperand(t)})));
  }

  void Unary() {
    const Type t = IntType();
    Add(Emit(Make(Chance(0.5) ? Op::kNot : Op::kNeg, t, {Operand::VReg(PickValue(t))})));
  }

  void Convert() {
    const Type from = IntType(), to = IntType();
    const int bf = lir::TypeBits(from), bt = lir::TypeBits(to);
    Op op;
    if (bt < bf) {
      op = Op::kTrunc;
    } else if (bt > bf) {
      op = Chance(0.5) ? Op::kSExt : Op::kZExt;
    } else {
      static const Op kSame[] = {Op::kSExt, Op::kZExt, Op::kTrunc};
      op = Pick(kSame);
    }
    Add(Emit(Make(op, to, {Operand::VReg(PickValue(from))})));
  }

  void Compare() {
    const Type t = IntType();
    Instr in = Make(Op::kCmp, IntType(), {Operand::VReg(PickValue(t)), IntOperand(t)});
    in.cond = static_cast<lir::Cond>(Below(10));
    in.cmp_type = t;
    Add(Emit(in));
  }

  void Select() {
    const Type t = Chance(0.2) ? Type::kF64 : IntType();
    const Operand a = lir::IsFloat(t) ? FloatOperand() : IntOperand(t);
    const Operand b = lir::IsFloat(t) ? FloatOperand() : IntOperand(t);
    Add(Emit(Make(Op::kSelect, t, {Operand::VReg(PickValue(IntType())), a, b})));
  }

  void Float() {
    switch (Below(4)) {
      case 0:
      case 1: {
        static const Op kOps[] = {Op::kFAdd, Op::kFSub, Op::kFMul, Op::kFDiv};
        Add(Emit(
            Make(Pick(kOps), Type::kF64, {Operand::VReg(PickValue(Type::kF64)), FloatOperand()})));
        break;
      }
      case 2:
        Add(Emit(Make(Op::kSIToF, Type::kF64, {Operand::VReg(PickValue(IntType()))})));
        break;
      default:
        if (Chance(0.3)) {
          Add(Emit(Make(Op::kFNeg, Type::kF64, {Operand::VReg(PickValue(Type::kF64))})));
        } else {
          Add(Emit(Make(Op::kFToSI, IntType(), {Operand::VReg(PickValue(Type::kF64))})));
        }
        break;
    }
  }

  // An address in the memory buffer for an access of `size` bytes.
  void MemoryAddress(Instr& in, int size) {
    in.base = Operand::VReg(mem_);
    int64_t max_disp = static_cast<int64_t>(kMemorySize) - size;
    if (Chance(0.5)) {
      // index = value & 63, times a scale
      Instr mask =
          Make(Op::kAnd, Type::kI64, {Operand::VReg(PickValue(Type::kI64)), Operand::Imm(63)});
      in.index = Operand::VReg(Emit(mask));
      static const int kScales[] = {1, 2, 4, 8};
      in.scale = Pick(kScales);
      max_disp -= kMaxIndexBytes;
    }
    static const int64_t kDisps[] = {0,    1,    8,     255,   256,   4095,  4096,
                                     4097, 8190, 32760, 32768, 32769, 40000, 65000};
    int64_t d = Chance(0.6) ? Pick(kDisps) : static_cast<int64_t>(Next() % 65536);
    if (Chance(0.5)) d -= d % size;
    in.disp = std::min(d, max_disp);
  }

  void Load() {
    const Type t = Chance(0.2) ? Type::kF64 : IntType();
    Instr in = Make(Op::kLoad, t, {});
    MemoryAddress(in, lir::TypeBits(t) / 8);
    Add(Emit(in));
  }

  void Store() {
    const Type t = Chance(0.2) ? Type::kF64 : IntType();
    Instr in;
    in.op = Op::kStore;
    in.store_type = t;
    in.args.push_back(lir::IsFloat(t) ? FloatOperand() : IntOperand(t));
    MemoryAddress(in, lir::TypeBits(t) / 8);
    Emit(in);
  }

  // Store to a stack slot and load it back (possibly later): large frame offsets.
  void SlotRoundTrip() {
    if (f_->slots.empty()) return;
    const int slot = Below(static_cast<int>(f_->slots.size()));
    const int64_t size = f_->slots[static_cast<size_t>(slot)].size;
    const Type t = Chance(0.2) ? Type::kF64 : IntType();
    const int width = lir::TypeBits(t) / 8;
    Instr addr = Make(Op::kSlotAddr, Type::kPtr, {});
    addr.slot = slot;
    const int p = Emit(addr);
    const int64_t off = static_cast<int64_t>(Next() % static_cast<uint64_t>(size - width + 1));
    Instr st;
    st.op = Op::kStore;
    st.store_type = t;
    st.args.push_back(Operand::VReg(PickValue(t)));
    st.base = Operand::VReg(p);
    st.disp = off;
    Emit(st);
    if (Chance(0.5)) Statement(0);  // something in between
    Instr ld = Make(Op::kLoad, t, {});
    ld.base = Operand::VReg(p);
    ld.disp = off;
    Add(Emit(ld));
  }

  void Accumulate() {
    const int acc = accs_[static_cast<size_t>(Below(static_cast<int>(accs_.size())))];
    Instr in;
    static const Op kOps[] = {Op::kAdd, Op::kXor, Op::kSub, Op::kMul};
    in.op = Pick(kOps);
    in.dst = acc;
    Instr src = Make(Op::kSExt, Type::kI64, {Operand::VReg(PickValue(IntType()))});
    in.args = {Operand::VReg(acc), Operand::VReg(Emit(src))};
    Emit(in);
  }

  void Call() {
    Instr in;
    in.op = Op::kCall;
    auto i64 = [&] { return Operand::VReg(PickValue(Type::kI64)); };
    auto f64 = [&] { return Operand::VReg(PickValue(Type::kF64)); };
    switch (Below(many_ ? 5 : 4)) {
      case 0:
        in.callee = "h_mix3";
        in.args = {i64(), i64(), i64()};
        in.dst = f_->NewVReg(Type::kI64);
        break;
      case 1:
        in.callee = "h_fmix";
        in.args = {f64(), f64(), i64()};
        in.dst = f_->NewVReg(Type::kF64);
        break;
      case 2:
        in.callee = "h_wide";
        for (int i = 0; i < 8; i++) in.args.push_back(i64());
        for (int i = 0; i < 8; i++) in.args.push_back(f64());
        // Interleaved kinds: integer and f64 arguments are assigned registers independently.
        std::shuffle(in.args.begin(), in.args.end(), rng_);
        in.dst = f_->NewVReg(Type::kI64);
        break;
      case 3:
        in.callee = "h_void";
        in.args = {Operand::VReg(mem_)};
        break;
      default:
        in.callee = "many";
        for (int i = 0; i < 12; i++) in.args.push_back(i64());
        for (int i = 0; i < 10; i++) in.args.push_back(f64());
        in.dst = f_->NewVReg(Type::kI64);
        break;
    }
    const int d = Emit(in);
    if (d >= 0) Add(d);
  }

  void Diamond(int depth) {
    Instr br;
    br.op = Op::kBr;
    if (Chance(0.3)) {
      br.br_on_value = true;
      br.args = {Operand::VReg(PickValue(IntType()))};
    } else {
      const Type t = IntType();
      br.cmp_type = t;
      br.cond = static_cast<lir::Cond>(Below(10));
      br.args = {Operand::VReg(PickValue(t)), IntOperand(t)};
      if (Chance(0.3)) {  // the either form: cmp (or tst), ccmp, b.cond
        br.cond2 = static_cast<lir::Cond>(Below(10));
        const Type t2 = lir::TypeBits(t) >= 32 && Chance(0.5) ? t
                        : Chance(0.5)                         ? Type::kI32
                                                              : Type::kI64;
        br.cmp_type2 = t2;
        br.args.push_back(Operand::VReg(PickValue(t2)));
        // Sometimes the first compare's immediate again (codegen reuses its register).
        br.args.push_back(br.args[1].is_imm() && t2 == t && Chance(0.5) ? br.args[1]
                                                                        : IntOperand(t2));
      }
    }
    const int then_b = NewBlock(), else_b = NewBlock(), join = NewBlock();
    br.targets[0] = then_b;
    br.targets[1] = else_b;
    Terminate(br);
    for (int arm : {then_b, else_b}) {
      block_ = arm;
      Scope scope(this);
      if (arm == then_b && Chance(options_.p_long_branch)) {
        Instr pad;
        pad.op = Op::kPad;
        pad.count = 270000;  // 1.08 MB: both branches around it need long forms
        Emit(pad);
      }
      Region(depth + 1, 1 + Below(4));
      if (arm == then_b && Chance(options_.p_early_return)) {
        Return();
      } else {
        Jump(join);
      }
    }
    block_ = join;
  }

  // A `ret` of the function's type before its end: of a value, or for an int, of a constant
  // (code generation places the epilogue after the last block that returns a register).
  void Return() {
    Instr ret;
    ret.op = Op::kRet;
    const Type t = *f_->ret;
    ret.args = {t != Type::kF64 && Chance(0.3) ? IntOperand(t) : Operand::VReg(PickValue(t))};
    Terminate(ret);
  }

  // `counter` += 1.
  void CountUp(int counter) {
    Instr inc;
    inc.op = Op::kAdd;
    inc.dst = counter;
    inc.args = {Operand::VReg(counter), Operand::Imm(1)};
    Emit(inc);
  }

  // br.i64 `cond` `counter`, `trips`, `taken`, `other`.
  void BranchOnCount(lir::Cond cond, int counter, int trips, int taken, int other) {
    Instr br;
    br.op = Op::kBr;
    br.cmp_type = Type::kI64;
    br.cond = cond;
    br.args = {Operand::VReg(counter), Operand::Imm(trips)};
    br.targets[0] = taken;
    br.targets[1] = other;
    Terminate(br);
  }

  // A loop tested at its bottom, whose exit does not follow the test (a block that is never
  // run comes between): the branch has a backward and a forward target, neither next (code
  // generation branches backward and jumps forward then).
  void BottomTestedLoop(int depth, int counter, int trips) {
    const int body = NewBlock();
    Jump(body);
    block_ = body;
    Scope scope(this);
    Region(depth + 1, 1 + Below(5));
    CountUp(counter);
    const int between = NewBlock(), exit = NewBlock();
    BranchOnCount(lir::Cond::kSge, counter, trips, exit, body);
    block_ = between;
    Jump(exit);
    block_ = exit;
  }

  void Loop(int depth) {
    const int trips = 1 + Below(4);
    const int counter = Emit(Make(Op::kMov, Type::kI64, {Operand::Imm(0)}));
    if (Chance(0.5)) return BottomTestedLoop(depth, counter, trips);
    const int head = NewBlock(), body = NewBlock(), exit = NewBlock();
    Jump(head);
    block_ = head;
    BranchOnCount(lir::Cond::kSlt, counter, trips, body, exit);
    block_ = body;
    {
      Scope scope(this);
      Region(depth + 1, 1 + Below(5));
      CountUp(counter);
      Jump(head);
    }
    block_ = exit;
  }

  // Values defined inside a region do not dominate the code after it.
  struct Scope {
    explicit Scope(Generator* g) : g(g) {
      for (int i = 0; i < 6; i++) sizes[i] = g->pools_[i].size();
    }
    ~Scope() {
      for (int i = 0; i < 6; i++) g->pools_[i].resize(sizes[i]);
    }
    Generator* g;
    size_t sizes[6];
  };

  void Statement(int depth) {
    const int r = Below(100);
    if (r < 22) return IntBinary();
    if (r < 27) return Unary();
    if (r < 35) return Convert();
    if (r < 41) return Compare();
    if (r < 46) return Select();
    if (r < 55) return Float();
    if (r < 62) return Load();
    if (r < 69) return Store();
    if (r < 74) return SlotRoundTrip();
    if (r < 82) return Accumulate();
    if (r < 88) return Call();
    if (depth < 3 && r < 95) return Diamond(depth);
    if (depth < 3) return Loop(depth);
    return IntBinary();
  }

  void Region(int depth, int n) {
    for (int i = 0; i < n; i++) Statement(depth);
  }

  // ---- functions ----------------------------------------------------------------------

  // @many(12 x i64, 10 x f64) -> i64: a weighted hash of all its arguments, so each stack
  // slot must arrive in the right place.
  lir::Function ManyArgsCallee() {
    lir::Function f;
    f.name = "many";
    f.ret = Type::kI64;
    for (int i = 0; i < 12; i++) f.params.push_back(f.NewVReg(Type::kI64));
    for (int i = 0; i < 10; i++) f.params.push_back(f.NewVReg(Type::kF64));
    f.blocks.emplace_back();
    auto emit = [&](Instr in) { f.blocks[0].instrs.push_back(in); };
    const int acc = f.NewVReg(Type::kI64);
    Instr init;
    init.op = Op::kMov;
    init.dst = acc;
    init.args = {Operand::Imm(17)};
    emit(init);
    for (int p : f.params) {
      int v = p;
      if (f.TypeOf(p) == Type::kF64) {
        Instr c;
        c.op = Op::kFToSI;
        c.dst = v = f.NewVReg(Type::kI64);
        c.args = {Operand::VReg(p)};
        emit(c);
      }
      Instr m;
      m.op = Op::kMul;
      m.dst = acc;
      m.args = {Operand::VReg(acc), Operand::Imm(1000003)};
      emit(m);
      Instr x;
      x.op = Op::kXor;
      x.dst = acc;
      x.args = {Operand::VReg(acc), Operand::VReg(v)};
      emit(x);
    }
    Instr ret;
    ret.op = Op::kRet;
    ret.args = {Operand::VReg(acc)};
    emit(ret);
    return f;
  }

  lir::Function Main(bool many) {
    lir::Function f;
    f_ = &f;
    many_ = many;
    f.name = "f";
    static const Type kRets[] = {Type::kI8, Type::kI16, Type::kI32, Type::kI64, Type::kF64};
    f.ret = Pick(kRets);
    mem_ = f.NewVReg(Type::kPtr);
    f.params = {mem_, f.NewVReg(Type::kI64), f.NewVReg(Type::kI64), f.NewVReg(Type::kF64),
                f.NewVReg(Type::kF64)};
    f.slots.push_back(lir::StackSlot{64 + 16 * Below(8)});
    if (Chance(options_.p_big_frame)) f.slots.push_back(lir::StackSlot{4097 + Below(2000)});
    if (Chance(options_.p_huge_frame)) f.slots.push_back(lir::StackSlot{32768 + Below(20000)});
    block_ = NewBlock();
    for (size_t i = 1; i < f.params.size(); i++) Add(f.params[i]);
    // Every type has values from the start: narrow views of the integer parameters.
    for (Type t : {Type::kI8, Type::kI16, Type::kI32}) {
      Add(Emit(Make(Op::kTrunc, t, {Operand::VReg(f.params[1 + Below(2)])})));
    }
    for (int i = 0; i < 3; i++) {
      const int acc = Emit(Make(Op::kMov, Type::kI64, {Operand::VReg(f.params[1 + i % 2])}));
      accs_.push_back(acc);
    }
    Region(0, options_.statements);
    // Fold some live values into the result and write the accumulators to memory.
    int r = accs_[0];
    for (size_t i = 1; i < accs_.size(); i++) {
      r = Emit(Make(Op::kXor, Type::kI64, {Operand::VReg(r), Operand::VReg(accs_[i])}));
    }
    for (int k = 0; k < 4; k++) {
      const int v = Emit(Make(Op::kSExt, Type::kI64, {Operand::VReg(PickValue(IntType()))}));
      r = Emit(Make(Op::kAdd, Type::kI64, {Operand::VReg(r), Operand::VReg(v)}));
    }
    for (size_t i = 0; i < accs_.size(); i++) {
      Instr st;
      st.op = Op::kStore;
      st.store_type = Type::kI64;
      st.args = {Operand::VReg(accs_[i])};
      st.base = Operand::VReg(mem_);
      st.disp = static_cast<int64_t>(8 * i);
      Emit(st);
    }
    Instr ret;
    ret.op = Op::kRet;
    if (*f.ret == Type::kF64) {
      const int d = Emit(Make(Op::kSIToF, Type::kF64, {Operand::VReg(r)}));
      const int s = Emit(
          Make(Op::kFAdd, Type::kF64, {Operand::VReg(d), Operand::VReg(PickValue(Type::kF64))}));
      ret.args = {Operand::VReg(s)};
    } else if (*f.ret == Type::kI64) {
      ret.args = {Operand::VReg(r)};
    } else {
      ret.args = {Operand::VReg(Emit(Make(Op::kTrunc, *f.ret, {Operand::VReg(r)})))};
    }
    Terminate(ret);
    f_ = nullptr;
    return f;
  }

  std::mt19937_64 rng_;
  GenOptions options_;
  lir::Function* f_ = nullptr;
  int block_ = 0;
  int mem_ = -1;
  bool many_ = false;
  std::vector<int> pools_[6];
  std::vector<int> accs_;
};

}  // namespace

GeneratedProgram GenerateProgram(uint64_t seed, const GenOptions& options) {
  return Generator(seed, options).Run();
}

}  // namespace a64jit::difftest
