#include "golden/hir_passes.h"

#include <sstream>

#include "golden/fake_addresses.h"
#include "golden/filetest.h"
#include "jit/compiler.h"
#include "jit/hir/fusions.h"
#include "jit/hir/number_forms.h"
#include "jit/hir/passes.h"
#include "jit/hir/text.h"
#include "jit/lir/text.h"

namespace a64jit::golden {

namespace {

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Runs one named pass; false if there is no such pass.
bool RunPass(const std::string& name, hir::Function& f) {
  if (name == "simplify") {
    hir::Simplify(f);
  } else if (name == "dead-code") {
    hir::EliminateDeadCode(f);
  } else if (name == "refcounts") {
    hir::InsertRefcounts(f);
  } else if (name == "store-targets") {
    hir::MarkStoreTargets(f, hir::RegisterCounts(f));
  } else if (name == "module-attrs") {
    hir::FuseModuleAttrs(f, hir::RegisterCounts(f));
  } else if (name == "isinstance-tests") {
    hir::FuseIsInstanceTests(f, hir::RegisterCounts(f));
  } else if (name == "call-checks") {
    hir::FuseCallChecks(f);
  } else if (name == "known-iterators") {
    hir::FuseKnownIterators(f, hir::RegisterCounts(f));
  } else if (name == "fusions") {
    hir::RunFusions(f);
  } else if (name == "number-forms") {
    const lower::RuntimeAddresses rt = FakeAddressesOfReprs(f.code);
    hir::ChooseNumberForms(f, lower::NumberFactsOf(rt));
  } else if (name == "all") {
    hir::RunPasses(f);
  } else {
    return false;
  }
  return true;
}

// The LIR lowering makes of `f` (then the LIR passes and the verifier, as the JIT runs them),
// with the golden files' fixed addresses.
std::string Lowered(hir::Function& f) {
  std::vector<lower::DeoptSite> sites;
  try {
    return lir::Print(
        compiler::LowerToLir(f, FakeAddressesOfReprs(f.code), f.code.qualname, &sites));
  } catch (const std::exception& e) {
    return std::string("error: lowering: ") + e.what() + "\n";
  }
}

}  // namespace

std::vector<Check> CheckLines(const std::string& input) {
  std::vector<Check> checks;
  for (const std::string& line : Lines(input)) {
    if (StartsWith(line, "; check: ")) checks.push_back({false, line.substr(9)});
    if (StartsWith(line, "; check-not: ")) checks.push_back({true, line.substr(13)});
  }
  return checks;
}

std::string RenderHirPasses(const std::string& input) {
  std::string hir_text;
  std::vector<std::string> passes;
  for (const std::string& line : Lines(input)) {
    if (StartsWith(line, "; run: ")) {
      std::istringstream names(line.substr(7));
      std::string name;
      while (std::getline(names, name, ',')) {
        while (!name.empty() && name[0] == ' ') name = name.substr(1);
        passes.push_back(name);
      }
    } else if (!StartsWith(line, "; check") && !StartsWith(line, "#")) {
      hir_text += line + "\n";
    }
  }
  if (passes.empty()) passes.push_back("all");
  try {
    hir::Function f = hir::Parse(hir_text);
    for (size_t i = 0; i < passes.size(); i++) {
      if (passes[i] == "lower" && i + 1 == passes.size()) return Lowered(f);
      if (!RunPass(passes[i], f)) return "error: no pass '" + passes[i] + "'\n";
    }
    return hir::Print(f);
  } catch (const hir::ParseError& e) {
    return std::string("error: ") + e.what() + "\n";
  }
}

std::string CheckFailure(const std::string& output, const std::vector<Check>& checks) {
  const std::vector<std::string> lines = Lines(output);
  size_t next = 0;
  for (const Check& check : checks) {
    if (check.absent) {
      for (const std::string& line : lines) {
        if (line.find(check.text) != std::string::npos) {
          return "a line contains '" + check.text + "' (check-not): " + line + "\nthe output:\n" +
                 output;
        }
      }
      continue;
    }
    while (next < lines.size() && lines[next].find(check.text) == std::string::npos) next++;
    if (next == lines.size()) {
      return "no line containing '" + check.text + "' after the previous check's; the output:\n" +
             output;
    }
    next++;
  }
  return "";
}

}  // namespace a64jit::golden
