// Records the arguments and outcome of calls to chosen functions, for the reproducers that
// difftest/bisect writes (A64JIT_CAPTURE=PATTERN, A64JIT_CAPTURE_FILE=PATH).
//
// The eval-frame hook asks BeginCapture() before the interpreter runs a frame of a matching
// function and hands the result to EndCapture(). Calls into compiled code are not recorded:
// the bisector captures in a run that compiles nothing, and the path into compiled code stays
// free of the test. A call is written only when every argument is a plain value, one whose
// repr() reads back as the same value with ast.literal_eval: None, bool, int, finite float,
// str, bytes, and tuples, lists and dicts of plain values. Its result is written as its
// repr when plain, else by type; an exception by its type's name. One JSON object a line.
#ifndef A64JIT_JIT_PYTHON_CALL_CAPTURE_H_
#define A64JIT_JIT_PYTHON_CALL_CAPTURE_H_

#include <Python.h>
#include <internal/pycore_frame.h>

#include <nlohmann/json.hpp>
#include <string>

namespace a64jit::python {

struct CaptureSettings {
  std::string file;    // where the records go (appended)
  int max_calls = 50;  // plain calls written per process
};

// Starts capturing (an empty file: stops).
void ConfigureCapture(const CaptureSettings& settings);
// Read on every frame the hook sees: a plain flag, so that the check costs a load.
extern bool g_capture_active;
inline bool CaptureActive() { return g_capture_active; }

// The record of `frame`'s arguments, or null when the call is not captured (a generator, a
// closure, an argument that is not plain: the first such reason is written once). `name`
// is the function's module:qualname.
nlohmann::ordered_json BeginCapture(const std::string& name, _PyInterpreterFrame* frame);
// Completes and writes the record with the call's result (NULL: the exception set).
void EndCapture(nlohmann::ordered_json record, PyObject* result);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_CALL_CAPTURE_H_
