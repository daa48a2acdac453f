// lir_fuzz: random LIR programs run by the interpreter and as emitted code on this host's
// executor (Unicorn on x86-64, native on aarch64 / QEMU), compared bit for bit. A mismatch
// is shrunk to a small reproducer and printed as LIR text; the exit status is non-zero if
// any program mismatched (or the generator produced an invalid one).
//
//   bazel run //difftest:lir_fuzz -- --iterations=100000 --seed=1
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "difftest/lir/generator.h"
#include "difftest/lir/lir_diff.h"
#include "difftest/lir/shrink.h"
#include "jit/lir/text.h"

namespace {

struct Flags {
  uint64_t iterations = 1000;
  uint64_t seed = 1;
  uint64_t progress = 1000;
  int statements = 40;
  bool shrink = true;
  std::string out_dir;
};

bool ParseFlag(const char* arg, const char* name, std::string* value) {
  const size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
  *value = arg + n + 1;
  return true;
}

uint64_t ToNumber(const std::string& s, const char* flag) {
  char* end = nullptr;
  errno = 0;
  const uint64_t v = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || errno != 0 || *end != '\0') {
    std::fprintf(stderr, "lir_fuzz: %s wants a number, got '%s'\n", flag, s.c_str());
    std::exit(2);
  }
  return v;
}

std::string Reproducer(const a64jit::lir::Module& m, const a64jit::difftest::DiffInput& in,
                       uint64_t program_seed, const std::string& detail) {
  std::string s = "; lir_fuzz reproducer (program seed " + std::to_string(program_seed) + ")\n";
  s += "; mismatch: " + detail + "\n; call @" + in.entry + "(memory[" +
       std::to_string(in.memory_size) + "] seed " + std::to_string(in.memory_seed);
  for (const auto& a : in.args) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ", 0x%" PRIx64, a.bits);
    s += buf;
  }
  return s + ")\n" + a64jit::lir::Print(m);
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; i++) {
    std::string v;
    if (ParseFlag(argv[i], "--iterations", &v)) {
      flags.iterations = ToNumber(v, "--iterations");
    } else if (ParseFlag(argv[i], "--seed", &v)) {
      flags.seed = ToNumber(v, "--seed");
    } else if (ParseFlag(argv[i], "--progress", &v)) {
      flags.progress = ToNumber(v, "--progress");
    } else if (ParseFlag(argv[i], "--statements", &v)) {
      flags.statements = static_cast<int>(ToNumber(v, "--statements"));
    } else if (ParseFlag(argv[i], "--out", &v)) {
      flags.out_dir = v;
    } else if (std::strcmp(argv[i], "--no-shrink") == 0) {
      flags.shrink = false;
    } else {
      std::fprintf(stderr,
                   "usage: lir_fuzz [--iterations=N] [--seed=S] [--progress=N] "
                   "[--statements=N] [--out=DIR] [--no-shrink]\nunknown argument: %s\n",
                   argv[i]);
      return 2;
    }
  }
  a64jit::difftest::GenOptions options;
  options.statements = flags.statements;
  a64jit::difftest::LirDiff diff;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  uint64_t mismatches = 0, invalid = 0, done = 0;
  std::printf("lir_fuzz: %" PRIu64 " programs from seed %" PRIu64 ", executor %s\n",
              flags.iterations, flags.seed, diff.mode());
  for (uint64_t i = 0; i < flags.iterations; i++) {
    const uint64_t program_seed = flags.seed * 1000003u + i;
    a64jit::difftest::GeneratedProgram p = a64jit::difftest::GenerateProgram(program_seed, options);
    a64jit::difftest::DiffOutcome o = diff.Check(p.module, p.input);
    done++;
    if (o.kind == a64jit::difftest::DiffOutcome::Kind::kInvalid) {
      invalid++;
      std::printf("INVALID program (generator bug), seed %" PRIu64 ": %s\n%s", program_seed,
                  o.detail.c_str(), a64jit::lir::Print(p.module).c_str());
    } else if (o.kind == a64jit::difftest::DiffOutcome::Kind::kMismatch) {
      mismatches++;
      a64jit::lir::Module small = p.module;
      if (flags.shrink) {
        // Candidates get a step budget near the original's, so one that loops forever
        // (a loop branch turned into a jump) is rejected at once.
        a64jit::difftest::DiffInput bounded = p.input;
        const uint64_t steps = diff.Check(p.module, p.input).interpreter_steps;
        bounded.step_budget = 4 * steps + 10000;
        small = a64jit::difftest::Shrink(p.module, "f", [&](const a64jit::lir::Module& m) {
          return diff.Check(m, bounded).kind == a64jit::difftest::DiffOutcome::Kind::kMismatch;
        });
        p.input = bounded;
      }
      const std::string detail = diff.Check(small, p.input).detail;
      const std::string text = Reproducer(small, p.input, program_seed, detail);
      std::printf("MISMATCH in program %" PRIu64 " (seed %" PRIu64 "): %s\n%s\n", i, program_seed,
                  o.detail.c_str(), text.c_str());
      if (!flags.out_dir.empty()) {
        std::ofstream(flags.out_dir + "/mismatch_" + std::to_string(program_seed) + ".lir") << text;
      }
    }
    if (flags.progress > 0 && done % flags.progress == 0) {
      std::printf("[lir_fuzz] %" PRIu64 "/%" PRIu64 " programs, %" PRIu64 " mismatches, %" PRIu64
                  " invalid, %.0f programs/s, %" PRIu64 " guest instructions\n",
                  done, flags.iterations, mismatches, invalid, done / elapsed(),
                  diff.total_guest_instructions());
      std::fflush(stdout);
    }
  }
  std::printf("lir_fuzz: %" PRIu64 " programs, %" PRIu64 " mismatches, %" PRIu64
              " invalid, seed %" PRIu64 ", %.1f s (%.0f programs/s), executor %s, %" PRIu64
              " guest instructions\n",
              done, mismatches, invalid, flags.seed, elapsed(), done / elapsed(), diff.mode(),
              diff.total_guest_instructions());
  return mismatches == 0 && invalid == 0 ? 0 : 1;
}
