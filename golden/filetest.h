// Golden filetests: a file holds its input (LIR text) and, below a marker line, the
// expected output (disassembly and code sizes), each expected line prefixed with "; ".
// Check() compares; Bless() rewrites the expectation in place.
//
// Input directives (comment lines in the input part):
//   ; golden: force-long-ranges     compile as if the function were over 1 MiB
#ifndef A64JIT_GOLDEN_FILETEST_H_
#define A64JIT_GOLDEN_FILETEST_H_

#include <string>
#include <vector>

namespace a64jit::golden {

extern const char kMarker[];

struct FileTest {
  std::string input;     // everything above the marker
  std::string expected;  // the expectation, without "; " prefixes
};

FileTest SplitFileTest(const std::string& contents);
// The lines of `s`, without their newlines.
std::vector<std::string> Lines(const std::string& s);
// Appends the files in `dir` whose names end in `ext` (".hir") as dir + "/" + name, sorted;
// false if `dir` cannot be opened.
bool ListFiles(const std::string& dir, const std::string& ext, std::vector<std::string>* files);
// The output for an input: per function, a size line and the disassembly. Errors (parse,
// verify, compile) are output too, so a golden file can pin an error message.
std::string RenderLir(const std::string& input);
// The whole file with its expectation regenerated.
std::string Blessed(const FileTest& test, const std::string& actual);
// A unified diff (3 lines of context) from `expected` to `actual`; "" when equal.
std::string UnifiedDiff(const std::string& expected, const std::string& actual,
                        const std::string& name);

}  // namespace a64jit::golden

#endif  // A64JIT_GOLDEN_FILETEST_H_
