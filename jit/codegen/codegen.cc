#include "jit/codegen/codegen.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "jit/codegen/disassembly.h"
#include "jit/codegen/function_compiler.h"

namespace a64jit::codegen {

const lir::RegisterFile& Aarch64Registers() {
  static const lir::RegisterFile regs = [] {
    lir::RegisterFile r;
    for (int i = 0; i <= 14; i++) r.gp_caller_saved.push_back(i);
    for (int i = 19; i <= 28; i++) r.gp_callee_saved.push_back(i);
    for (int i = 0; i <= 7; i++) r.fp_caller_saved.push_back(i);
    for (int i = 16; i <= 28; i++) r.fp_caller_saved.push_back(i);
    for (int i = 8; i <= 15; i++) r.fp_callee_saved.push_back(i);
    for (int i = 0; i <= 7; i++) r.gp_args.push_back(i);  // AAPCS64: x0-x7, d0-d7, x0/d0
    for (int i = 0; i <= 7; i++) r.fp_args.push_back(i);
    r.gp_result = 0;
    r.fp_result = 0;
    return r;
  }();
  return regs;
}

namespace internal {

CompiledFunction FunctionCompiler::Run() {
  long_ranges_ = options_.force_long_ranges;
  pools_ = !long_ranges_;
  ChooseSavedRegisters();
  LayOutFrame();
  frameless_ = CanBeFrameless();

  code_.init(asmjit::Environment(asmjit::Arch::kAArch64), options_.base_address.value_or(0));
  code_.setErrorHandler(&errors_);
  a_ = std::make_unique<asmjit::a64::Assembler>(&code_);
  block_offset_.assign(f_.blocks.size(), -1);
  FindNarrowLoads();
  sp_slot_ = FindSpAddresses(f_);
  for (size_t v = 0; v < sp_slot_.size(); v++) {  // their registers are never written
    if (sp_slot_[v] >= 0) alloc_.where[v] = Location{};
  }
  exit_tails_ = FindExitTails(f_, alloc_, options_.exit_code_limit);
  tail_labels_.assign(exit_tails_.first_block.size(), asmjit::Label());
  epilogue_ = a_->newLabel();
  entry_ = a_->newLabel();

  static_assert(EntryMove::kFromSp == kSpId, "an entry move from SP names it as codegen does");
  for (const EntryMove& m : options_.entry_moves) {
    const std::optional<uint32_t> word =
        EncodeMovReg(true, static_cast<uint32_t>(m.arg), static_cast<uint32_t>(m.from));
    if (!word) Fail("an entry move names no register");
    EmitWord(*a_, *word);
  }
  a_->bind(entry_);
  current_ = nullptr;
  EmitPrologue();
  Check();
  epilogue_block_ = EpilogueBlock();
  for (size_t b = 0; b < f_.blocks.size(); b++) {
    block_ = static_cast<int>(b);
    PlaceBlock(block_);
    if (EmitExitByTail(block_)) continue;
    const auto& instrs = f_.blocks[b].instrs;
    EmitInstrs(instrs, instrs.size());
    if (block_ == epilogue_block_ && !frameless_) {
      current_ = nullptr;
      a_->bind(epilogue_);
      EmitEpilogue();
    }
  }
  current_ = nullptr;
  ResolveBlockBranches();
  EmitExitTails();
  EmitExitBlock();
  Check();
  stats_.code_bytes = a_->offset();
  EmitPool();
  Check();
  if (code_.flatten() != asmjit::kErrorOk || code_.resolveUnresolvedLinks() != asmjit::kErrorOk) {
    Fail("asmjit could not resolve labels (a branch out of range?)");
  }
  Check();
  asmjit::Section* text = code_.textSection();
  CompiledFunction out;
  out.bytes.assign(text->data(), text->data() + text->bufferSize());
  stats_.pool_bytes = out.bytes.size() - stats_.code_bytes;
  stats_.pool_entries = static_cast<int>(pool_.size());
  stats_.long_ranges = long_ranges_;
  stats_.frame_size = frame_size_;
  stats_.frameless = frameless_;
  stats_.spill_slots = alloc_.spill_slots;
  out.stats = stats_;
  out.exits = std::move(exits_);
  out.data_words = std::move(data_words_);
  out.entry_offset = static_cast<uint32_t>(4 * options_.entry_moves.size());
  return out;
}

// ---- diagnostics --------------------------------------------------------------------
[[noreturn]] void FunctionCompiler::Fail(const std::string& what) const {
  std::string where = "@" + f_.name;
  if (current_ != nullptr) {
    where += " bb" + std::to_string(block_) + " '" + lir::PrintInstr(f_, *current_) + "'";
    if (current_->line > 0) where += " (line " + std::to_string(current_->line) + ")";
  } else {
    where += " (prologue/epilogue)";
  }
  throw CompileError("codegen: " + where + ": " + what);
}

}  // namespace internal

// Short forms first (b.cond, cbz and ldr-literal reach +-1 MiB, and a function's constants
// share one literal pool): a function that came out smaller than that range has every
// branch and literal in reach. A larger one (or one asmjit could not resolve) is emitted
// again with the long forms: a b.cond over an unconditional b, constants by movz/movk.
CompiledFunction EmitAllocated(const lir::Function& f, const lir::Allocation& allocation,
                               const CompileOptions& options) {
  if (!options.force_long_ranges) {
    // With tbz/tbnz (+-32 KiB), then without, then the long forms.
    for (const bool sign_tests : {true, false}) {
      try {
        CompiledFunction out = internal::FunctionCompiler(f, allocation, options, sign_tests).Run();
        const size_t reach = sign_tests ? internal::kTestBranchRange : internal::kBranchRange;
        if (out.bytes.size() < reach) return out;
        if (out.bytes.size() >= internal::kBranchRange) break;
      } catch (const CompileError&) {
        // Out of range, or an error the long forms will report again.
      }
    }
  }
  CompileOptions long_forms = options;
  long_forms.force_long_ranges = true;
  return internal::FunctionCompiler(f, allocation, long_forms).Run();
}

CompiledFunction Compile(const lir::Function& f, const CompileOptions& options) {
  lir::Verify(f);
  return EmitAllocated(f, lir::AllocateRegisters(f, Aarch64Registers()), options);
}

std::string Disassemble(const CompiledFunction& code, uint64_t base_address) {
  std::string out;
  const size_t n = code.stats.code_bytes;
  auto data = code.data_words.begin();
  for (size_t off = 0; off + 4 <= n; off += 4) {
    if (data != code.data_words.end() && *data == off) {
      uint32_t word;
      std::memcpy(&word, code.bytes.data() + off, sizeof word);
      char line[64];
      std::snprintf(line, sizeof line, "%04zx: .word 0x%08x\n", off, word);
      out += line;
      ++data;
      continue;
    }
    std::string line =
        codegen::DisassembleAt(code.bytes.data() + off, 4, base_address + off, ~0ull);
    // "   0x<addr>: text\n" -> "<offset>: text"
    const size_t colon = line.find(": ");
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%04zx", off);
    out += std::string(prefix) + line.substr(colon, line.size() - colon);
  }
  for (size_t off = (n + 7) & ~size_t{7}; off + 8 <= code.bytes.size(); off += 8) {
    uint64_t v;
    std::memcpy(&v, code.bytes.data() + off, sizeof v);
    char line[64];
    std::snprintf(line, sizeof line, "%04zx: .quad 0x%016llx\n", off,
                  static_cast<unsigned long long>(v));
    out += line;
  }
  return out;
}

std::optional<uint64_t> ExitCodeAt(const std::vector<ExitByCall>& exits, uint64_t result) {
  const uint64_t at = result & ~kExitByOffset;
  const auto it =
      std::lower_bound(exits.begin(), exits.end(), at,
                       [](const ExitByCall& e, uint64_t off) { return e.offset < off; });
  if (it == exits.end() || it->offset != at) return std::nullopt;
  return it->code;
}

LoadedFunction CompileInto(runtime::CodeSink& sink, const CompileAt& compile) {
  const uint64_t expected = sink.NextAddress();
  CompiledFunction code = compile(expected != 0 ? std::optional<uint64_t>(expected) : std::nullopt);
  const uint8_t* at = sink.Load(code.bytes.data(), code.bytes.size());
  if (reinterpret_cast<uintptr_t>(at) == expected) return LoadedFunction{at, std::move(code)};
  // Placed elsewhere: direct `bl`s and branch reach were decided for `expected`. Compile
  // for the real address; if that does not fit where the first code went, load position-
  // independent code (literal-pool calls reach anywhere) instead.
  CompiledFunction final_code = compile(reinterpret_cast<uintptr_t>(at));
  if (final_code.bytes.size() > code.bytes.size()) {
    final_code = compile(std::nullopt);
    at = sink.Load(final_code.bytes.data(), final_code.bytes.size());
    return LoadedFunction{at, std::move(final_code)};
  }
  sink.Patch(at, final_code.bytes.data(), final_code.bytes.size());
  return LoadedFunction{at, std::move(final_code)};
}

std::map<std::string, LoadedFunction> CompileAndLoad(const lir::Module& module,
                                                     runtime::CodeSink& sink,
                                                     const CallResolver& resolve) {
  std::map<std::string, LoadedFunction> loaded;
  CompileOptions options;
  options.resolve = [&](const std::string& name) -> std::optional<uint64_t> {
    auto it = loaded.find(name);
    if (it != loaded.end()) return reinterpret_cast<uintptr_t>(it->second.entry);
    auto ext = module.externs.find(name);
    if (ext != module.externs.end()) return ext->second;
    return resolve ? resolve(name) : std::nullopt;
  };
  for (const lir::Function& f : module.functions) {
    loaded[f.name] = CompileInto(sink, [&](std::optional<uint64_t> base) {
      options.base_address = base;
      return Compile(f, options);
    });
  }
  return loaded;
}

}  // namespace a64jit::codegen
