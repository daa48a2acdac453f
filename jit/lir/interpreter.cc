#include "jit/lir/interpreter.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "jit/runtime/host_call.h"

namespace a64jit::lir {

Value Value::Double(double d) {
  Value v;
  std::memcpy(&v.bits, &d, sizeof d);
  return v;
}

double Value::AsDouble() const {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

namespace {

constexpr uint64_t kDefaultNaN = 0x7ff8000000000000ull;
constexpr uint64_t kQuietBit = 0x0008000000000000ull;

uint64_t Bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
double FromBits(uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}
bool IsSignalingNaN(double d) { return std::isnan(d) && (Bits(d) & kQuietBit) == 0; }

// aarch64 (FPCR.DN = 0): a signalling NaN operand wins (first operand first) and is
// quietened; else a quiet NaN operand (first first); else an invalid operation produces
// the default NaN. x86 differs (its default NaN is negative), hence this function.
template <typename Fn>
double ArmBinary(double a, double b, Fn fn) {
  if (IsSignalingNaN(a)) return FromBits(Bits(a) | kQuietBit);
  if (IsSignalingNaN(b)) return FromBits(Bits(b) | kQuietBit);
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  double r = fn(a, b);
  return std::isnan(r) ? FromBits(kDefaultNaN) : r;
}

}  // namespace

double ArmFAdd(double a, double b) {
  return ArmBinary(a, b, [](double x, double y) { return x + y; });
}
double ArmFSub(double a, double b) {
  return ArmBinary(a, b, [](double x, double y) { return x - y; });
}
double ArmFMul(double a, double b) {
  return ArmBinary(a, b, [](double x, double y) { return x * y; });
}
double ArmFDiv(double a, double b) {
  return ArmBinary(a, b, [](double x, double y) { return x / y; });
}

int64_t ArmFToSI(double d, int bits) {
  if (std::isnan(d)) return 0;
  const double max = bits == 64 ? 9223372036854775807.0 : 2147483647.0;
  const double min = bits == 64 ? -9223372036854775808.0 : -2147483648.0;
  if (d >= max) return bits == 64 ? std::numeric_limits<int64_t>::max() : 2147483647;
  if (d <= min) return bits == 64 ? std::numeric_limits<int64_t>::min() : -2147483648LL;
  return static_cast<int64_t>(d);  // truncates toward zero
}

struct Interpreter::Frame {
  std::vector<uint64_t> regs;
  std::vector<std::unique_ptr<uint64_t[]>> slots;  // 8-byte aligned storage per slot
  std::vector<std::pair<uint64_t, uint64_t>> slot_ranges;
};

namespace {
// A call argument's bits: its register's, or an immediate's.
uint64_t ArgBits(const std::vector<uint64_t>& regs, const Operand& a) {
  return a.is_vreg() ? regs[static_cast<size_t>(a.vreg)] : static_cast<uint64_t>(a.imm);
}
}  // namespace

Interpreter::Interpreter(const Module& module, Resolver resolver, InterpreterOptions options)
    : module_(module), resolver_(std::move(resolver)), options_(std::move(options)) {}

std::optional<Value> Interpreter::Run(const std::string& name, const std::vector<Value>& args) {
  const Function* f = module_.Find(name);
  if (f == nullptr) throw InterpError("no function @" + name + " in the module");
  steps_ = 0;
  return Call(*f, args, 0);
}

std::optional<Value> Interpreter::Call(const Function& f, const std::vector<Value>& args,
                                       int depth) {
  if (depth > options_.max_call_depth) throw InterpError("call depth limit exceeded");
  if (args.size() != f.params.size()) {
    throw InterpError("@" + f.name + " takes " + std::to_string(f.params.size()) +
                      " arguments, got " + std::to_string(args.size()));
  }
  Frame frame;
  frame.regs.assign(f.vreg_types.size(), 0);
  for (size_t i = 0; i < args.size(); i++) {
    const int p = f.params[i];
    frame.regs[static_cast<size_t>(p)] =
        IsFloat(f.TypeOf(p)) ? args[i].bits : Truncate(args[i].bits, f.TypeOf(p));
  }
  for (const StackSlot& s : f.slots) {
    const size_t words = static_cast<size_t>((s.size + 7) / 8);
    frame.slots.emplace_back(new uint64_t[words]());
    const uint64_t begin = reinterpret_cast<uintptr_t>(frame.slots.back().get());
    frame.slot_ranges.emplace_back(begin, begin + static_cast<uint64_t>(s.size));
  }
  int block = 0;
  for (;;) {
    const Block& b = f.blocks[static_cast<size_t>(block)];
    for (const Instr& in : b.instrs) {
      if (++steps_ > options_.step_budget) throw InterpError("step budget exceeded");
      switch (in.op) {
        case Op::kJmp:
          block = in.targets[0];
          break;
        case Op::kBr: {
          bool taken;
          if (in.br_on_value) {
            const int c = in.args[0].vreg;
            taken = Truncate(frame.regs[static_cast<size_t>(c)], f.TypeOf(c)) != 0;
          } else {
            auto get = [&](const Operand& o) {
              return o.is_vreg() ? frame.regs[static_cast<size_t>(o.vreg)]
                                 : static_cast<uint64_t>(o.imm);
            };
            taken = EvalCond(in.cond, get(in.args[0]), get(in.args[1]), in.cmp_type) ||
                    (IsEitherBranch(in) &&
                     EvalCond(in.cond2, get(in.args[2]), get(in.args[3]), in.cmp_type2));
          }
          block = in.targets[taken ? 0 : 1];
          break;
        }
        case Op::kRet: {
          if (!f.ret) return std::nullopt;
          const Operand& o = in.args[0];
          if (o.is_vreg()) {
            uint64_t v = frame.regs[static_cast<size_t>(o.vreg)];
            return Value{IsFloat(*f.ret) ? v : Truncate(v, *f.ret)};
          }
          return o.is_fimm() ? Value::Double(o.fimm)
                             : Value{Truncate(static_cast<uint64_t>(o.imm), *f.ret)};
        }
        case Op::kCall:
        case Op::kReleaseAt:  // runtime protocols run as the call of their helper
        case Op::kBinaryOpIntoLocal:
          ExecCall(f, frame, in, depth);
          continue;
        case Op::kTailCall: {  // the callee's result is this function's (integers only)
          const std::optional<Value> r = ExecCall(f, frame, in, depth);
          if (!f.ret) return std::nullopt;
          if (!r) throw InterpError("@" + in.callee + " returned no value");
          return Value{Truncate(r->bits, *f.ret)};
        }
        case Op::kMov:
        case Op::kAdd:
        case Op::kSub:
        case Op::kMul:
        case Op::kSDiv:
        case Op::kUDiv:
        case Op::kSRem:
        case Op::kURem:
        case Op::kAnd:
        case Op::kOr:
        case Op::kXor:
        case Op::kShl:
        case Op::kLShr:
        case Op::kAShr:
        case Op::kNot:
        case Op::kNeg:
        case Op::kSExt:
        case Op::kZExt:
        case Op::kTrunc:
        case Op::kFAdd:
        case Op::kFSub:
        case Op::kFMul:
        case Op::kFDiv:
        case Op::kFNeg:
        case Op::kSIToF:
        case Op::kFToSI:
        case Op::kCmp:
        case Op::kSelect:
        case Op::kLoad:
        case Op::kStore:
        case Op::kSlotAddr:
        case Op::kFramePtr:
        case Op::kPad:
        case Op::kSetPrevInstr:
        case Op::kPrevInstrIs: {
          Value v = Eval(f, frame, in, depth);
          if (in.dst >= 0) frame.regs[static_cast<size_t>(in.dst)] = v.bits;
          continue;
        }
      }
      break;  // a terminator chose the next block
    }
  }
}

// A call to a function of the module (interpreted) or to a host helper (called natively);
// its result, if any, goes to in.dst, and is returned.
std::optional<Value> Interpreter::ExecCall(const Function& f, Frame& frame, const Instr& in,
                                           int depth) {
  if (in.callee.empty()) {
    // The target is machine code (a compiled function's entry), which only runs on the
    // machine or under the emulator.
    throw InterpError("call through a register has no meaning in the interpreter (line " +
                      std::to_string(in.line) + ")");
  }
  std::vector<Value> call_args;
  for (const Operand& a : in.args) {
    call_args.push_back(Value{ArgBits(frame.regs, a)});
  }
  std::optional<Value> r;
  if (const Function* callee = module_.Find(in.callee)) {
    r = Call(*callee, call_args, depth + 1);
  } else {
    r = CallHelper(f, frame, in);
  }
  if (in.dst >= 0) {
    if (!r) throw InterpError("@" + in.callee + " returned no value");
    frame.regs[static_cast<size_t>(in.dst)] = r->bits;
  }
  return r;
}

// A host helper, called with the AAPCS64 register assignment of its arguments.
Value Interpreter::CallHelper(const Function& f, const Frame& frame, const Instr& in) {
  std::optional<uint64_t> address = resolver_ ? resolver_(in.callee) : std::optional<uint64_t>();
  if (!address) throw InterpError("call to unknown function @" + in.callee);
  uint64_t x[8] = {};
  double d[8] = {};
  int ni = 0, nd = 0;
  for (const Operand& a : in.args) {
    const uint64_t bits = ArgBits(frame.regs, a);
    if (a.is_vreg() && IsFloat(f.TypeOf(a.vreg))) {
      if (nd == 8) throw InterpError("host helper @" + in.callee + ": >8 f64 args");
      d[nd++] = FromBits(bits);
    } else {
      if (ni == 8) throw InterpError("host helper @" + in.callee + ": >8 int args");
      x[ni++] = bits;
    }
  }
  const bool fret = in.dst >= 0 && IsFloat(f.TypeOf(in.dst));
  runtime::HostCallResult hr =
      runtime::CallHost(*address, fret ? runtime::RetKind::kDouble : runtime::RetKind::kInt, x, d);
  return fret ? Value::Double(hr.d0) : Value{hr.x0};
}

uint64_t Interpreter::Address(const Frame& frame, const Instr& in, size_t width) const {
  uint64_t a = frame.regs[static_cast<size_t>(in.base.vreg)];
  if (in.index.is_vreg()) {
    a += frame.regs[static_cast<size_t>(in.index.vreg)] * static_cast<uint64_t>(in.scale);
  }
  a += static_cast<uint64_t>(in.disp);
  if (!options_.allowed_memory.empty()) {
    bool ok = false;
    for (const auto& r : options_.allowed_memory) ok |= a >= r.first && a + width <= r.second;
    for (const auto& r : frame.slot_ranges) ok |= a >= r.first && a + width <= r.second;
    if (!ok) {
      throw InterpError(std::string(OpName(in.op)) + " at line " + std::to_string(in.line) +
                        ": address 0x" +
                        [&] {
                          char b[20];
                          std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(a));
                          return std::string(b);
                        }() +
                        " is outside the allowed memory");
    }
  }
  return a;
}

namespace {

// ops.h's integer arithmetic (families kIntBinary and kIntUnary) on operand bits `a`, `b` of
// type `t`, before truncation to t. Division by zero gives what aarch64's sdiv/udiv give
// (0, and a remainder of the dividend); INT_MIN / -1 wraps.
uint64_t IntArith(Op op, uint64_t a, uint64_t b, Type t) {
  // Shifts: amounts modulo the register width the machine uses (W for <= 32 bits).
  const int reg_bits = TypeBits(t) == 64 ? 64 : 32;
  switch (op) {
    case Op::kAdd:
      return a + b;
    case Op::kSub:
      return a - b;
    case Op::kMul:
      return a * b;
    case Op::kAnd:
      return a & b;
    case Op::kOr:
      return a | b;
    case Op::kXor:
      return a ^ b;
    case Op::kNot:
      return ~a;
    case Op::kNeg:
      return 0 - a;
    case Op::kShl: {
      const uint64_t s = b % static_cast<uint64_t>(reg_bits);
      return a << s;
    }
    case Op::kLShr: {
      const uint64_t s = b % static_cast<uint64_t>(reg_bits);
      return Truncate(a, t) >> s;
    }
    case Op::kAShr: {
      const uint64_t s = b % static_cast<uint64_t>(reg_bits);
      return static_cast<uint64_t>(SignExtend(a, t) >> s);
    }
    case Op::kSDiv:
    case Op::kSRem: {
      const int64_t sa = SignExtend(a, t), sb = SignExtend(b, t);
      if (sb == 0) return op == Op::kSDiv ? 0 : static_cast<uint64_t>(sa);
      if (sb == -1) return op == Op::kSDiv ? 0 - static_cast<uint64_t>(sa) : 0;
      return static_cast<uint64_t>(op == Op::kSDiv ? sa / sb : sa % sb);
    }
    case Op::kUDiv:
    case Op::kURem: {
      const uint64_t ua = Truncate(a, t), ub = Truncate(b, t);
      if (ub == 0) return op == Op::kUDiv ? 0 : ua;
      return op == Op::kUDiv ? ua / ub : ua % ub;
    }
    default:
      break;
  }
  throw InterpError(std::string("interpreter: not integer arithmetic: '") + OpName(op) + "'");
}

}  // namespace

Value Interpreter::Eval(const Function& f, Frame& frame, const Instr& in, int) {
  const Type t = in.dst >= 0 ? f.TypeOf(in.dst) : in.store_type;
  auto get = [&](const Operand& o) -> uint64_t {
    if (o.is_vreg()) return frame.regs[static_cast<size_t>(o.vreg)];
    if (o.is_fimm()) return Bits(o.fimm);
    return static_cast<uint64_t>(o.imm);
  };
  auto ret = [&](uint64_t v) { return Value{IsFloat(t) ? v : Truncate(v, t)}; };
  // Shifts: amounts modulo the register width the machine uses (W for <= 32 bits).
  const int reg_bits = TypeBits(t) == 64 ? 64 : 32;
  switch (in.op) {
    case Op::kMov:
      return ret(get(in.args[0]));
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kAnd:
    case Op::kOr:
    case Op::kXor:
    case Op::kNot:
    case Op::kNeg:
    case Op::kShl:
    case Op::kLShr:
    case Op::kAShr:
    case Op::kSDiv:
    case Op::kSRem:
    case Op::kUDiv:
    case Op::kURem:
      return ret(IntArith(in.op, get(in.args[0]), in.args.size() > 1 ? get(in.args[1]) : 0, t));
    case Op::kSExt: {
      const Type src = f.TypeOf(in.args[0].vreg);
      return ret(static_cast<uint64_t>(SignExtend(get(in.args[0]), src)));
    }
    case Op::kZExt:
      return ret(Truncate(get(in.args[0]), f.TypeOf(in.args[0].vreg)));
    case Op::kTrunc:
      return ret(get(in.args[0]));
    case Op::kFAdd:
      return Value::Double(ArmFAdd(FromBits(get(in.args[0])), FromBits(get(in.args[1]))));
    case Op::kFSub:
      return Value::Double(ArmFSub(FromBits(get(in.args[0])), FromBits(get(in.args[1]))));
    case Op::kFMul:
      return Value::Double(ArmFMul(FromBits(get(in.args[0])), FromBits(get(in.args[1]))));
    case Op::kFDiv:
      return Value::Double(ArmFDiv(FromBits(get(in.args[0])), FromBits(get(in.args[1]))));
    case Op::kFNeg:
      return Value{get(in.args[0]) ^ 0x8000000000000000ull};
    case Op::kSIToF: {
      const Type src = f.TypeOf(in.args[0].vreg);
      return Value::Double(static_cast<double>(SignExtend(get(in.args[0]), src)));
    }
    case Op::kFToSI:
      return ret(static_cast<uint64_t>(ArmFToSI(FromBits(get(in.args[0])), reg_bits)));
    case Op::kCmp:
      return ret(EvalCond(in.cond, get(in.args[0]), get(in.args[1]), in.cmp_type) ? 1 : 0);
    case Op::kSelect: {
      const int c = in.args[0].vreg;
      const bool yes = Truncate(frame.regs[static_cast<size_t>(c)], f.TypeOf(c)) != 0;
      return ret(get(in.args[yes ? 1 : 2]));
    }
    case Op::kLoad: {
      const size_t width = static_cast<size_t>(TypeBits(t) / 8);
      uint64_t v = 0;
      std::memcpy(&v, reinterpret_cast<const void*>(Address(frame, in, width)), width);
      return ret(v);
    }
    case Op::kStore: {
      const size_t width = static_cast<size_t>(TypeBits(in.store_type) / 8);
      const uint64_t v = get(in.args[0]);
      std::memcpy(reinterpret_cast<void*>(Address(frame, in, width)), &v, width);
      return Value{};
    }
    case Op::kSlotAddr:
      return Value{frame.slot_ranges[static_cast<size_t>(in.slot)].first};
    case Op::kFramePtr:
      throw InterpError("frameptr has no meaning in the interpreter (line " +
                        std::to_string(in.line) + ")");
    case Op::kSetPrevInstr:
    case Op::kPrevInstrIs:
      throw InterpError(std::string(OpName(in.op)) + " is a lowering note, resolved before " +
                        "lowering returns (line " + std::to_string(in.line) + ")");
    case Op::kPad:
      return Value{};
    case Op::kCall:  // Call and ExecCall run these
    case Op::kReleaseAt:
    case Op::kBinaryOpIntoLocal:
    case Op::kTailCall:
    case Op::kJmp:
    case Op::kBr:
    case Op::kRet:
      break;
  }
  throw InterpError(std::string("interpreter: unexpected '") + OpName(in.op) + "'");
}

}  // namespace a64jit::lir
