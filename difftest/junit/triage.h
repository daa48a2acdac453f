// What a night's reader acts on first: known failures (a file of test ids, each with a reason
// and an optional expiry, shown but not failing the night) and what changed since the night
// before (new regressions, regressions gone).
#ifndef A64JIT_DIFFTEST_JUNIT_TRIAGE_H_
#define A64JIT_DIFFTEST_JUNIT_TRIAGE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace a64jit::junit {

struct KnownFailure {
  std::string test;     // a test's key, or a glob over keys (fnmatch: *, ?, [...])
  std::string reason;   // why it fails, e.g. the issue that tracks it
  std::string expires;  // YYYY-MM-DD after which it fails the night again, or ""
};

// Reads a known-failures file, a JSON array of {"test", "reason", "expires"?}. Throws
// std::runtime_error naming the file and the entry for anything else.
std::vector<KnownFailure> LoadKnownFailures(const std::string& path);

// Moves each regression that a known failure matches, and that has not expired by `today`
// (YYYY-MM-DD), to report["known_failures"] with the reason; it no longer counts in its
// module or in the exit status. A match that expired stays a regression and says so
// (`known_failure`). Entries that matched no regression go to report["known_unmatched"]:
// fixed, or not run, and perhaps to be removed.
void ApplyKnownFailures(const std::vector<KnownFailure>& known, const std::string& today,
                        nlohmann::json* report);

// Against the previous night's report: marks each regression `new` (true when that night
// did not have it, as a regression or a known failure) and lists that night's regressions
// that are gone in report["since_last_night"] with the night's name.
void CompareWithLastNight(const nlohmann::json& previous, nlohmann::json* report);

}  // namespace a64jit::junit

#endif  // A64JIT_DIFFTEST_JUNIT_TRIAGE_H_
