// Generators and coroutines whose code is compiled resume in it directly while the JIT is
// enabled, without _PyEval_EvalFrame and the eval-frame hook (about 200 guest instructions a
// resume under QEMU): PyGen_Type's tp_iternext (next(), `for`, C iteration such as sum) and
// the am_send of generators and coroutines (`yield from`, `await`, PyIter_Send, asyncio's
// tasks) stand in for 3.11's own, and do what its gen_send_ex2 does around the run
// (docs/cpython311.md). A generator that is running or finished, a first send of a value
// other than None, and code that is not compiled take 3.11's functions, which raise its
// errors. send(), throw() and close() called as methods keep 3.11's path through the hook.
#ifndef A64JIT_JIT_PYTHON_GENERATOR_SLOTS_H_
#define A64JIT_JIT_PYTHON_GENERATOR_SLOTS_H_

namespace a64jit::python {

// Puts the stand-ins in (once; from the JIT's enable, holding the GIL).
void InstallGeneratorSlots();
// Puts 3.11's own functions back (the JIT's disable).
void RestoreGeneratorSlots();

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_GENERATOR_SLOTS_H_
