// When the eval-frame hook goes in (Config::start_delay_ms). With a delay, a waker thread
// sleeps until it is due, takes the GIL and calls the install function; a process that ends
// first never had the hook and ran as stock. The waker then ticks for loop entries
// (loop_entry.h) while the JIT is on. The waker is stopped and joined at exit
// (atexit) and around os.fork (no thread at the fork itself; each side then waits out what
// is left of the delay).
#ifndef A64JIT_JIT_PYTHON_START_DELAY_H_
#define A64JIT_JIT_PYTHON_START_DELAY_H_

#include <cstdint>

#include "jit/python/jit.h"

namespace a64jit::python {

// The delay for `config`, in milliseconds: its start_delay_ms, or for kAutoStartDelay three
// times the process's CPU time so far when the tiering policy runs with a budget, else 0.
int64_t StartDelayMs(const Config& config);

// Calls prepare() (without the GIL: work that can go on while the program runs) and then
// install() (holding the GIL) delay_ms from now, on a thread of its own, which then
// calls tick() (without the GIL) every kTickMs until the JIT is disabled or the interpreter
// finalizes. With `cpu_time` (the automatic delay, which is a CPU time) not before the
// process has also used delay_ms more of CPU time: a process that sleeps, waits for I/O or
// shares its cores has done that much less of its work by then. Called with the GIL held. A
// later ArmHook or DisarmHook cancels a call not yet made, and the ticks. False when the waker
// cannot be set up (the caller installs at once).
constexpr int64_t kTickMs = 20;
// prepare() asks go_on(context) now and then, and stops when the waker is cancelled.
bool ArmHook(int64_t delay_ms, bool cpu_time, void (*prepare)(bool (*go_on)(void*), void*),
             void (*install)(), void (*tick)());
void DisarmHook();

// For a start that fails when the delay ends (the engine could not be made): the Python
// error set then, printed to stderr and cleared; there is no caller to raise it to.
void ReportLateStartFailure();

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_START_DELAY_H_
