// What the JUnit tests share: a temporary directory to write reports into, and a report.
#ifndef A64JIT_DIFFTEST_JUNIT_TEST_UTIL_H_
#define A64JIT_DIFFTEST_JUNIT_TEST_UTIL_H_

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace a64jit::junit::testing {

// A fresh directory under /tmp, removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/junit_test.XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  // Writes `text` to `rel` under the directory (making its folders); returns its path.
  std::string Write(const std::string& rel, const std::string& text) const {
    const std::filesystem::path p = std::filesystem::path(path_) / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A JUnit report of the given <testcase> elements.
inline std::string Suite(const std::string& cases) {
  return "<?xml version=\"1.0\"?><testsuites><testsuite name=\"s\">" + cases +
         "</testsuite></testsuites>";
}

}  // namespace a64jit::junit::testing

#endif  // A64JIT_DIFFTEST_JUNIT_TEST_UTIL_H_
