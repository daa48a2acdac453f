// bazel run //golden:bless [-- FILE...]: regenerates the expected output of golden files in
// the source tree (all of golden/lir/*.lir, golden/hir/*.hir, golden/lower/*.lower and
// golden/passes/*.passes by default; a .passes file with check lines is left as it is) and says
// which ones changed. Commit the result together with the change that caused it: the diff is the
// review.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "golden/filetest.h"
#include "golden/hir_passes.h"
#include "golden/hir_render.h"

int main(int argc, char** argv) {
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  const std::string root = workspace != nullptr ? workspace : ".";
  std::vector<std::string> files;
  for (int i = 1; i < argc; i++) {
    std::string f = argv[i];
    files.push_back(f[0] == '/' ? f : root + "/" + f);
  }
  if (files.empty()) {
    for (const char* sub : {"lir", "hir", "lower", "passes"}) {
      const std::string dir = root + "/golden/" + sub;
      if (!a64jit::golden::ListFiles(dir, std::string(".") + sub, &files)) {
        std::fprintf(stderr, "bless: cannot open %s\n", dir.c_str());
        return 2;
      }
    }
    std::sort(files.begin(), files.end());
  }
  int changed = 0;
  for (const std::string& path : files) {
    std::ifstream in(path);
    if (!in) {
      std::fprintf(stderr, "bless: cannot read %s\n", path.c_str());
      return 2;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    const a64jit::golden::FileTest t = a64jit::golden::SplitFileTest(buf.str());
    if (!a64jit::golden::CheckLines(t.input).empty()) {  // judged by its checks, not blessed
      std::printf("checks   %s\n", path.c_str());
      continue;
    }
    const std::string blessed =
        a64jit::golden::Blessed(t, a64jit::golden::RenderFor(path, t.input));
    if (blessed != buf.str()) {
      std::ofstream(path) << blessed;
      changed++;
      std::printf("blessed  %s\n", path.c_str());
    } else {
      std::printf("same     %s\n", path.c_str());
    }
  }
  std::printf("bless: %zu files, %d rewritten\n", files.size(), changed);
  return 0;
}
