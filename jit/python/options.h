// Every setting a64jit-run takes, as an option, an A64JIT_* variable or both, listed once:
// the table gives the runner's --help, the parsing of the options and of the environment,
// and jit/python/README.md's options table (options_table), so the three cannot drift apart.
#ifndef A64JIT_JIT_PYTHON_OPTIONS_H_
#define A64JIT_JIT_PYTHON_OPTIONS_H_

#include <string>
#include <vector>

#include "jit/python/jit.h"

namespace a64jit::python {

// What the options set: the JIT's configuration and what only the runner does.
struct RunSettings {
  Config jit;
  bool no_jit = false;
  bool stats = false;
  std::string stats_file;
  bool native_backtrace = false;
};

struct OptionSpec {
  const char* option;  // "--threshold", or nullptr: a variable only
  const char* value;   // the value's name ("N"), or nullptr: a flag (its variable is 0 or 1)
  const char* env;     // "A64JIT_THRESHOLD", or nullptr: an option only
  const char* help;    // one sentence; `code` in backquotes
  // Takes a value (a flag's "0" or "1") into `s`; returns "" or what is wrong with it.
  // nullptr: the variable is read where it acts (emulation/, the stubs), listed here only.
  std::string (*apply)(const std::string& value, RunSettings* s);
};

const std::vector<OptionSpec>& OptionTable();
// The entry of a runner option ("--threshold"), or nullptr.
const OptionSpec* FindOption(const std::string& option);
// The option and variable rows of --help, wrapped at 90 columns.
std::string OptionsHelp();
// The README's table: a header and a row per entry.
std::string OptionsMarkdown();
// Applies every variable of the table that is set and not empty, in table order. Throws
// std::invalid_argument "VARIABLE: what is wrong" for a bad value.
void ApplyEnvironment(RunSettings* s);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_OPTIONS_H_
