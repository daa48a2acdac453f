// Code generator unit tests: what it emits for specific shapes, and how it fails.
#include "jit/codegen/codegen.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "emulation/executors.h"
#include "emulation/helper_registry.h"
#include "jit/codegen/into_local_stub.h"
#include "jit/codegen/release_stubs.h"
#include "jit/lir/text.h"
#include "jit/runtime/stub_entries.h"

namespace a64jit::codegen {
namespace {

using runtime::CallStubMoves;
using runtime::StubEntryTable;

constexpr uint64_t kBase = 0x10000;

CompiledFunction CompileText(const std::string& text, CompileOptions options = {}) {
  lir::Module m = lir::Parse(text);
  options.base_address = options.base_address.value_or(kBase);
  options.resolve = [&](const std::string& name) -> std::optional<uint64_t> {
    auto it = m.externs.find(name);
    if (it == m.externs.end()) return std::nullopt;
    return it->second;
  };
  return Compile(m.functions.back(), options);
}

// `f` compiled into a host executor's code memory with `options`, for the address it gets.
LoadedFunction LoadOnHost(runtime::Executor& ex, const lir::Function& f, CompileOptions options) {
  return CompileInto(ex, [&](std::optional<uint64_t> base) {
    options.base_address = base;
    return Compile(f, options);
  });
}

// Hand-written stubs made by `make` for `helper` (a host function of `args` integers returning
// one, registered for the executor), loaded into `ex`; their address.
template <typename Helper>
uint64_t LoadStubsCalling(runtime::Executor& ex, std::vector<uint8_t> (*make)(uint64_t),
                          Helper* helper, const char* name, int args) {
  emu::RegisterHelper(reinterpret_cast<const void*>(helper),
                      emu::HelperSignature{name, args, 0, runtime::RetKind::kInt});
  const std::vector<uint8_t> stubs = make(reinterpret_cast<uintptr_t>(helper));
  return reinterpret_cast<uintptr_t>(ex.Load(stubs.data(), stubs.size()));
}

TEST(Codegen, FrameOf5376BytesIsTwoSubtractions) {
  CompiledFunction c = CompileText("func @f() {\n  slot ss0 = 5376\nbb0:\n  ret\n}\n");
  const std::string d = Disassemble(c, kBase);
  EXPECT_NE(d.find("sub sp, sp, #1, lsl #12"), std::string::npos) << d;
  EXPECT_NE(d.find("sub sp, sp, #0x500"), std::string::npos) << d;
  EXPECT_EQ(c.stats.frame_size, 5376);
}

TEST(Codegen, ErrorsNameTheInstruction) {
  try {
    CompileText("func @f(%0:i64) -> i64 {\nbb0:\n  %1:i64 = call @nope(%0)\n  ret %1\n}\n");
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_STREQ(
        e.what(),
        "codegen: @f bb0 '%1:i64 = call @nope(%0)' (line 3): call to unknown function @nope");
  }
  EXPECT_THROW(CompileText("func @f() {\n  slot ss0 = 1073741824\n  slot ss1 = 1073741824\n"
                           "  slot ss2 = 1073741824\nbb0:\n  ret\n}\n"),
               CompileError);
}

TEST(Codegen, FarCallTargetsShareOnePoolEntry) {
  const std::string text =
      "extern @far = 0x7f0012345678\nextern @near = 0x20000\n"
      "func @f(%0:i64) -> i64 {\nbb0:\n"
      "  %1:i64 = call @far(%0)\n  %2:i64 = call @far(%1)\n  %3:i64 = call @far(%2)\n"
      "  %4:i64 = call @near(%3)\n  ret %4\n}\n";
  CompiledFunction c = CompileText(text);
  EXPECT_EQ(c.stats.pool_calls, 3);
  EXPECT_EQ(c.stats.direct_calls, 1);
  EXPECT_EQ(c.stats.pool_entries, 1);
  // Unknown base address: every call goes through the pool, still one entry per target.
  CompileOptions pic;
  pic.base_address = std::nullopt;
  lir::Module m = lir::Parse(text);
  pic.resolve = [&](const std::string& n) -> std::optional<uint64_t> { return m.externs.at(n); };
  CompiledFunction p = Compile(m.functions[0], pic);
  EXPECT_EQ(p.stats.pool_calls, 4);
  EXPECT_EQ(p.stats.pool_entries, 2);
  EXPECT_GE(p.bytes.size(), c.bytes.size());
}

TEST(Codegen, LongRangesUseInvertedBranchesAndNoPool) {
  const std::string text =
      "extern @far = 0x7f0012345678\n"
      "func @f(%0:i64) -> i64 {\nbb0:\n  br.i64 slt %0, 5, bb1, bb2\nbb1:\n"
      "  %1:i64 = mov 0x123456789abcdef\n  %2:i64 = call @far(%1)\n  ret %2\nbb2:\n  ret %0\n}\n";
  CompileOptions o;
  o.force_long_ranges = true;
  CompiledFunction c = CompileText(text, o);
  EXPECT_TRUE(c.stats.long_ranges);
  EXPECT_EQ(c.stats.pool_entries, 0);
  EXPECT_EQ(c.stats.far_calls, 1);
  const std::string d = Disassemble(c, kBase);
  // A conditional branch that only skips over an unconditional `b` (which reaches 128 MiB).
  const size_t cond = d.find(": b.");
  ASSERT_NE(cond, std::string::npos) << d;
  const size_t next_line = d.find('\n', cond) + 1;
  EXPECT_EQ(d.compare(next_line + 4, 5, ": b #"), 0) << d;
  EXPECT_NE(d.find("movk x16"), std::string::npos) << d;
}

// Short forms are kept whenever the function fits in their 1 MiB reach, however many LIR
// instructions it has; only a function that does not fit is emitted again in long forms.
TEST(Codegen, LongRangesOnlyWhenTheFunctionIsOverOneMiB) {
  auto branch_over = [](const std::string& middle) {
    return "func @f(%0:i64) -> i64 {\nbb0:\n  br.i64 slt %0, 5, bb1, bb2\nbb1:\n" + middle +
           "  ret %0\nbb2:\n  %9:i64 = mov 0x123456789abcdef\n  ret %9\n}\n";
  };
  std::string adds;
  for (int i = 0; i < 12000; i++) adds += "  %0:i64 = add %0, 1\n";
  CompiledFunction many = CompileText(branch_over(adds));
  EXPECT_FALSE(many.stats.long_ranges);
  EXPECT_EQ(many.stats.pool_entries, 1);
  CompiledFunction huge = CompileText(branch_over("  pad 300000\n"));
  EXPECT_TRUE(huge.stats.long_ranges);
  EXPECT_EQ(huge.stats.pool_entries, 0);
  EXPECT_GT(huge.bytes.size(), size_t{1} << 20);
}

// The target of `call *%t` reaches x17 before the argument moves overwrite its register:
// here it arrives in x1, which the second argument then takes.
TEST(Codegen, CallThroughARegisterSavesTheTargetFirst) {
  CompiledFunction c = CompileText(
      "func @f(%0:i64, %1:ptr, %2:i64) -> i64 {\nbb0:\n"
      "  %3:i64 = call *%1(%0, %2)\n  ret %3\n}\n");
  EXPECT_EQ(c.stats.register_calls, 1);
  const std::string d = Disassemble(c, kBase);
  const size_t save = d.find("mov x17, x1"), move = d.find("mov x1, x2"), call = d.find("blr x17");
  ASSERT_NE(save, std::string::npos) << d;
  ASSERT_NE(move, std::string::npos) << d;
  ASSERT_NE(call, std::string::npos) << d;
  EXPECT_LT(save, move) << d;
  EXPECT_LT(move, call) << d;
}

// Exits by call (CompileOptions::exit_code_limit): each `ret` of a code with low bits 1 or 2
// is one `bl` to the shared exit block, which returns that bl's offset | 3; ExitCodeAt maps it
// back. Codes with low bits 0 or 3, and values, are returned as written. Run on this host's
// executor (Unicorn on x86-64, natively on aarch64).
TEST(Codegen, ExitsByCallReturnTheirOffsetForTheirCode) {
  const std::string text =
      "func @f(%0:i64) -> i64 {\nbb0:\n  br.i64 eq %0, 1, bb1, bb2\nbb1:\n  ret 5\n"
      "bb2:\n  br.i64 eq %0, 2, bb3, bb4\nbb3:\n  ret 70002\n"
      "bb4:\n  br.i64 eq %0, 3, bb5, bb6\nbb5:\n  ret 7\n"
      "bb6:\n  br.i64 eq %0, 4, bb7, bb8\nbb7:\n  ret 8\nbb8:\n  ret %0\n}\n";
  const lir::Module m = lir::Parse(text);
  std::unique_ptr<runtime::Executor> ex = emu::CreateHostExecutor();
  CompileOptions options;
  options.exit_code_limit = uint64_t{1} << 20;
  const LoadedFunction f = LoadOnHost(*ex, m.functions.back(), options);
  EXPECT_EQ(f.code.stats.exits_by_call, 2);
  ASSERT_EQ(f.code.exits.size(), 2u);
  EXPECT_LT(f.code.exits[0].offset, f.code.exits[1].offset);
  auto run = [&](uint64_t arg) { return ex->CallInt(f.entry, {runtime::Arg::Int(arg)}); };
  for (const auto& [arg, code] : {std::pair<uint64_t, uint64_t>{1, 5}, {2, 70002}}) {
    const uint64_t got = run(arg);
    EXPECT_EQ(got & kExitByOffset, kExitByOffset) << arg;
    EXPECT_LT(got, f.code.bytes.size()) << arg;
    EXPECT_EQ(ExitCodeAt(f.code.exits, got), std::optional<uint64_t>(code)) << arg;
  }
#if !defined(__aarch64__)
  EXPECT_GT(ex->last_call_stats().guest_instructions, 0u);  // Unicorn ran it
#endif
  EXPECT_EQ(run(3), 7u);  // low bits 3: as written
  EXPECT_EQ(run(4), 8u);  // low bits 0: as written
  EXPECT_EQ(run(99), 99u);
  EXPECT_EQ(ExitCodeAt(f.code.exits, 3), std::nullopt);
  // A limit the offsets would reach: the exits stay `ret`s of their codes.
  options.exit_code_limit = 16;
  const LoadedFunction small = LoadOnHost(*ex, m.functions.back(), options);
  EXPECT_EQ(small.code.stats.exits_by_call, 0);
  EXPECT_EQ(ex->CallInt(small.entry, {runtime::Arg::Int(1)}), 5u);
}

// Exits that store the same registers at the same places share those stores
// (exit_tails.h): three exits storing %0 and zero into [%1] and [%1 + 8] are each one `bl` to
// a tail holding the one stp; the fourth stores elsewhere and keeps its own. Each still
// returns its own offset, and the stores happen.
TEST(Codegen, ExitsWithTheSameStoresShareThem) {
  const std::string text =
      "func @f(%0:i64, %1:ptr) -> i64 {\nbb0:\n  br.i64 eq %0, 1, bb1, bb2\n"
      "bb1:\n  store.i64 %0, [%1]\n  store.i64 0, [%1 + 8]\n  ret 5\n"
      "bb2:\n  br.i64 eq %0, 2, bb3, bb4\n"
      "bb3:\n  store.i64 %0, [%1]\n  store.i64 0, [%1 + 8]\n  ret 9\n"
      "bb4:\n  br.i64 eq %0, 3, bb5, bb6\n"
      "bb5:\n  store.i64 %0, [%1]\n  store.i64 0, [%1 + 8]\n  ret 13\n"
      "bb6:\n  store.i64 %0, [%1 + 8]\n  ret 17\n}\n";
  const lir::Module m = lir::Parse(text);
  std::unique_ptr<runtime::Executor> ex = emu::CreateHostExecutor();
  CompileOptions options;
  options.exit_code_limit = uint64_t{1} << 20;
  const LoadedFunction f = LoadOnHost(*ex, m.functions.back(), options);
  EXPECT_EQ(f.code.stats.exits_by_call, 4);
  const std::string d = Disassemble(f.code, reinterpret_cast<uintptr_t>(f.entry));
  size_t pairs = 0;
  for (size_t at = d.find("stp x"); at != std::string::npos; at = d.find("stp x", at + 1)) {
    pairs += d.compare(at, 9, "stp x29, ") == 0 ? 0 : 1;  // not the frame record
  }
  EXPECT_EQ(pairs, 1u) << d;
  for (const auto& [arg, code] : {std::pair<uint64_t, uint64_t>{1, 5}, {2, 9}, {3, 13}, {4, 17}}) {
    uint64_t words[2] = {77, 77};
    const uint64_t got = ex->CallInt(f.entry, {runtime::Arg::Int(arg), runtime::Arg::Ptr(words)});
    EXPECT_EQ(ExitCodeAt(f.code.exits, got), std::optional<uint64_t>(code)) << arg;
    EXPECT_EQ(words[0], arg == 4 ? 77 : arg) << arg;
    EXPECT_EQ(words[1], arg == 4 ? 4 : 0) << arg;
  }
#if !defined(__aarch64__)
  EXPECT_GT(ex->last_call_stats().guest_instructions, 0u);  // Unicorn ran it
#endif
}

// A branch on a value's sign (`slt 0`, `sge 0`: a helper's status) is one tbnz or tbz, which
// reaches 32 KiB: a function that comes out longer is emitted again with cmp and b.cond.
TEST(Codegen, SignTestsAreTbzWhereTheyReach) {
  const auto text = [](int adds) {
    std::string t = "func @f(%0:i64) -> i64 {\nbb0:\n  %1:i64 = mov %0\n";
    t += "  br.i64 slt %0, 0, bb2, bb1\nbb1:\n";
    for (int i = 0; i < adds; i++) t += "  %1:i64 = add %1, 3\n";
    return t + "  ret %1\nbb2:\n  ret 77\n}\n";
  };
  std::unique_ptr<runtime::Executor> ex = emu::CreateHostExecutor();
  for (const int adds : {4, 9000}) {
    const lir::Module m = lir::Parse(text(adds));
    const LoadedFunction f = LoadOnHost(*ex, m.functions.back(), CompileOptions{});
    const std::string d = Disassemble(f.code, reinterpret_cast<uintptr_t>(f.entry));
    const bool tbnz = d.find("tbnz x0, #0x3f") != std::string::npos;
    EXPECT_EQ(tbnz, adds == 4) << adds;
    EXPECT_EQ(d.find("cmp x0, #0") == std::string::npos, adds == 4) << adds;
    EXPECT_EQ(ex->CallInt(f.entry, {runtime::Arg::Int(static_cast<uint64_t>(-5))}), 77u) << adds;
    EXPECT_EQ(ex->CallInt(f.entry, {runtime::Arg::Int(5)}), 5u + 3u * adds) << adds;
  }
}

// A set byte flag or a NULL pointer (tracing on, or a call's error) in one branch is one
// compare of the pointer with the flag shifted to the top, then b.ls. Run on this host's
// executor (Unicorn on x86-64, natively on aarch64).
TEST(Codegen, FlagOrNullPointerIsOneCompare) {
  const lir::Module m = lir::Parse(
      "func @f(%0:ptr, %1:ptr) -> i64 {\nbb0:\n  %2:i8 = load [%0]\n"
      "  br.i8 ne %2, 0 or.ptr eq %1, 0, bb2, bb1\nbb1:\n  ret 1\nbb2:\n  ret 2\n}\n");
  std::unique_ptr<runtime::Executor> ex = emu::CreateHostExecutor();
  const LoadedFunction f = LoadOnHost(*ex, m.functions.back(), CompileOptions{});
  const std::string d = Disassemble(f.code, reinterpret_cast<uintptr_t>(f.entry));
  EXPECT_NE(d.find("lsl #56"), std::string::npos) << d;
  EXPECT_EQ(d.find("ccmp"), std::string::npos) << d;
  uint8_t flag = 0;
  const uint64_t object = reinterpret_cast<uintptr_t>(&flag);  // an address of this process
  const auto run = [&](uint8_t value, uint64_t pointer) {
    flag = value;
    return ex->CallInt(f.entry, {runtime::Arg::Int(object), runtime::Arg::Int(pointer)});
  };
  EXPECT_EQ(run(0, object), 1u);
  EXPECT_EQ(run(0, 0x0000fffffffff000), 1u);  // the top of a 48-bit address space
  EXPECT_EQ(run(0, 0), 2u);
  EXPECT_EQ(run(1, object), 2u);
  EXPECT_EQ(run(0x80, 0x0000fffffffff000), 2u);
  EXPECT_EQ(run(1, 0), 2u);
}

// The helper the tail calls below hand over to: it sees its two arguments, and its result is
// the caller's.
int g_tail_helper_calls = 0;
uint64_t TailHelper(uint64_t a, uint64_t b) {
  g_tail_helper_calls++;
  return a * 1000 + b;
}

// A tail call: the arguments placed, the frame gone (if there was one), then a `b` to the
// callee, which returns to the function's caller. @f has no frame; @g has one (a call and a
// value kept across it in a callee-saved register, restored before the branch). Run on this
// host's executor (Unicorn on x86-64, natively on aarch64).
TEST(Codegen, TailCallReturnsTheCalleesResultToTheCaller) {
  const lir::Module m = lir::Parse(
      "func @f(%0:i64, %1:i64) -> i64 {\nbb0:\n  br.i64 eq %0, 0, bb2, bb1\nbb1:\n  ret %1\n"
      "bb2:\n  tailcall @helper(%1, 7)\n}\n"
      "func @g(%0:i64, %1:i64) -> i64 {\nbb0:\n  %2:i64 = call @helper(%0, %1)\n"
      "  %3:i64 = add %2, %1\n  tailcall @helper(%3, %2)\n}\n");
  EXPECT_NE(lir::Print(m.functions[0]).find("tailcall @helper(%1, 7)"), std::string::npos);
  std::unique_ptr<runtime::Executor> ex = emu::CreateHostExecutor();
  emu::RegisterHelper(reinterpret_cast<const void*>(&TailHelper),
                      emu::HelperSignature{"TailHelper", 2, 0, runtime::RetKind::kInt});
  CompileOptions options;
  options.resolve = [](const std::string& name) -> std::optional<uint64_t> {
    if (name != "helper") return std::nullopt;
    return reinterpret_cast<uintptr_t>(&TailHelper);
  };
  const LoadedFunction f = LoadOnHost(*ex, m.functions[0], options);
  const LoadedFunction g = LoadOnHost(*ex, m.functions[1], options);
  EXPECT_TRUE(f.code.stats.frameless);
  EXPECT_FALSE(g.code.stats.frameless);
  const std::string listing = Disassemble(f.code, reinterpret_cast<uintptr_t>(f.entry));
  EXPECT_EQ(listing.find("bl "), std::string::npos) << listing;
  g_tail_helper_calls = 0;
  EXPECT_EQ(ex->CallInt(f.entry, {runtime::Arg::Int(1), runtime::Arg::Int(5)}), 5u);
  EXPECT_EQ(g_tail_helper_calls, 0);
  EXPECT_EQ(ex->CallInt(f.entry, {runtime::Arg::Int(0), runtime::Arg::Int(5)}), 5007u);
  EXPECT_EQ(g_tail_helper_calls, 1);
#if !defined(__aarch64__)
  EXPECT_GT(ex->last_call_stats().guest_instructions, 0u);  // Unicorn ran it
#endif
  // g(2, 3): helper(2, 3) = 2003, then helper(2006, 2003).
  EXPECT_EQ(ex->CallInt(g.entry, {runtime::Arg::Int(2), runtime::Arg::Int(3)}),
            2006u * 1000 + 2003);
  EXPECT_EQ(g_tail_helper_calls, 3);
}

TEST(Codegen, TailCallsAreCheckedByTheVerifier) {
  const auto error = [](const std::string& text) {
    try {
      lir::Parse(text);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("func @f(%0:ptr) -> i64 {\nbb0:\n  tailcall *%0(1)\n}\n").find("named callee"),
            std::string::npos);
  EXPECT_NE(error("func @f(%0:f64) -> i64 {\nbb0:\n  tailcall @h(%0)\n}\n").find("integers"),
            std::string::npos);
  EXPECT_NE(
      error("func @f(%0:i64) -> i64 {\nbb0:\n  tailcall @h(%0)\n  ret %0\n}\n").find("tailcall"),
      std::string::npos);
}

// What the release stub passed to its helper (RecordRelease), and how often it was called.
struct SeenRelease {
  uint64_t object = 0, frame = 0, word = 0, at = 0;
  int calls = 0;
} g_seen_release;
uint64_t RecordRelease(uint64_t object, uint64_t frame, uint64_t word, uint64_t at) {
  g_seen_release = SeenRelease{object, frame, word, at, g_seen_release.calls + 1};
  return ReleaseContinuation(word, at);
}

// A release (CompileOptions::release_stubs): a decref whose count reaches 0 ends in the LIR
// protocol `release_at @a64_dealloc_at`, made a `bl` to the stub of its object's and frame's
// registers and a data word holding the unit and the way back, which also stands for the cold
// block's jump. The stub hands the helper the object, the frame, the word and its address; the code
// goes on where the helper says. Run on this host's executor (Unicorn on x86-64, natively on
// aarch64).
TEST(Codegen, ReleaseByStubPassesItsOperandsAndGoesOnAfterTheDecref) {
  const std::string text =
      "func @f(%0:ptr, %1:ptr) -> ptr {\nbb0:\n"
      "  %2:i64 = load [%0]\n  %2:i64 = sub %2, 1\n  store.i64 %2, [%0]\n"
      "  br.i64 eq %2, 0, bb2, bb1\nbb1:\n  %3:ptr = add %1, 5\n  ret %3\n"
      "bb2:\n  release_at @a64_dealloc_at(%0, %1, 42)\n  jmp bb1\n}\n";
  const lir::Module m = lir::Parse(text);
  std::unique_ptr<runtime::Executor> ex = emu::CreateHostExecutor();
  CompileOptions options;
  options.release_stubs = LoadStubsCalling(*ex, ReleaseStubs, &RecordRelease, "RecordRelease", 4);
  const LoadedFunction f = LoadOnHost(*ex, m.functions.back(), options);
  EXPECT_EQ(f.code.stats.release_calls, 1);
  ASSERT_EQ(f.code.data_words.size(), 1u);
  const std::string listing = Disassemble(f.code, reinterpret_cast<uintptr_t>(f.entry));
  EXPECT_NE(listing.find(".word 0x"), std::string::npos) << listing;
  // The word stands for the jump back: the function ends with it (then the pool).
  EXPECT_EQ(f.code.data_words[0] + 4, f.code.stats.code_bytes) << listing;

  uint64_t object[2] = {1, 0};  // a count of 1: this decref releases it
  const uint64_t frame = 0x123450;
  g_seen_release = SeenRelease{};
  const uint64_t got = ex->CallInt(
      f.entry, {runtime::Arg::Int(reinterpret_cast<uintptr_t>(object)), runtime::Arg::Int(frame)});
  EXPECT_EQ(got, frame + 5);  // went on in bb1
  EXPECT_EQ(g_seen_release.calls, 1);
  EXPECT_EQ(g_seen_release.object, reinterpret_cast<uintptr_t>(object));
  EXPECT_EQ(g_seen_release.frame, frame);
  EXPECT_EQ(ReleaseUnit(g_seen_release.word), 42);
  EXPECT_EQ(g_seen_release.at, reinterpret_cast<uintptr_t>(f.entry) + f.code.data_words[0]);
#if !defined(__aarch64__)
  EXPECT_GT(ex->last_call_stats().guest_instructions, 0u);  // Unicorn ran it
#endif
  object[0] = 2;  // not the last reference: no release
  EXPECT_EQ(ex->CallInt(f.entry, {runtime::Arg::Int(reinterpret_cast<uintptr_t>(object)),
                                  runtime::Arg::Int(frame)}),
            frame + 5);
  EXPECT_EQ(g_seen_release.calls, 1);
  EXPECT_EQ(object[0], 1u);

  // Without stubs the call is emitted as written, the unit placed from its immediate.
  CompileOptions plain;
  plain.base_address = kBase;
  plain.resolve = [](const std::string&) { return std::optional<uint64_t>(0x7f0012345678); };
  const CompiledFunction p = Compile(m.functions.back(), plain);
  EXPECT_EQ(p.stats.release_calls, 0);
  EXPECT_TRUE(p.data_words.empty());
  EXPECT_NE(Disassemble(p, kBase).find("movz x2, #0x2a"), std::string::npos)
      << Disassemble(p, kBase);

  // A plain call of the same helper is a call: code generation goes by the op, never by the
  // callee's name.
  std::string plain_call = text;
  plain_call.replace(plain_call.find("release_at"), std::string("release_at").size(), "call");
  CompileOptions named = plain;
  named.release_stubs = options.release_stubs;
  const CompiledFunction c = Compile(lir::Parse(plain_call).functions.back(), named);
  EXPECT_EQ(c.stats.release_calls, 0);
  EXPECT_TRUE(c.data_words.empty());
}

// What the into-local stub passed to its helper (RecordIntoLocal), and what the helper says.
struct SeenIntoLocal {
  uint64_t a = 0, b = 0, at = 0;
  IntoLocalSite site;
  int calls = 0;
} g_seen_into_local;
bool g_into_local_fails = false;
uint64_t RecordIntoLocal(const uint64_t* regs, uint64_t at) {
  const IntoLocalSite site = IntoLocalSiteAt(at);
  g_seen_into_local =
      SeenIntoLocal{regs[site.a], regs[site.b], at, site, g_seen_into_local.calls + 1};
  return g_into_local_fails ? 0 : IntoLocalContinuation(site, at);
}

// A fused float store's generic path (CompileOptions::into_local_stub): the protocol
// binop_into_local @a64_binary_op_into_local becomes a `bl` to the one stub and two data words
// naming the operands' registers, `how` and the unit. With the failure's block next and the join
// placed
// (`branch` "eq", the status read by the branch alone), the words stand for the branch too;
// otherwise the stub returns the status for the branch as written. Both ways the code goes
// on at the join after a success and in the failure's block after a failure. Run on this
// host's executor (Unicorn on x86-64, natively on aarch64).
void CheckIntoLocalByStub(const std::string& branch, bool continued) {
  SCOPED_TRACE(branch);
  const std::string text =
      "func @f(%0:ptr, %1:ptr) -> ptr {\nbb0:\n  br.i64 ne %0, 0, bb2, bb1\n"
      "bb1:\n  %5:ptr = add %1, 5\n  ret %5\n"
      "bb2:\n  %3:i64 = binop_into_local @a64_binary_op_into_local(%1, %0, 6669, 31)\n  " +
      branch + "\nbb3:\n  ret 77\n}\n";
  const lir::Module m = lir::Parse(text);
  std::unique_ptr<runtime::Executor> ex = emu::CreateHostExecutor();
  CompileOptions options;
  options.into_local_stub =
      LoadStubsCalling(*ex, IntoLocalStub, &RecordIntoLocal, "RecordIntoLocal", 2);
  const LoadedFunction f = LoadOnHost(*ex, m.functions.back(), options);
  const std::string listing = Disassemble(f.code, reinterpret_cast<uintptr_t>(f.entry));
  EXPECT_EQ(f.code.stats.into_local_calls, 1) << listing;
  ASSERT_EQ(f.code.data_words.size(), 2u) << listing;
  const uint64_t first_word = reinterpret_cast<uintptr_t>(f.entry) + f.code.data_words[0];

  const uint64_t object = 0x123450, other = 0x555550;
  for (const bool fails : {false, true}) {
    g_into_local_fails = fails;
    g_seen_into_local = SeenIntoLocal{};
    const uint64_t got =
        ex->CallInt(f.entry, {runtime::Arg::Int(other), runtime::Arg::Int(object)});
    EXPECT_EQ(got, fails ? 77 : object + 5) << listing;
    EXPECT_EQ(g_seen_into_local.calls, 1);
    EXPECT_EQ(g_seen_into_local.a, object);
    EXPECT_EQ(g_seen_into_local.b, other);
    EXPECT_EQ(g_seen_into_local.site.how, 6669);
    EXPECT_EQ(g_seen_into_local.site.unit, 31);
    EXPECT_EQ(g_seen_into_local.site.continuation != 0, continued);
    EXPECT_EQ(g_seen_into_local.at, first_word);
#if !defined(__aarch64__)
    EXPECT_GT(ex->last_call_stats().guest_instructions, 0u);  // Unicorn ran it
#endif
  }
  g_into_local_fails = false;
}

TEST(Codegen, IntoLocalByStubGoesOnAtTheJoinOrTheFailure) {
  CheckIntoLocalByStub("br.i64 eq %3, 0, bb3, bb1", true);   // the words stand for it
  CheckIntoLocalByStub("br.i64 ne %3, 0, bb1, bb3", false);  // not the form: as written
}

TEST(Codegen, IntoLocalWordsRefuseWhatDoesNotFit) {
  EXPECT_TRUE(IntoLocalDataWords({3, 28, 6669, 65534, -32768}));
  EXPECT_FALSE(IntoLocalDataWords({29, 1, 6669, 31, 0}));       // x29 is not saved
  EXPECT_FALSE(IntoLocalDataWords({1, 2, 8192 << 12, 31, 0}));  // local 8192
  EXPECT_FALSE(IntoLocalDataWords({1, 2, 32, 31, 0}));          // operation 32
  EXPECT_FALSE(IntoLocalDataWords({1, 2, 6669, 65535, 0}));     // unit 65535
  EXPECT_FALSE(IntoLocalDataWords({1, 2, 6669, 31, 32768}));    // too far
  const auto words = IntoLocalDataWords({3, 28, 0x1a0d | 8191 << 12, 65534, -32768});
  ASSERT_TRUE(words);
  const IntoLocalSite back = DecodeIntoLocalWords(words->first, words->second);
  EXPECT_EQ(back.a, 3);
  EXPECT_EQ(back.b, 28);
  EXPECT_EQ(back.how, 0x1a0d | 8191 << 12);
  EXPECT_EQ(back.unit, 65534);
  EXPECT_EQ(back.continuation, -32768);
}

// Constant registers (CompileOptions::constant_registers): a wide constant stored four times
// is loaded once, in the prologue, into a callee-saved register allocation left unused, and
// each store reads it there. f's constant lives in that register across its call of g, which
// keeps a constant of its own in the same register: g must save and restore it. Run on this
// host's executor (Unicorn on x86-64, natively on aarch64).
TEST(Codegen, ConstantRegistersHoldTheirConstantAcrossCalls) {
  const std::string stores = [] {
    std::string text;
    for (int k = 0; k < 4; k++) text += "  store.i64 C, [%0 + " + std::to_string(8 * k) + "]\n";
    return text;
  }();
  const auto with = [&](const std::string& constant) {
    std::string text = stores;
    for (size_t at = text.find('C'); at != std::string::npos; at = text.find('C', at)) {
      text.replace(at, 1, constant);
    }
    return text;
  };
  const lir::Module m =
      lir::Parse("func @g(%0:ptr) -> i64 {\nbb0:\n" + with("81985529216486895") +
                 "  %1:i64 = call @helper(1, 2)\n  ret %1\n}\n"
                 "func @f(%0:ptr) -> i64 {\nbb0:\n  %2:ptr = add %0, 32\n  %1:i64 = call @g(%2)\n" +
                 with("1311768467463790320") + "  ret %1\n}\n");
  std::unique_ptr<runtime::Executor> ex = emu::CreateHostExecutor();
  emu::RegisterHelper(reinterpret_cast<const void*>(&TailHelper),
                      emu::HelperSignature{"TailHelper", 2, 0, runtime::RetKind::kInt});
  CompileOptions options;
  options.constant_registers = true;
  uint64_t g_entry = 0;
  options.resolve = [&](const std::string& name) -> std::optional<uint64_t> {
    if (name == "helper") return reinterpret_cast<uintptr_t>(&TailHelper);
    if (name == "g" && g_entry != 0) return g_entry;
    return std::nullopt;
  };
  const LoadedFunction g = LoadOnHost(*ex, m.functions[0], options);
  g_entry = reinterpret_cast<uintptr_t>(g.entry);
  const LoadedFunction f = LoadOnHost(*ex, m.functions[1], options);
  const std::string listing = Disassemble(f.code, reinterpret_cast<uintptr_t>(f.entry));
  EXPECT_EQ(f.code.stats.constant_registers, 1) << listing;
  EXPECT_EQ(g.code.stats.constant_registers, 1);
  size_t loads = 0;
  for (size_t at = listing.find("ldr x"); at != std::string::npos;
       at = listing.find("ldr x", at + 1)) {
    loads++;
  }
  EXPECT_EQ(loads, 1u) << listing;  // the constant's, in the prologue

  uint64_t memory[8] = {};
  g_tail_helper_calls = 0;
  EXPECT_EQ(ex->CallInt(f.entry, {runtime::Arg::Int(reinterpret_cast<uintptr_t>(memory))}), 1002u);
  EXPECT_EQ(g_tail_helper_calls, 1);
  for (int k = 0; k < 4; k++) {
    EXPECT_EQ(memory[k], 0x123456789abcdef0u) << k;      // f's, after the call
    EXPECT_EQ(memory[4 + k], 0x0123456789abcdefu) << k;  // g's
  }
#if !defined(__aarch64__)
  EXPECT_GT(ex->last_call_stats().guest_instructions, 0u);  // Unicorn ran it
#endif
}

// A stub with extra entries (stub_entries.h) after `mov x0, x19; mov x1, sp`: f keeps its first
// parameter across the call, in x19, and calls the first word; h does not (its parameter is in
// x0 when it calls), so it calls the second. Neither moves the vector, a slot at SP, into x1.
TEST(Codegen, StubEntriesPlaceTheThreadStateAndTheVector) {
  // A caller that stores %1 and 5 in its vector and calls the stub, then runs `rest`.
  const auto caller = [](const std::string& name, const std::string& rest) {
    return "func @" + name +
           "(%0:ptr, %1:i64) -> i64 {\n  slot ss0 = 16\nbb0:\n  %2:ptr = slotaddr ss0\n"
           "  store.i64 %1, [%2]\n  store.i64 5, [%2 + 8]\n"
           "  %3:i64 = call @stub(%0, %2, 7)\n" +
           rest + "}\n";
  };
  const lir::Module m = lir::Parse(R"(func @stub(%0:ptr, %1:ptr, %2:i64) -> i64 {
bb0:
  %3:i64 = load [%0]
  %4:i64 = load [%1]
  %5:i64 = load [%1 + 8]
  %6:i64 = mul %5, %2
  %7:i64 = add %3, %4
  %8:i64 = add %7, %6
  ret %8
}
)" + caller("f", "  %4:i64 = load [%0 + 8]\n  %5:i64 = add %3, %4\n  ret %5\n") +
                                   caller("h", "  ret %3\n"));
  std::unique_ptr<runtime::Executor> ex = emu::CreateHostExecutor();
  CompileOptions stub_options;
  stub_options.entry_moves = CallStubMoves();
  const LoadedFunction stub = LoadOnHost(*ex, m.functions[0], stub_options);
  ASSERT_EQ(stub.code.entry_offset, 8u);
  const uint64_t entry = reinterpret_cast<uintptr_t>(stub.entry) + stub.code.entry_offset;
  const std::string stub_listing = Disassemble(stub.code, reinterpret_cast<uintptr_t>(stub.entry));
  EXPECT_NE(stub_listing.find("0000: mov x0, x19\n0004: mov x1, sp\n"), std::string::npos)
      << stub_listing;
  const StubEntryTable table = {{entry, CallStubMoves()}};
  CompileOptions options;
  options.stub_entries = &table;
  options.resolve = [&](const std::string& name) -> std::optional<uint64_t> {
    if (name == "stub") return entry;
    return std::nullopt;
  };
  uint64_t thread[2] = {1000, 20000};
  const auto run = [&](const lir::Function& fn, uint64_t expected_entry, int64_t result) {
    const LoadedFunction loaded = LoadOnHost(*ex, fn, options);
    const std::string listing = Disassemble(loaded.code, reinterpret_cast<uintptr_t>(loaded.entry));
    EXPECT_EQ(loaded.code.stats.stub_entry_calls, 1) << listing;
    EXPECT_EQ(listing.find("x1, sp"), std::string::npos) << listing;  // the stub's move
    EXPECT_EQ(listing.find("mov x0, x19"), std::string::npos) << listing;
    EXPECT_NE(listing.find(", [sp]\n"), std::string::npos) << listing;  // the vector at SP
    char bl[32];
    std::snprintf(bl, sizeof bl, "bl #0x%llx", static_cast<unsigned long long>(expected_entry));
    EXPECT_NE(listing.find(bl), std::string::npos) << listing;
    EXPECT_EQ(ex->CallInt(loaded.entry, {runtime::Arg::Int(reinterpret_cast<uintptr_t>(thread)),
                                         runtime::Arg::Int(3)}),
              static_cast<uint64_t>(result))
        << listing;
#if !defined(__aarch64__)
    EXPECT_GT(ex->last_call_stats().guest_instructions, 0u);  // Unicorn ran it
#endif
  };
  run(m.functions[1], entry - 8, 1000 + 3 + 35 + 20000);
  run(m.functions[2], entry - 4, 1000 + 3 + 35);
}

// A slot address read as an index-free base or a call argument has no register
// (sp_addresses.h); read any other way (with an index, or stored) it keeps one. f stores
// through an index and stores the address itself, then reads both back.
TEST(Codegen, SlotAddressesReadOtherwiseKeepTheirRegister) {
  const lir::Module m = lir::Parse(R"(func @f(%0:i64, %1:i64) -> i64 {
  slot ss0 = 32
bb0:
  %2:ptr = slotaddr ss0
  store.i64 0, [%2 + 8]
  store.i64 %0, [%2 + %1 * 8]
  %3:i64 = load [%2 + 8]
  %4:ptr = slotaddr ss0
  store.ptr %4, [%4 + 24]
  %5:ptr = load [%4 + 24]
  %6:i64 = load [%5 + 8]
  %7:ptr = slotaddr ss0
  store.i64 7, [%7]
  %8:i64 = load [%7]
  %9:i64 = add %3, %6
  %10:i64 = add %9, %8
  ret %10
}
)");
  std::unique_ptr<runtime::Executor> ex = emu::CreateHostExecutor();
  const LoadedFunction f = LoadOnHost(*ex, m.functions[0], CompileOptions{});
  const std::string listing = Disassemble(f.code, reinterpret_cast<uintptr_t>(f.entry));
  EXPECT_NE(listing.find("str x0, [x"), std::string::npos) << listing;  // through a register
  EXPECT_NE(listing.find(", [sp]\n"), std::string::npos) << listing;    // %7 from SP
  EXPECT_EQ(ex->CallInt(f.entry, {runtime::Arg::Int(40), runtime::Arg::Int(1)}), 87u) << listing;
#if !defined(__aarch64__)
  EXPECT_GT(ex->last_call_stats().guest_instructions, 0u);  // Unicorn ran it
#endif
}

}  // namespace
}  // namespace a64jit::codegen
