#include "jit/lir/text.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

namespace a64jit::lir {

// ---- printing ---------------------------------------------------------------------------

namespace {

std::string FormatDouble(double d) {
  if (!std::isfinite(d)) {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    char buf[40];
    std::snprintf(buf, sizeof buf, "fbits(0x%016" PRIx64 ")", bits);
    return buf;
  }
  // The shortest decimal that reads back as the same double.
  char buf[40];
  for (int precision = 1; precision <= 17; precision++) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string FormatOperand(const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::kVReg:
      return "%" + std::to_string(o.vreg);
    case Operand::Kind::kImm:
      return std::to_string(o.imm);
    case Operand::Kind::kFImm:
      return FormatDouble(o.fimm);
    case Operand::Kind::kNone:
      return "<none>";
  }
  return "?";
}

std::string FormatAddress(const Instr& in) {
  std::string s = "[" + FormatOperand(in.base);
  if (in.index.is_vreg()) {
    s += " + " + FormatOperand(in.index);
    if (in.scale != 1) s += "*" + std::to_string(in.scale);
  }
  if (in.disp > 0) s += " + " + std::to_string(in.disp);
  if (in.disp < 0) {
    // -INT64_MIN does not exist: print it through unsigned arithmetic.
    s += " - " + std::to_string(0 - static_cast<uint64_t>(in.disp));
  }
  return s + "]";
}

// `name operand, operand, ...`: the syntax of every kPlain op (ops.h).
std::string FormatPlain(const Instr& in) {
  std::string s = OpName(in.op);
  for (size_t i = 0; i < in.args.size(); i++) {
    s += i == 0 ? " " : ", ";
    s += FormatOperand(in.args[i]);
  }
  return s;
}

std::string FormatBranch(const Instr& in) {
  std::string s;
  if (in.br_on_value) {
    s += "br " + FormatOperand(in.args[0]);
  } else {
    s += std::string("br.") + TypeName(in.cmp_type) + " " + CondName(in.cond) + " " +
         FormatOperand(in.args[0]) + ", " + FormatOperand(in.args[1]);
    if (IsEitherBranch(in)) {  // `or` when both pairs have one type, else `or.TYPE`
      s +=
          in.cmp_type2 == in.cmp_type ? " or " : std::string(" or.") + TypeName(in.cmp_type2) + " ";
      s += std::string(CondName(in.cond2)) + " " + FormatOperand(in.args[2]) + ", " +
           FormatOperand(in.args[3]);
    }
  }
  return s + ", bb" + std::to_string(in.targets[0]) + ", bb" + std::to_string(in.targets[1]);
}

// The instruction after `%d:type = `.
std::string FormatOperation(const Instr& in) {
  switch (OpSyntaxOf(in.op)) {
    case OpSyntax::kPlain:
      return FormatPlain(in);
    case OpSyntax::kCmp:
      return std::string("cmp.") + TypeName(in.cmp_type) + " " + CondName(in.cond) + " " +
             FormatOperand(in.args[0]) + ", " + FormatOperand(in.args[1]);
    case OpSyntax::kLoad:
      return "load " + FormatAddress(in);
    case OpSyntax::kStore:
      return "store." + std::string(TypeName(in.store_type)) + " " + FormatOperand(in.args[0]) +
             ", " + FormatAddress(in);
    case OpSyntax::kSlotAddr:
      return "slotaddr ss" + std::to_string(in.slot);
    case OpSyntax::kCall: {
      const std::string op = OpName(in.op);
      std::string s = in.callee.empty() ? op + " *" + FormatOperand(in.base) + "("
                                        : op + " @" + in.callee + "(";
      for (size_t i = 0; i < in.args.size(); i++) {
        if (i > 0) s += ", ";
        s += FormatOperand(in.args[i]);
      }
      return s + ")";
    }
    case OpSyntax::kPad:
      return "pad " + std::to_string(in.count);
    case OpSyntax::kJmp:
      return "jmp bb" + std::to_string(in.targets[0]);
    case OpSyntax::kBr:
      return FormatBranch(in);
  }
  return FormatPlain(in);  // not an Op: print its number's name ("?")
}

}  // namespace

std::string PrintInstr(const Function& f, const Instr& in) {
  std::string s;
  if (in.dst >= 0) {
    s += "%" + std::to_string(in.dst) + ":" + TypeName(f.TypeOf(in.dst)) + " = ";
  }
  return s + FormatOperation(in);
}

std::string Print(const Function& f) {
  std::string s = "func @" + f.name + "(";
  for (size_t i = 0; i < f.params.size(); i++) {
    if (i > 0) s += ", ";
    s += "%" + std::to_string(f.params[i]) + ":" + TypeName(f.TypeOf(f.params[i]));
  }
  s += ")";
  if (f.ret) s += std::string(" -> ") + TypeName(*f.ret);
  s += " {\n";
  for (size_t i = 0; i < f.slots.size(); i++) {
    s += "  slot ss" + std::to_string(i) + " = " + std::to_string(f.slots[i].size) + "\n";
  }
  for (size_t b = 0; b < f.blocks.size(); b++) {
    s += "bb" + std::to_string(b) + ":\n";
    for (const Instr& in : f.blocks[b].instrs) s += "  " + PrintInstr(f, in) + "\n";
  }
  return s + "}\n";
}

std::string Print(const Module& m) {
  std::string s;
  for (const auto& [name, address] : m.externs) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "0x%" PRIx64, address);
    s += "extern @" + name + " = " + buf + "\n";
  }
  for (size_t i = 0; i < m.functions.size(); i++) {
    if (i > 0 || !m.externs.empty()) s += "\n";
    s += Print(m.functions[i]);
  }
  return s;
}

// ---- parsing ----------------------------------------------------------------------------

ParseError::ParseError(int line, int column, const std::string& message)
    : std::runtime_error("line " + std::to_string(line) + ", column " + std::to_string(column) +
                         ": " + message),
      line_(line),
      column_(column) {}

namespace {

// ASCII classes, inline: the JIT parses its stubs' LIR at every start, and libc's
// locale-aware std::isalnum is a call per character.
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAlnum(char c) { return IsAlpha(c) || IsDigit(c); }

struct Token {
  enum Kind { kEnd, kIdent, kVReg, kSymbol, kNumber, kPunct } kind = kEnd;
  std::string text;
  int line = 0, column = 0;
};

class Lexer {
 public:
  explicit Lexer(const std::string& text) : text_(text) {}

  Token Next() {
    SkipSpaceAndComments();
    Token t;
    t.line = line_;
    t.column = static_cast<int>(pos_ - line_start_) + 1;
    if (pos_ >= text_.size()) return t;
    const char c = text_[pos_];
    if (c == '\n') {
      t.kind = Token::kPunct;
      t.text = "\n";
      pos_++;
      line_++;
      line_start_ = pos_;
      return t;
    }
    if (c == '%' || c == '@') {
      pos_++;
      t.kind = c == '%' ? Token::kVReg : Token::kSymbol;
      t.text = TakeWhile([](char ch) { return IsAlnum(ch) || ch == '_' || ch == '.'; });
      return t;
    }
    if (IsDigit(c) || (c == '-' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) {
      t.kind = Token::kNumber;
      t.text = std::string(1, c);
      pos_++;
      t.text +=
          TakeWhile([](char ch) { return IsAlnum(ch) || ch == '.' || ch == '+' || ch == '-'; });
      // A '+'/'-' only belongs to the number right after an exponent 'e'.
      size_t cut = 1;
      for (; cut < t.text.size(); cut++) {
        char ch = t.text[cut];
        if ((ch == '+' || ch == '-') &&
            !(std::tolower(t.text[cut - 1]) == 'e' && t.text.compare(0, 2, "0x") != 0)) {
          break;
        }
      }
      pos_ -= t.text.size() - cut;
      t.text.resize(cut);
      return t;
    }
    if (IsAlpha(c) || c == '_') {
      t.kind = Token::kIdent;
      t.text = TakeWhile([](char ch) { return IsAlnum(ch) || ch == '_' || ch == '.'; });
      return t;
    }
    if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '>') {
      pos_ += 2;
      t.kind = Token::kPunct;
      t.text = "->";
      return t;
    }
    pos_++;
    t.kind = Token::kPunct;
    t.text = std::string(1, c);
    return t;
  }

 private:
  template <typename Pred>
  std::string TakeWhile(Pred pred) {
    size_t start = pos_;
    while (pos_ < text_.size() && pred(text_[pos_])) pos_++;
    return text_.substr(start, pos_ - start);
  }
  void SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\r') {
        pos_++;
      } else if (c == ';') {
        pos_ = std::min(text_.find('\n', pos_), text_.size());  // a comment, to its line's end
      } else {
        break;
      }
    }
  }

  const std::string& text_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
};

class Parser {
 public:
  explicit Parser(const std::string& text) : lexer_(text) { Advance(); }

  Module ParseModule(bool verify = true) {
    Module m;
    for (;;) {
      SkipNewlines();
      if (tok_.kind == Token::kEnd) break;
      if (IsIdent("extern")) {
        Advance();
        std::string name = ExpectSymbol();
        Expect("=");
        uint64_t address = static_cast<uint64_t>(ParseInt("an address"));
        if (m.externs.count(name) != 0) Error("extern @" + name + " declared twice");
        m.externs[name] = address;
        ExpectLineEnd();
      } else if (IsIdent("func")) {
        m.functions.push_back(ParseFunction());
      } else {
        Error("expected 'func' or 'extern'");
      }
    }
    if (verify) {
      for (const Function& f : m.functions) Verify(f);
    }
    return m;
  }

 private:
  [[noreturn]] void Error(const std::string& what) const {
    std::string found = tok_.kind == Token::kEnd      ? "end of input"
                        : tok_.text == "\n"           ? "end of line"
                        : tok_.kind == Token::kVReg   ? "%" + tok_.text
                        : tok_.kind == Token::kSymbol ? "@" + tok_.text
                                                      : tok_.text;
    throw ParseError(tok_.line, tok_.column, what + ", found '" + found + "'");
  }
  void Advance() { tok_ = lexer_.Next(); }
  bool IsPunct(const char* p) const { return tok_.kind == Token::kPunct && tok_.text == p; }
  bool IsIdent(const char* s) const { return tok_.kind == Token::kIdent && tok_.text == s; }
  void Expect(const char* p) {
    if (!IsPunct(p)) Error(std::string("expected '") + p + "'");
    Advance();
  }
  void ExpectLineEnd() {
    if (tok_.kind != Token::kEnd && !IsPunct("\n")) Error("expected end of line");
    SkipNewlines();
  }
  void SkipNewlines() {
    while (IsPunct("\n")) Advance();
  }
  std::string ExpectSymbol() {
    if (tok_.kind != Token::kSymbol || tok_.text.empty()) Error("expected '@name'");
    std::string s = tok_.text;
    Advance();
    return s;
  }
  int64_t ParseInt(const char* what) {
    if (tok_.kind != Token::kNumber) Error(std::string("expected ") + what);
    const std::string& s = tok_.text;
    errno = 0;
    char* end = nullptr;
    int64_t v;
    if (s.size() > 2 && (s.compare(0, 2, "0x") == 0 || s.compare(0, 3, "-0x") == 0)) {
      const bool neg = s[0] == '-';
      uint64_t u = std::strtoull(s.c_str() + (neg ? 3 : 2), &end, 16);
      v = static_cast<int64_t>(neg ? 0 - u : u);
    } else if (s[0] == '-') {
      v = std::strtoll(s.c_str(), &end, 10);
    } else {
      // Accept the full unsigned range for 64-bit immediates (wraps to the same bits).
      v = static_cast<int64_t>(std::strtoull(s.c_str(), &end, 10));
    }
    if (errno != 0 || end == nullptr || *end != '\0') Error(std::string("expected ") + what);
    Advance();
    return v;
  }
  Type ParseType() {
    if (tok_.kind != Token::kIdent) Error("expected a type (i8, i16, i32, i64, ptr, f64)");
    std::optional<Type> t = TypeFromName(tok_.text);
    if (!t) Error("expected a type (i8, i16, i32, i64, ptr, f64)");
    Advance();
    return *t;
  }
  int ParseBlockRef() {
    if (tok_.kind != Token::kIdent || tok_.text.size() < 3 || tok_.text.compare(0, 2, "bb") != 0) {
      Error("expected a block 'bbN'");
    }
    int n = ParseIndex(tok_.text.substr(2), "a block number");
    Advance();
    return n;
  }
  int ParseIndex(const std::string& digits, const char* what) {
    if (digits.empty() || digits.size() > 7 ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
      Error(std::string("expected ") + what);
    }
    return std::atoi(digits.c_str());
  }

  // A register use: %N (its type comes from its definition).
  int ParseVRegUse() {
    if (tok_.kind != Token::kVReg) Error("expected a register '%N'");
    int v = ParseIndex(tok_.text, "a register number");
    Use(v);
    Advance();
    return v;
  }
  void Use(int v) {
    if (static_cast<size_t>(v) >= defined_.size()) {
      defined_.resize(static_cast<size_t>(v) + 1, false);
      fn_->vreg_types.resize(static_cast<size_t>(v) + 1, Type::kI64);
    }
    if (!defined_[static_cast<size_t>(v)] && first_use_.count(v) == 0) {
      first_use_[v] = {tok_.line, tok_.column};
    }
  }
  void Define(int v, Type t, int line, int column) {
    if (static_cast<size_t>(v) >= defined_.size()) {
      defined_.resize(static_cast<size_t>(v) + 1, false);
      fn_->vreg_types.resize(static_cast<size_t>(v) + 1, Type::kI64);
    }
    if (defined_[static_cast<size_t>(v)] && fn_->TypeOf(v) != t) {
      throw ParseError(line, column, "%" + std::to_string(v) + " redefined with a different type");
    }
    defined_[static_cast<size_t>(v)] = true;
    fn_->vreg_types[static_cast<size_t>(v)] = t;
  }

  Operand ParseOperand() {
    if (tok_.kind == Token::kVReg) return Operand::VReg(ParseVRegUse());
    if (tok_.kind == Token::kIdent && tok_.text == "fbits") {
      Advance();
      Expect("(");
      uint64_t bits = static_cast<uint64_t>(ParseInt("f64 bits"));
      Expect(")");
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return Operand::FImm(d);
    }
    if (tok_.kind == Token::kNumber) {
      const std::string& s = tok_.text;
      const bool hex = s.find("0x") != std::string::npos;
      if (!hex && s.find_first_of(".eE") != std::string::npos) {
        char* end = nullptr;
        double d = std::strtod(s.c_str(), &end);
        if (*end != '\0') Error("expected a number");
        Advance();
        return Operand::FImm(d);
      }
      return Operand::Imm(ParseInt("an integer"));
    }
    Error("expected an operand (%N, an integer or an f64)");
  }

  void ParseAddress(Instr& in) {
    Expect("[");
    in.base = Operand::VReg(ParseVRegUse());
    while (IsPunct("+") || IsPunct("-") || (tok_.kind == Token::kNumber && tok_.text[0] == '-')) {
      const bool minus = IsPunct("-");
      if (tok_.kind == Token::kPunct) Advance();
      if (tok_.kind == Token::kVReg && !minus && in.index.is_none()) {
        in.index = Operand::VReg(ParseVRegUse());
        if (IsPunct("*")) {
          Advance();
          in.scale = static_cast<int>(ParseInt("a scale"));
        }
      } else {
        int64_t d = ParseInt("a displacement");
        in.disp = minus ? static_cast<int64_t>(0 - static_cast<uint64_t>(d)) : d;
      }
    }
    Expect("]");
  }

  // "op.type" splits into op and type; "op" alone leaves the type unset.
  static std::pair<std::string, std::optional<Type>> SplitSuffix(const std::string& word) {
    size_t dot = word.find('.');
    if (dot == std::string::npos) return {word, std::nullopt};
    return {word.substr(0, dot), TypeFromName(word.substr(dot + 1))};
  }

  // An opcode by its name in ops.h's table, if it is plain (or, for !plain, special).
  static std::optional<Op> FindOp(const std::string& name, bool plain) {
    static const std::unordered_map<std::string, Op> kByName = [] {
      std::unordered_map<std::string, Op> m;
      for (Op op : kAllOps) m[OpName(op)] = op;
      return m;
    }();
    auto it = kByName.find(name);
    if (it == kByName.end() || (OpSyntaxOf(it->second) == OpSyntax::kPlain) != plain) {
      return std::nullopt;
    }
    return it->second;
  }

  Instr ParseInstr() {
    Instr in;
    in.line = tok_.line;
    if (tok_.kind == Token::kVReg) {
      const int line = tok_.line, column = tok_.column;
      int v = ParseIndex(tok_.text, "a register number");
      Advance();
      Expect(":");
      Define(v, ParseType(), line, column);
      in.dst = v;
      Expect("=");
    }
    if (tok_.kind != Token::kIdent) Error("expected an instruction");
    const Token word = tok_;
    auto [name, suffix] = SplitSuffix(word.text);
    Advance();
    // A special op is named by the word before its `.TYPE` suffix (if any); a plain op has
    // no suffix, so the whole word names it.
    std::optional<Op> op = FindOp(name, /*plain=*/false);
    if (!op) op = FindOp(word.text, /*plain=*/true);
    if (!op) throw ParseError(word.line, word.column, "unknown instruction '" + word.text + "'");
    in.op = *op;
    ParseOperands(in, word, suffix);
    return in;
  }

  // The type suffix a special op requires (`cmp.i64`, `store.i8`).
  Type RequireSuffix(const Instr& in, const Token& word, const std::optional<Type>& suffix) {
    if (!suffix) {
      throw ParseError(
          word.line, word.column,
          std::string("expected '") + OpName(in.op) + ".TYPE', found '" + word.text + "'");
    }
    return *suffix;
  }

  Cond ParseCond() {
    if (tok_.kind != Token::kIdent || !CondFromName(tok_.text)) {
      Error("expected a condition (eq ne slt sle sgt sge ult ule ugt uge)");
    }
    Cond c = *CondFromName(tok_.text);
    Advance();
    return c;
  }

  // `a, b`: the operands of cmp and of br's compare form.
  void ParseTwoOperands(Instr& in) {
    in.args.push_back(ParseOperand());
    Expect(",");
    in.args.push_back(ParseOperand());
  }

  // What follows the opcode word `word` (whose type suffix is `suffix`).
  void ParseOperands(Instr& in, const Token& word, const std::optional<Type>& suffix) {
    switch (OpSyntaxOf(in.op)) {
      case OpSyntax::kPlain:
        return ParsePlainOperands(in);
      case OpSyntax::kCmp:
        in.cmp_type = RequireSuffix(in, word, suffix);
        in.cond = ParseCond();
        return ParseTwoOperands(in);
      case OpSyntax::kLoad:
        return ParseAddress(in);
      case OpSyntax::kStore:
        in.store_type = RequireSuffix(in, word, suffix);
        in.args.push_back(ParseOperand());
        Expect(",");
        return ParseAddress(in);
      case OpSyntax::kSlotAddr:
        if (tok_.kind != Token::kIdent || tok_.text.compare(0, 2, "ss") != 0) {
          Error("expected a stack slot 'ssN'");
        }
        in.slot = ParseIndex(tok_.text.substr(2), "a slot number");
        return Advance();
      case OpSyntax::kCall:
        if (IsPunct("*")) {  // through a register: call *%t(...)
          Advance();
          if (tok_.kind != Token::kVReg) Error("expected the target register after 'call *'");
          in.base = Operand::VReg(ParseVRegUse());
        } else {
          in.callee = ExpectSymbol();
        }
        Expect("(");
        if (!IsPunct(")")) ParseOperandList(in);
        return Expect(")");
      case OpSyntax::kPad:
        in.count = ParseInt("a count");
        return;
      case OpSyntax::kJmp:
        in.targets[0] = ParseBlockRef();
        return;
      case OpSyntax::kBr:
        return ParseBranch(in, suffix);
    }
  }

  // `br.TYPE cond a, b, bbT, bbF`, `br.TYPE cond a, b or[.TYPE2] cond2 c, d, bbT, bbF` or
  // `br %c, bbT, bbF`.
  void ParseBranch(Instr& in, const std::optional<Type>& suffix) {
    if (suffix) {
      in.cmp_type = *suffix;
      in.cond = ParseCond();
      ParseTwoOperands(in);
      if (tok_.kind == Token::kIdent && SplitSuffix(tok_.text).first == "or") {
        const auto [word, type2] = SplitSuffix(tok_.text);
        if (!type2 && tok_.text != "or") Error("expected 'or' or 'or.TYPE'");
        in.cmp_type2 = type2.value_or(in.cmp_type);
        Advance();
        in.cond2 = ParseCond();
        ParseTwoOperands(in);
      }
    } else {
      in.br_on_value = true;
      in.args.push_back(ParseOperand());
    }
    Expect(",");
    in.targets[0] = ParseBlockRef();
    Expect(",");
    in.targets[1] = ParseBlockRef();
  }

  // `operand, operand, ...`, at least one.
  void ParseOperandList(Instr& in) {
    for (;;) {
      in.args.push_back(ParseOperand());
      if (!IsPunct(",")) break;
      Advance();
    }
  }

  // The operands of a kPlain op: a comma-separated list up to the end of the line, or none.
  void ParsePlainOperands(Instr& in) {
    if (!IsPunct("\n") && tok_.kind != Token::kEnd && !IsPunct("}")) ParseOperandList(in);
  }

  Function ParseFunction() {
    Function f;
    fn_ = &f;
    defined_.clear();
    first_use_.clear();
    Advance();  // func
    f.name = ExpectSymbol();
    Expect("(");
    if (!IsPunct(")")) {
      for (;;) {
        if (tok_.kind != Token::kVReg) Error("expected a parameter '%N:type'");
        const int line = tok_.line, column = tok_.column;
        int v = ParseIndex(tok_.text, "a register number");
        Advance();
        Expect(":");
        Define(v, ParseType(), line, column);
        f.params.push_back(v);
        if (!IsPunct(",")) break;
        Advance();
      }
    }
    Expect(")");
    if (IsPunct("->")) {
      Advance();
      f.ret = ParseType();
    }
    Expect("{");
    ExpectLineEnd();
    while (IsIdent("slot")) {
      Advance();
      if (tok_.kind != Token::kIdent || tok_.text != "ss" + std::to_string(f.slots.size())) {
        Error("expected 'ss" + std::to_string(f.slots.size()) + "' (slots are numbered in order)");
      }
      Advance();
      Expect("=");
      int64_t size = ParseInt("a slot size");
      if (size <= 0 || size > (int64_t{1} << 30)) Error("slot size out of range");
      f.slots.push_back(StackSlot{size});
      ExpectLineEnd();
    }
    while (!IsPunct("}")) {
      if (tok_.kind != Token::kIdent || tok_.text != "bb" + std::to_string(f.blocks.size())) {
        Error("expected 'bb" + std::to_string(f.blocks.size()) +
              ":' (blocks are numbered in order)");
      }
      Advance();
      Expect(":");
      ExpectLineEnd();
      f.blocks.emplace_back();
      while (!IsPunct("}") && !(tok_.kind == Token::kIdent && tok_.text.compare(0, 2, "bb") == 0 &&
                                tok_.text.find('.') == std::string::npos)) {
        f.blocks.back().instrs.push_back(ParseInstr());
        ExpectLineEnd();
      }
    }
    Advance();  // }
    for (const auto& [v, where] : first_use_) {
      if (!defined_[static_cast<size_t>(v)]) {
        throw ParseError(where.first, where.second,
                         "%" + std::to_string(v) + " is used but never defined");
      }
    }
    fn_ = nullptr;
    return f;
  }

  Lexer lexer_;
  Token tok_;
  Function* fn_ = nullptr;
  std::vector<bool> defined_;
  std::map<int, std::pair<int, int>> first_use_;
};

}  // namespace

Module Parse(const std::string& text) { return Parser(text).ParseModule(); }

Module ParseUnverified(const std::string& text) { return Parser(text).ParseModule(false); }

}  // namespace a64jit::lir
