#include "golden/filetest.h"

#include <dirent.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

#include "jit/codegen/codegen.h"
#include "jit/lir/text.h"

namespace a64jit::golden {

const char kMarker[] =
    "; ---- expected output (bazel run //golden:bless rewrites what follows) ----";

namespace {

constexpr uint64_t kBase = 0x10000;  // where the first function is placed

}  // namespace

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool ListFiles(const std::string& dir, const std::string& ext, std::vector<std::string>* files) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return false;
  const size_t first = files->size();
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0) {
      files->push_back(dir + "/" + name);
    }
  }
  closedir(d);
  std::sort(files->begin() + static_cast<std::ptrdiff_t>(first), files->end());
  return true;
}

FileTest SplitFileTest(const std::string& contents) {
  FileTest t;
  const size_t at = contents.find(kMarker);
  if (at == std::string::npos) {
    t.input = contents;
    return t;
  }
  t.input = contents.substr(0, at);
  for (const std::string& line : Lines(contents.substr(at + sizeof kMarker - 1))) {
    if (line.empty()) continue;
    t.expected += (line.rfind("; ", 0) == 0  ? line.substr(2)
                   : line.rfind(";", 0) == 0 ? line.substr(1)
                                             : line) +
                  "\n";
  }
  return t;
}

std::string RenderLir(const std::string& input) {
  lir::Module m;
  try {
    m = lir::Parse(input);
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what() + "\n";
  }
  codegen::CompileOptions options;
  options.force_long_ranges = input.find("; golden: force-long-ranges") != std::string::npos;
  std::map<std::string, uint64_t> placed;
  options.resolve = [&](const std::string& name) -> std::optional<uint64_t> {
    if (placed.count(name)) return placed[name];
    auto it = m.externs.find(name);
    if (it != m.externs.end()) return it->second;
    return std::nullopt;
  };
  std::string out;
  uint64_t base = kBase;
  for (const lir::Function& f : m.functions) {
    options.base_address = base;
    codegen::CompiledFunction c;
    try {
      c = codegen::Compile(f, options);
    } catch (const std::exception& e) {
      out += "@" + f.name + ": error: " + e.what() + "\n";
      continue;
    }
    char head[200];
    std::snprintf(
        head, sizeof head, "@%s at 0x%llx: %zu bytes (code %zu, pool %zu), frame %lld, spills %d\n",
        f.name.c_str(), static_cast<unsigned long long>(base), c.bytes.size(), c.stats.code_bytes,
        c.stats.pool_bytes, static_cast<long long>(c.stats.frame_size), c.stats.spill_slots);
    out += head;
    out += codegen::Disassemble(c, base);
    placed[f.name] = base;
    base += (c.bytes.size() + 63) & ~size_t{63};
  }
  return out;
}

std::string Blessed(const FileTest& test, const std::string& actual) {
  std::string input = test.input;
  while (!input.empty() && input.back() == '\n') input.pop_back();
  std::string out = input + "\n" + kMarker + "\n";
  for (const std::string& line : Lines(actual)) out += "; " + line + "\n";
  return out;
}

std::string UnifiedDiff(const std::string& expected, const std::string& actual,
                        const std::string& name) {
  if (expected == actual) return "";
  const std::vector<std::string> a = Lines(expected), b = Lines(actual);
  const size_t n = a.size(), m = b.size();
  // Longest common subsequence table, then walk it into an edit script.
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  struct Edit {
    char op;
    size_t ai, bi;
  };
  std::vector<Edit> edits;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      edits.push_back({' ', i++, j++});
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      edits.push_back({'-', i++, j});  // deletions first, as diff(1) prints them
    } else {
      edits.push_back({'+', i, j++});
    }
  }
  std::string out = "--- " + name + " (expected)\n+++ " + name + " (actual)\n";
  // Hunks: runs of changes closer than 2 * kContext unchanged lines, plus context.
  constexpr size_t kContext = 3;
  std::vector<size_t> changes;
  for (size_t k = 0; k < edits.size(); k++) {
    if (edits[k].op != ' ') changes.push_back(k);
  }
  for (size_t c = 0; c < changes.size();) {
    size_t last = c;
    while (last + 1 < changes.size() && changes[last + 1] - changes[last] <= 2 * kContext) last++;
    const size_t begin = changes[c] >= kContext ? changes[c] - kContext : 0;
    const size_t end = std::min(edits.size(), changes[last] + kContext + 1);
    size_t a_count = 0, b_count = 0;
    for (size_t t = begin; t < end; t++) {
      a_count += edits[t].op != '+';
      b_count += edits[t].op != '-';
    }
    char header[64];
    std::snprintf(header, sizeof header, "@@ -%zu,%zu +%zu,%zu @@\n", edits[begin].ai + 1, a_count,
                  edits[begin].bi + 1, b_count);
    out += header;
    for (size_t t = begin; t < end; t++) {
      out += edits[t].op;
      out += (edits[t].op == '+' ? b[edits[t].bi] : a[edits[t].ai]) + "\n";
    }
    c = last + 1;
  }
  return out;
}

}  // namespace a64jit::golden
