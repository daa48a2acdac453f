// Stock-vs-JIT comparison speed and memory on generated JUnit XML: two runs of 100,000 and
// of 1,000,000 testcases each (about 170 bytes of XML per testcase, 1,000 per file, a few
// failures, skips and reruns). Reports the input size and the process's peak RSS; run one
// size at a time (--benchmark_filter=/100000$ or /1000000$) for a clean peak.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "difftest/junit/compare.h"

namespace {
namespace fs = std::filesystem;

// Writes <root>/{stock,jit}/test_mNNN/test_mNNN.xml once; returns total bytes written.
uint64_t Generate(const std::string& root, int64_t cases) {
  const std::string done = root + "/.complete";
  uint64_t bytes = 0;
  if (fs::exists(done)) {
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.is_regular_file() && e.path().extension() == ".xml") bytes += fs::file_size(e.path());
    }
    return bytes;
  }
  fs::remove_all(root);
  const int64_t per_file = 1000;
  for (const char* side : {"stock", "jit"}) {
    for (int64_t f = 0; f * per_file < cases; f++) {
      const std::string module = "test_m" + std::to_string(f);
      fs::create_directories(root + "/" + side + "/" + module);
      std::string xml =
          "<?xml version=\"1.0\" encoding=\"utf-8\"?><testsuites><testsuite name=\"pytest\">\n";
      for (int64_t i = 0; i < per_file && f * per_file + i < cases; i++) {
        const int64_t n = f * per_file + i;
        xml += "<testcase classname=\"tests." + module + ".TestClass" + std::to_string(i % 17) +
               "\" name=\"test_case_number_" + std::to_string(n) + "[param]\" file=\"tests/" +
               module + ".py\" line=\"" + std::to_string(i) + "\" time=\"0.0123\"";
        const bool jit = side[0] == 'j';
        if (n % 997 == 0 || (jit && n % 10007 == 3)) {
          xml += "><failure message=\"assert 1 == 2\">Traceback ...</failure></testcase>\n";
        } else if (n % 101 == 0) {
          xml += "><skipped type=\"pytest.skip\" message=\"requires CUDA\"/></testcase>\n";
        } else if (jit && n % 5003 == 7) {
          xml += "><rerun message=\"flaky\"/></testcase>\n";
        } else {
          xml += "/>\n";
        }
      }
      xml += "</testsuite></testsuites>\n";
      std::ofstream(root + "/" + side + "/" + module + "/" + module + ".xml") << xml;
      bytes += xml.size();
    }
  }
  std::ofstream(done) << "ok";
  return bytes;
}

double PeakRssMb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

void BM_CompareRuns(benchmark::State& state) {
  const int64_t cases = state.range(0);
  const std::string root = "/tmp/a64jit-junit-bench-" + std::to_string(cases);
  const uint64_t input = Generate(root, cases);
  int exit_status = -1;
  for (auto _ : state) {
    const auto [stock, jit] = a64jit::junit::LoadSides(root + "/stock", "", root + "/jit", "");
    const nlohmann::json report = a64jit::junit::Compare(stock, jit);
    const std::string md = a64jit::junit::RenderMarkdown(report);
    benchmark::DoNotOptimize(md.data());
    exit_status = report["exit_status"].get<int>();
  }
  state.counters["input_mb"] = static_cast<double>(input) / 1e6;
  state.counters["peak_rss_mb"] = PeakRssMb();
  state.counters["peak_over_input"] = PeakRssMb() * 1048576.0 / static_cast<double>(input);
  state.counters["exit_status"] = exit_status;
}
BENCHMARK(BM_CompareRuns)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
