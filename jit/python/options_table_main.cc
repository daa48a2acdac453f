// options_table: the README's table of a64jit-run's options and A64JIT_* variables, made
// from options.h's table.
//
//   options_table                  prints the table (Markdown)
//   options_table --update FILE    replaces the table in FILE (the block that starts with
//                                  its header row), e.g. jit/python/README.md
//
// Under `bazel run` a relative FILE is the caller's. Exit status: 0, 1 when FILE has no such
// table or cannot be written, 64 a usage error.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "jit/python/options.h"

namespace {

// Replaces the table in `text` (from its header line to the first line not starting with
// '|') by `table`; false when `text` has none.
bool ReplaceTable(std::string* text, const std::string& table) {
  const std::string header = table.substr(0, table.find('\n') + 1);
  const size_t start = text->find(header);
  if (start == std::string::npos) return false;
  size_t end = start;
  while (end < text->size() && (*text)[end] == '|') {
    const size_t nl = text->find('\n', end);
    end = nl == std::string::npos ? text->size() : nl + 1;
  }
  text->replace(start, end - start, table);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string table = a64jit::python::OptionsMarkdown();
  if (argc == 1) {
    std::fputs(table.c_str(), stdout);
    return 0;
  }
  if (argc != 3 || std::string(argv[1]) != "--update") {
    std::fputs("usage: options_table [--update FILE]\n", stderr);
    return 64;
  }
  std::string path = argv[2];
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path[0] != '/' && cwd != nullptr) path = std::string(cwd) + "/" + path;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  if (!in || !ReplaceTable(&s, table)) {
    std::fprintf(stderr, "options_table: %s has no table starting '%s'\n", path.c_str(),
                 table.substr(0, table.find('\n')).c_str());
    return 1;
  }
  std::ofstream out(path);
  out << s;
  if (!out) {
    std::fprintf(stderr, "options_table: cannot write %s\n", path.c_str());
    return 1;
  }
  std::printf("options_table: %s updated\n", path.c_str());
  return 0;
}
