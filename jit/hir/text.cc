// HIR text: the printer (hir.h Print) and its parser (text.h Parse).
#include "jit/hir/text.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

namespace a64jit::hir {

namespace {

constexpr const char* kCompareNames[] = {"<", "<=", "==", "!=", ">", ">="};
constexpr const char* kUnaryNames[] = {"-", "+", "~"};

std::string RegName(const Function& f, int reg) {
  for (size_t k = 0; k < f.stack_regs.size(); k++) {
    if (f.stack_regs[k] == reg) return "s" + std::to_string(k);
  }
  return "%" + std::to_string(reg);
}

std::string Quote(const std::vector<std::string>& table, int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(table.size())) return "?";
  return table[static_cast<size_t>(index)];
}

// " borrowed=2,3": the operands an op is lent (Instr::borrowed), or "". After the immediate,
// so that a Call's kwnames= repr never follows it.
std::string LentOperands(const Instr& in) {
  std::string out;
  for (size_t i = 0; i < kMaxBorrowedOperands; i++) {
    if (Lent(in, i)) out += (out.empty() ? " borrowed=" : ",") + std::to_string(i);
  }
  return out;
}

// The op's immediate as its row in ops.h says to read it.
std::string Immediate(const Function& f, const Instr& in) {
  const CodeInfo& c = f.code;
  const std::string n = std::to_string(in.imm);
  const auto word = [&](bool set, const char* w) { return std::string(set ? w : ""); };
  switch (InfoOf(in.op).imm) {
    case ImmKind::kNone:
      return "";
    case ImmKind::kLocal:
      return n + " (" + Quote(c.localsplus_names, in.imm) + ")" +
             word(in.op == Op::kLoadLocal && in.checked, " checked") +
             word(Unfused(in.op) == Op::kStoreLocal && in.bound, " bound");
    case ImmKind::kName:
      return "'" + Quote(c.names, in.imm) + "'";
    case ImmKind::kNumber:
      return n;
    case ImmKind::kResumeUnit:
      return "@" + std::to_string(in.imm * 2);
    case ImmKind::kConst:
      return n + " (" + Quote(c.const_reprs, in.imm) + ")";
    case ImmKind::kArgc:
      return "argc=" + n + (in.kwnames >= 0 ? " kwnames=" + Quote(c.const_reprs, in.kwnames) : "");
    case ImmKind::kNb:
      return "nb=" + n;
    case ImmKind::kCompare:
      return in.imm >= 0 && in.imm < 6 ? kCompareNames[in.imm] : "?";
    case ImmKind::kUnary:
      return in.imm >= 0 && in.imm < 3 ? kUnaryNames[in.imm] : "?";
    case ImmKind::kKeys:
      return "keys=" + Quote(c.const_reprs, in.keys_const);
    case ImmKind::kAsync:
      return word(in.imm != 0, "async");
    case ImmKind::kEntry:
      return word(in.imm == 1, "entry");
    case ImmKind::kReraised:
      return word(in.imm != 0, "reraised");
    case ImmKind::kInverted:
      return word(in.imm != 0, "inverted");
  }
  return "";
}

// `  {error @6 catch bb3 [%0 borrowed, %1]}`.
std::string StateText(const Function& f, const FrameState& st) {
  std::string line = "  {";
  // An error raises at its instruction; a resume names where the interpreter goes on.
  const bool error = st.kind == FrameState::Kind::kError;
  if (st.kind == FrameState::Kind::kRaised) {
    line += "raised";
  } else if (st.kind == FrameState::Kind::kReraise) {
    line += "reraise @" + std::to_string(st.bc * 2);
  } else {
    line += error ? "error @" : "resume @";
    line += std::to_string((error ? st.bc : st.resume_unit) * 2);
  }
  if (st.catch_block >= 0) line += " catch bb" + std::to_string(st.catch_block);
  line += " [";
  for (size_t i = 0; i < st.stack.size(); i++) {
    if (i > 0) line += ", ";
    line += RegName(f, st.stack[i]);
    if (i < st.borrowed.size() && st.borrowed[i]) line += " borrowed";
  }
  return line + "]}";
}

// kIntForm | kFloatForm as `int`, `float` or `int+float`.
std::string FormsText(uint8_t forms) {
  if (forms == (kIntForm | kFloatForm)) return "int+float";
  return forms == kIntForm ? "int" : "float";
}

// ` inline=FORMS` and ` unboxed=FORMS` (number_forms.h), when the op has them.
std::string NumberFormsText(const Function& f, const Instr& in) {
  std::string text;
  if (in.forms != 0) text += " inline=" + FormsText(in.forms);
  const auto dst = static_cast<size_t>(in.dst);
  if (in.dst >= 0 && dst < f.unboxed.size() && f.unboxed[dst] != 0) {
    text += " unboxed=" + FormsText(f.unboxed[dst]);
  }
  return text;
}

std::string InstrText(const Function& f, const Instr& in) {
  std::string line = "  ";
  if (in.dst >= 0) {
    line += RegName(f, in.dst);
    if (f.reg_types[static_cast<size_t>(in.dst)] == ValueType::kCInt) line += ":cint";
    if (in.dst2 >= 0) line += ", " + RegName(f, in.dst2);
    line += " = ";
  }
  line += OpName(in.op);
  std::string operands;
  for (int a : in.args) operands += (operands.empty() ? " " : ", ") + RegName(f, a);
  line += operands;
  const std::string imm = Immediate(f, in);
  if (!imm.empty()) line += (operands.empty() ? " " : ", ") + imm;
  line += LentOperands(in);
  if (in.lent_self) line += " lent-self";
  if (in.given_self) line += " given-self";
  if (in.feedback != Feedback::kNone) line += std::string(" [") + FeedbackName(in.feedback) + "]";
  line += NumberFormsText(f, in);
  if (in.op == Op::kJump) line += " bb" + std::to_string(in.targets[0]);
  if (in.op == Op::kBranch) {
    line += " -> bb" + std::to_string(in.targets[0]) + ", bb" + std::to_string(in.targets[1]);
  }
  if (in.has_state) line += StateText(f, in.state);
  return line;
}

}  // namespace

std::string Print(const Function& f) {
  std::string s = "function " + f.code.module + ":" + f.code.qualname + " (locals " +
                  std::to_string(f.code.nlocalsplus) + ", args " + std::to_string(f.code.nargs);
  if (f.code.first_local_iterator != CodeInfo::LocalIterator::kNone) {
    s += std::string(", local 0 ") + LocalIteratorName(f.code.first_local_iterator);
  }
  s += ")\n";
  for (size_t b = 0; b < f.blocks.size(); b++) {
    const Block& block = f.blocks[b];
    s += "bb" + std::to_string(b) + " (in " + std::to_string(block.in_depth) + ", out " +
         std::to_string(block.out_depth);
    if (block.bc_start >= 0) s += ", @" + std::to_string(block.bc_start * 2);
    s += "):\n";
    for (const Instr& in : block.instrs) s += InstrText(f, in) + "\n";
  }
  return s;
}

namespace {

// A register as the text names it, before registers get their numbers.
struct RegRef {
  bool stack = false;
  int n = -1;
};

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}
bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Reads Print's text: blocks and instructions first, with registers as the text names them;
// then Finish numbers the registers (%N keeps N; sK comes after the highest %N) and the
// constants that only kwnames= and keys= showed.
class Parser {
 public:
  explicit Parser(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      if (StartsWith(line, "; ")) line = line.substr(2);
      if (line == ";") line.clear();
      lines_.push_back(line);
    }
  }

  Function Run() {
    size_t i = 0;
    while (i < lines_.size() && lines_[i].empty()) i++;
    if (i == lines_.size()) Fail(0, "no function");
    ParseHeader(i, lines_[i]);
    for (i++; i < lines_.size(); i++) {
      const std::string& line = lines_[i];
      if (line.empty()) continue;
      if (StartsWith(line, "bb")) {
        ParseBlockHeader(i, line);
      } else if (StartsWith(line, "  ")) {
        if (f_.blocks.empty()) Fail(i, "an instruction before the first block");
        ParseInstr(i, line.substr(2));
      } else {
        Fail(i, "expected a block (bbN ...) or an instruction (two spaces first): '" + line + "'");
      }
    }
    return Finish();
  }

 private:
  struct PendingConst {  // a kwnames= or keys= repr, numbered in Finish
    size_t block, instr;
    bool keys;
    std::string repr;
  };

  [[noreturn]] void Fail(size_t line, const std::string& what) const {
    throw ParseError("line " + std::to_string(line + 1) + ": " + what);
  }

  // "2,3" (after borrowed=) as Instr::borrowed's bits.
  uint32_t LentBits(size_t line, const std::string& list) const {
    uint32_t bits = 0;
    size_t start = 0;
    while (start <= list.size()) {
      const size_t comma = std::min(list.find(',', start), list.size());
      const int64_t i = Number(line, list.substr(start, comma - start));
      if (i < 0 || i >= static_cast<int64_t>(kMaxBorrowedOperands)) {
        Fail(line, "borrowed= operand " + std::to_string(i) + " is out of range");
      }
      bits |= uint32_t{1} << i;
      start = comma + 1;
    }
    return bits;
  }

  int64_t Number(size_t line, const std::string& s) const {
    if (s.empty()) Fail(line, "expected a number");
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (*end != '\0') Fail(line, "expected a number, not '" + s + "'");
    return v;
  }

  void ParseHeader(size_t line, const std::string& text) {
    const std::string prefix = "function ";
    const size_t colon = text.find(':');
    const size_t paren = text.rfind(" (locals ");
    if (!StartsWith(text, prefix) || colon == std::string::npos || paren == std::string::npos ||
        paren < colon || !EndsWith(text, ")")) {
      Fail(line, "expected 'function MODULE:QUALNAME (locals N, args M[, local 0 ITERATOR])'");
    }
    f_.code.module = text.substr(prefix.size(), colon - prefix.size());
    f_.code.qualname = text.substr(colon + 1, paren - colon - 1);
    const std::string counts = text.substr(paren + 9, text.size() - paren - 10);
    const size_t comma = counts.find(", args ");
    if (comma == std::string::npos) Fail(line, "expected '(locals N, args M)'");
    f_.code.nlocalsplus = static_cast<int>(Number(line, counts.substr(0, comma)));
    std::string args = counts.substr(comma + 7);
    const size_t local = args.find(", local 0 ");
    if (local != std::string::npos) {
      const std::string name = args.substr(local + 10);
      if (!LocalIteratorByName(name, &f_.code.first_local_iterator)) {
        Fail(line, "unknown iterator '" + name +
                       "' for local 0 (enumerate, dict_items, dict_keys, dict_values, zip)");
      }
      args = args.substr(0, local);
    }
    f_.code.nargs = static_cast<int>(Number(line, args));
    f_.code.localsplus_names.assign(static_cast<size_t>(f_.code.nlocalsplus), "?");
  }

  // bbK (in A, out B[, @OFF]):
  void ParseBlockHeader(size_t line, const std::string& text) {
    const size_t open = text.find(" (in ");
    if (open == std::string::npos || !EndsWith(text, "):")) {
      Fail(line, "expected 'bbK (in A, out B[, @OFFSET]):'");
    }
    if (Number(line, text.substr(2, open - 2)) != static_cast<int64_t>(f_.blocks.size())) {
      Fail(line, "blocks must come in order: expected bb" + std::to_string(f_.blocks.size()));
    }
    std::string inside = text.substr(open + 5, text.size() - open - 7);
    Block b;
    const size_t at = inside.find(", @");
    if (at != std::string::npos) {
      b.bc_start = static_cast<int>(Number(line, inside.substr(at + 3)) / 2);
      inside = inside.substr(0, at);
    }
    const size_t out = inside.find(", out ");
    if (out == std::string::npos) Fail(line, "expected 'in A, out B'");
    b.in_depth = static_cast<int>(Number(line, inside.substr(0, out)));
    b.out_depth = static_cast<int>(Number(line, inside.substr(out + 6)));
    f_.blocks.push_back(std::move(b));
  }

  std::optional<RegRef> Reg(const std::string& token) const {
    if (token.size() < 2 || (token[0] != '%' && token[0] != 's')) return std::nullopt;
    for (size_t i = 1; i < token.size(); i++) {
      if (token[i] < '0' || token[i] > '9') return std::nullopt;
    }
    return RegRef{token[0] == 's', std::atoi(token.c_str() + 1)};
  }

  RegRef NeedReg(size_t line, const std::string& token) const {
    const std::optional<RegRef> r = Reg(token);
    if (!r) Fail(line, "expected a register (%N or sK), not '" + token + "'");
    return *r;
  }

  // The registers an instruction names, by where they go; numbered in Finish.
  struct InstrRegs {
    RegRef dst, dst2;
    bool has_dst = false, has_dst2 = false, cint = false;
    uint8_t unboxed = 0;  // Function::unboxed of dst
    size_t line = 0;
    std::vector<RegRef> args, stack;
  };

  void ParseInstr(size_t line, std::string text);
  void ParseDefinition(size_t line, std::string* text, InstrRegs* regs) const;
  void ParseState(size_t line, const std::string& text, Instr* in, InstrRegs* regs) const;
  void ParseTargets(size_t line, std::string* rest, Instr* in) const;
  void ParseFeedback(size_t line, std::string* rest, Instr* in) const;
  void ParseLent(size_t line, std::string* rest, Instr* in) const;
  void ParseNumberForms(size_t line, std::string* rest, Instr* in, InstrRegs* regs) const;
  void ParseOperands(std::string* rest, InstrRegs* regs) const;
  void ParseImmediate(size_t line, const std::string& imm, Instr* in);
  int NameIndex(const std::string& name);
  void SetTable(std::vector<std::string>* table, int64_t index, const std::string& value,
                size_t line) const;
  Function Finish();

  std::vector<std::string> lines_;
  Function f_;
  std::vector<std::vector<InstrRegs>> regs_;  // per block, per instruction
  std::vector<PendingConst> pending_consts_;
  std::map<std::string, int> name_index_;
};

// [DST[:cint][, DST2] = ]: leaves `text` at the op. A register starts a definition (an op's
// name starts with a capital).
void Parser::ParseDefinition(size_t line, std::string* text, InstrRegs* regs) const {
  const std::string& t = *text;
  const bool starts_reg =
      !t.empty() && (t[0] == '%' || (t[0] == 's' && t.size() > 1 && t[1] >= '0' && t[1] <= '9'));
  if (!starts_reg) return;
  const size_t eq = t.find(" = ");
  if (eq == std::string::npos) Fail(line, "a register first, but no ' = ' after it");
  std::string lhs = t.substr(0, eq);
  const size_t comma = lhs.find(", ");
  if (comma != std::string::npos) {
    regs->dst2 = NeedReg(line, lhs.substr(comma + 2));
    regs->has_dst2 = true;
    lhs = lhs.substr(0, comma);
  }
  if (EndsWith(lhs, ":cint")) {
    regs->cint = true;
    lhs = lhs.substr(0, lhs.size() - 5);
  }
  regs->dst = NeedReg(line, lhs);
  regs->has_dst = true;
  *text = t.substr(eq + 3);
}

// One instruction line (without its two leading spaces).
void Parser::ParseInstr(size_t line, std::string text) {
  Instr in;
  InstrRegs regs;
  const size_t state_at = text.rfind("  {");
  if (state_at != std::string::npos && EndsWith(text, "]}")) {
    ParseState(line, text.substr(state_at + 3, text.size() - state_at - 4), &in, &regs);
    text = text.substr(0, state_at);
  }
  ParseDefinition(line, &text, &regs);
  const size_t space = text.find(' ');
  const std::string name = text.substr(0, space);
  std::optional<Op> op;
  for (size_t i = 0; i < sizeof(kOpInfo) / sizeof(kOpInfo[0]); i++) {
    if (name == kOpInfo[i].name) op = static_cast<Op>(i);
  }
  if (!op) Fail(line, "unknown op '" + name + "'");
  in.op = *op;
  std::string rest = space == std::string::npos ? "" : text.substr(space);
  ParseTargets(line, &rest, &in);
  ParseNumberForms(line, &rest, &in, &regs);
  ParseFeedback(line, &rest, &in);
  ParseLent(line, &rest, &in);
  ParseOperands(&rest, &regs);
  ParseImmediate(line, rest, &in);
  const int arity = InfoOf(in.op).arity;
  if (arity != kVariadic && static_cast<int>(regs.args.size()) != arity) {
    Fail(line, name + " takes " + std::to_string(arity) + " operands, not " +
                   std::to_string(regs.args.size()));
  }
  in.bc = in.has_state ? in.state.bc : -1;
  regs.line = line;
  f_.blocks.back().instrs.push_back(std::move(in));
  regs_.resize(f_.blocks.size());
  regs_.back().push_back(std::move(regs));
}

// error @OFF | resume @OFF | raised | reraise @OFF, [ catch bbK], [REG[ borrowed], ...]
void Parser::ParseState(size_t line, const std::string& text, Instr* in, InstrRegs* regs) const {
  FrameState& st = in->state;
  in->has_state = true;
  const size_t open = text.find('[');
  if (open == std::string::npos || open == 0 || text[open - 1] != ' ') {
    Fail(line, "a state needs its stack: '{KIND [REGS]}'");
  }
  std::string head = text.substr(0, open - 1);
  const size_t c = head.find(" catch bb");
  if (c != std::string::npos) {
    st.catch_block = static_cast<int>(Number(line, head.substr(c + 9)));
    st.protected_range = true;
    head = head.substr(0, c);
  }
  const auto offset = [&](const std::string& word) {
    return static_cast<int>(Number(line, head.substr(word.size())) / 2);
  };
  if (head == "raised") {
    st.kind = FrameState::Kind::kRaised;
  } else if (StartsWith(head, "error @")) {
    st.kind = FrameState::Kind::kError;
    st.bc = offset("error @");
  } else if (StartsWith(head, "resume @")) {
    st.kind = FrameState::Kind::kResume;
    st.resume_unit = st.bc = offset("resume @");
  } else if (StartsWith(head, "reraise @")) {
    st.kind = FrameState::Kind::kReraise;
    st.bc = offset("reraise @");
  } else {
    Fail(line, "a state is 'error @N', 'resume @N', 'raised' or 'reraise @N', not '" + head + "'");
  }
  const std::string list = text.substr(open + 1, text.size() - open - 2);
  std::istringstream items(list);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (!item.empty() && item[0] == ' ') item = item.substr(1);
    if (item.empty()) continue;
    const bool borrowed = EndsWith(item, " borrowed");
    if (borrowed) item = item.substr(0, item.size() - 9);
    regs->stack.push_back(NeedReg(line, item));
    st.borrowed.push_back(borrowed);
  }
}

// ` bbT` of a Jump, ` -> bbT, bbF` of a Branch, at the end.
void Parser::ParseTargets(size_t line, std::string* rest, Instr* in) const {
  if (in->op == Op::kJump) {
    const size_t at = rest->rfind(" bb");
    if (at == std::string::npos) Fail(line, "Jump needs its target: 'Jump bbN'");
    in->targets[0] = static_cast<int>(Number(line, rest->substr(at + 3)));
    *rest = rest->substr(0, at);
  } else if (in->op == Op::kBranch) {
    const size_t at = rest->rfind(" -> bb");
    const size_t comma = rest->rfind(", bb");
    if (at == std::string::npos || comma == std::string::npos || comma < at) {
      Fail(line, "Branch needs its targets: 'Branch %c -> bbT, bbF'");
    }
    in->targets[0] = static_cast<int>(Number(line, rest->substr(at + 6, comma - at - 6)));
    in->targets[1] = static_cast<int>(Number(line, rest->substr(comma + 4)));
    *rest = rest->substr(0, at);
  }
}

// ` [FEEDBACK]` at the end (feedback.h's names).
void Parser::ParseFeedback(size_t line, std::string* rest, Instr* in) const {
  const size_t open = rest->rfind(" [");
  if (open == std::string::npos || !EndsWith(*rest, "]")) return;
  const std::string name = rest->substr(open + 2, rest->size() - open - 3);
  for (int k = 1; k <= static_cast<int>(Feedback::kOther); k++) {
    if (name == FeedbackName(static_cast<Feedback>(k))) {
      in->feedback = static_cast<Feedback>(k);
      *rest = rest->substr(0, open);
      return;
    }
  }
  Fail(line, "unknown feedback '" + name + "'");
}

// ` borrowed=I,J` and then ` lent-self` or ` given-self` at the end (Instr::borrowed,
// Instr::lent_self, Instr::given_self). Not a borrowed= inside a kwnames= repr, which ends in a
// quote and a parenthesis.
void Parser::ParseLent(size_t line, std::string* rest, Instr* in) const {
  const std::string lent_self = " lent-self", given_self = " given-self", borrowed = " borrowed=";
  if (EndsWith(*rest, given_self)) {
    if (in->op != Op::kLoadMethod) Fail(line, std::string(OpName(in->op)) + " has no given self");
    in->given_self = true;
    *rest = rest->substr(0, rest->size() - given_self.size());
  }
  if (EndsWith(*rest, lent_self)) {
    if (in->op != Op::kLoadMethod && in->op != Op::kCall) {
      Fail(line, std::string(OpName(in->op)) + " has no lent self");
    }
    in->lent_self = true;
    *rest = rest->substr(0, rest->size() - lent_self.size());
  }
  const size_t at = rest->rfind(borrowed);
  if (at == std::string::npos) return;
  const std::string list = rest->substr(at + borrowed.size());
  if (list.find_first_of("'\")") != std::string::npos) return;
  if (!Lends(in->op)) Fail(line, std::string(OpName(in->op)) + " takes no lent operands");
  in->borrowed = LentBits(line, list);
  *rest = rest->substr(0, at);
}

// ` inline=FORMS` and then ` unboxed=FORMS` at the end, each optional (FORMS: int, float or
// int+float).
void Parser::ParseNumberForms(size_t line, std::string* rest, Instr* in, InstrRegs* regs) const {
  const auto take = [&](const std::string& key) -> uint8_t {
    const size_t at = rest->rfind(" " + key + "=");
    if (at == std::string::npos) return 0;
    const std::string forms = rest->substr(at + key.size() + 2);
    if (forms.find(' ') != std::string::npos) return 0;  // not at the end: part of an immediate
    *rest = rest->substr(0, at);
    if (forms == "int") return kIntForm;
    if (forms == "float") return kFloatForm;
    if (forms == "int+float") return kIntForm | kFloatForm;
    Fail(line, key + "= takes int, float or int+float, not '" + forms + "'");
  };
  regs->unboxed = take("unboxed");
  if (regs->unboxed != 0 && !regs->has_dst) Fail(line, "unboxed= needs a result register");
  in->forms = take("inline");
}

// ` REG, REG, ...`: the registers at the start; what follows them is the immediate.
void Parser::ParseOperands(std::string* rest, InstrRegs* regs) const {
  std::string r = *rest;
  if (!r.empty() && r[0] == ' ') r = r.substr(1);
  while (!r.empty()) {
    const size_t comma = r.find(", ");
    const std::string token = r.substr(0, comma);
    const std::optional<RegRef> reg = Reg(token);
    if (!reg) break;
    regs->args.push_back(*reg);
    r = comma == std::string::npos ? "" : r.substr(comma + 2);
  }
  *rest = r;
}

void Parser::SetTable(std::vector<std::string>* table, int64_t index, const std::string& value,
                      size_t line) const {
  if (index < 0 || index > 1000000) Fail(line, "index " + std::to_string(index) + " out of range");
  if (table->size() <= static_cast<size_t>(index))
    table->resize(static_cast<size_t>(index) + 1, "?");
  std::string& slot = (*table)[static_cast<size_t>(index)];
  if (slot != "?" && slot != value) {
    Fail(line,
         "index " + std::to_string(index) + " is '" + slot + "' elsewhere, not '" + value + "'");
  }
  slot = value;
}

int Parser::NameIndex(const std::string& name) {
  const auto it = name_index_.find(name);
  if (it != name_index_.end()) return it->second;
  const int index = static_cast<int>(f_.code.names.size());
  f_.code.names.push_back(name);
  name_index_[name] = index;
  return index;
}

// The immediate, as the op's ImmKind writes it (Immediate above).
void Parser::ParseImmediate(size_t line, const std::string& imm, Instr* in) {
  const std::string op = OpName(in->op);
  const auto fail = [&](const std::string& form) {
    Fail(line, op + "'s immediate is " + form + ", not '" + imm + "'");
  };
  const auto word = [&](const char* w) {
    if (!imm.empty() && imm != w) fail(std::string("'") + w + "' or nothing");
    in->imm = imm.empty() ? 0 : 1;
  };
  const auto after = [&](const std::string& prefix) {
    if (!StartsWith(imm, prefix)) fail("'" + prefix + "...'");
    return imm.substr(prefix.size());
  };
  switch (InfoOf(in->op).imm) {
    case ImmKind::kNone:
      if (!imm.empty()) fail("nothing");
      return;
    case ImmKind::kLocal:
    case ImmKind::kConst: {
      std::string t = imm;
      if (EndsWith(t, " bound")) in->bound = true, t = t.substr(0, t.size() - 6);
      if (EndsWith(t, " checked")) in->checked = true, t = t.substr(0, t.size() - 8);
      const size_t p = t.find(" (");
      if (p == std::string::npos || !EndsWith(t, ")")) fail("'N (what it names)'");
      in->imm = Number(line, t.substr(0, p));
      const bool local = InfoOf(in->op).imm == ImmKind::kLocal;
      SetTable(local ? &f_.code.localsplus_names : &f_.code.const_reprs, in->imm,
               t.substr(p + 2, t.size() - p - 3), line);
      return;
    }
    case ImmKind::kName:
      if (imm.size() < 2 || imm.front() != '\'' || imm.back() != '\'') fail("a 'name'");
      in->imm = NameIndex(imm.substr(1, imm.size() - 2));
      return;
    case ImmKind::kNumber:
      in->imm = Number(line, imm);
      return;
    case ImmKind::kResumeUnit:
      in->imm = Number(line, after("@")) / 2;
      return;
    case ImmKind::kArgc: {
      const std::string t = after("argc=");
      const size_t k = t.find(" kwnames=");
      in->imm = Number(line, t.substr(0, k));
      if (k != std::string::npos) {
        pending_consts_.push_back(
            {f_.blocks.size() - 1, f_.blocks.back().instrs.size(), false, t.substr(k + 9)});
      }
      return;
    }
    case ImmKind::kNb:
      in->imm = Number(line, after("nb="));
      return;
    case ImmKind::kCompare:
    case ImmKind::kUnary: {
      const bool compare = InfoOf(in->op).imm == ImmKind::kCompare;
      const size_t n = compare ? 6 : 3;
      for (size_t i = 0; i < n; i++) {
        if (imm == (compare ? kCompareNames[i] : kUnaryNames[i])) {
          in->imm = static_cast<int64_t>(i);
          return;
        }
      }
      fail(compare ? "one of < <= == != > >=" : "one of - + ~");
    }
    case ImmKind::kKeys:
      pending_consts_.push_back(
          {f_.blocks.size() - 1, f_.blocks.back().instrs.size(), true, after("keys=")});
      return;
    case ImmKind::kAsync:
      return word("async");
    case ImmKind::kEntry:
      return word("entry");
    case ImmKind::kReraised:
      return word("reraised");
    case ImmKind::kInverted:
      return word("inverted");
  }
}

// Numbers the registers (%N keeps N; sK after the highest %N), checks the block numbers the
// instructions name, and gives kwnames= and keys= reprs constants of their own.
Function Parser::Finish() {
  int max_n = -1, max_k = -1;
  const auto see = [&](const RegRef& r) {
    int& highest = r.stack ? max_k : max_n;
    highest = std::max(highest, r.n);
  };
  for (const auto& block : regs_) {
    for (const InstrRegs& r : block) {
      if (r.has_dst) see(r.dst);
      if (r.has_dst2) see(r.dst2);
      for (const RegRef& a : r.args) see(a);
      for (const RegRef& a : r.stack) see(a);
    }
  }
  f_.reg_types.assign(static_cast<size_t>(max_n + 1), ValueType::kObject);
  f_.unboxed.assign(f_.reg_types.size(), 0);
  for (int k = 0; k <= max_k; k++) f_.StackReg(k);
  const auto num = [&](const RegRef& r) {
    return r.stack ? f_.stack_regs[static_cast<size_t>(r.n)] : r.n;
  };
  const int blocks = static_cast<int>(f_.blocks.size());
  for (size_t b = 0; b < regs_.size(); b++) {
    for (size_t i = 0; i < regs_[b].size(); i++) {
      const InstrRegs& r = regs_[b][i];
      Instr& in = f_.blocks[b].instrs[i];
      if (r.has_dst) in.dst = num(r.dst);
      if (r.cint) f_.reg_types[static_cast<size_t>(in.dst)] = ValueType::kCInt;
      if (r.unboxed != 0 && !r.dst.stack) f_.unboxed[static_cast<size_t>(in.dst)] = r.unboxed;
      if (r.has_dst2) in.dst2 = num(r.dst2);
      for (const RegRef& a : r.args) in.args.push_back(num(a));
      for (const RegRef& a : r.stack) in.state.stack.push_back(num(a));
      for (int t : {in.targets[0], in.targets[1], in.has_state ? in.state.catch_block : -1}) {
        if (t >= blocks) Fail(r.line, "bb" + std::to_string(t) + " does not exist");
      }
    }
  }
  for (const PendingConst& c : pending_consts_) {
    Instr& in = f_.blocks[c.block].instrs[c.instr];
    (c.keys ? in.keys_const : in.kwnames) = static_cast<int>(f_.code.const_reprs.size());
    f_.code.const_reprs.push_back(c.repr);
  }
  return std::move(f_);
}

}  // namespace

Function Parse(const std::string& text) { return Parser(text).Run(); }

}  // namespace a64jit::hir
