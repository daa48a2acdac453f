// The CPython 3.11 facts the frontend rests on (docs/cpython311.md), checked against
// Debian's python3.11 headers and libpython in both configurations: the
// _PyInterpreterFrame layout, the exported entry points, and the eval-frame hook.
#define Py_BUILD_CORE 1
#include <Python.h>
#include <gtest/gtest.h>
#include <internal/pycore_frame.h>
// Not pycore_interp.h: it pulls in pycore_atomic.h, whose C11 atomics do not compile as C++.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "jit/lower/object_layouts.h"
#include "jit/python/async_gen_layout.h"
#include "jit/python/attr_descriptors.h"
#include "jit/python/code_info.h"
#include "jit/python/interp_state.h"
#include "jit/python/runtime_state.h"
#include "jit/python/super_lookup.h"

namespace {

// LP64 layout; both Linux ABIs agree, so offsets taken on the x86 host hold for guest code.
static_assert(offsetof(_PyInterpreterFrame, f_func) == 0);
static_assert(offsetof(_PyInterpreterFrame, f_globals) == 8);
static_assert(offsetof(_PyInterpreterFrame, f_builtins) == 16);
static_assert(offsetof(_PyInterpreterFrame, f_locals) == 24);
static_assert(offsetof(_PyInterpreterFrame, f_code) == 32);
static_assert(offsetof(_PyInterpreterFrame, frame_obj) == 40);
static_assert(offsetof(_PyInterpreterFrame, previous) == 48);
static_assert(offsetof(_PyInterpreterFrame, prev_instr) == 56);
static_assert(offsetof(_PyInterpreterFrame, stacktop) == 64);
static_assert(offsetof(_PyInterpreterFrame, is_entry) == 68);
static_assert(offsetof(_PyInterpreterFrame, owner) == 69);
static_assert(offsetof(_PyInterpreterFrame, localsplus) == 72);

// Generators and coroutines share a header; compiled code finds gi_frame_state from the
// frame pointer at this fixed distance (lower.cc), for either.
static_assert(offsetof(PyGenObject, gi_iframe) - offsetof(PyGenObject, gi_frame_state) == 5);
static_assert(offsetof(PyCoroObject, cr_iframe) == offsetof(PyGenObject, gi_iframe));
static_assert(offsetof(PyCoroObject, cr_frame_state) == offsetof(PyGenObject, gi_frame_state));
static_assert(FRAME_SUSPENDED == -1 && FRAME_EXECUTING == 0);

std::map<std::string, int> g_frames;  // code name -> frames the hook saw

PyObject* CountingHook(PyThreadState* tstate, _PyInterpreterFrame* frame, int throwflag) {
  g_frames[PyUnicode_AsUTF8(frame->f_code->co_name)]++;
  return _PyEval_EvalFrameDefault(tstate, frame, throwflag);
}

// The globals of `source` run as a module (a new reference), or nullptr if it raised.
PyObject* RunModule(const char* source) {
  PyObject* globals = PyDict_New();
  PyObject* done = PyRun_String(source, Py_file_input, globals, globals);
  if (done == nullptr) {
    PyErr_Print();
    Py_DECREF(globals);
    return nullptr;
  }
  Py_DECREF(done);
  return globals;
}

class Python311 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { Py_InitializeEx(0); }
};

TEST_F(Python311, ExportedEntryPointsLink) {
  // Taking their addresses makes the link fail if libpython stopped exporting them.
  EXPECT_NE(reinterpret_cast<void*>(&_PyEval_EvalFrameDefault), nullptr);
  EXPECT_NE(reinterpret_cast<void*>(&_PyFunction_Vectorcall), nullptr);
  EXPECT_NE(reinterpret_cast<void*>(&_PyCode_GetExtra), nullptr);
  EXPECT_NE(reinterpret_cast<void*>(&_PyCode_SetExtra), nullptr);
  EXPECT_NE(reinterpret_cast<void*>(&_PyEval_RequestCodeExtraIndex), nullptr);
  EXPECT_NE(reinterpret_cast<void*>(&_PyObject_GetMethod), nullptr);
}

// The hook reads a code object's extra slots inline (runtime_state.h's CodeExtraSlot): it
// must see what _PyCode_SetExtra wrote, and nothing for a slot a code object has no room for.
TEST_F(Python311, CodeExtraSlotReadsWhatSetExtraWrote) {
  const Py_ssize_t first = _PyEval_RequestCodeExtraIndex(nullptr);
  const Py_ssize_t second = _PyEval_RequestCodeExtraIndex(nullptr);
  ASSERT_GE(first, 0);
  ASSERT_GT(second, first);
  PyObject* code = Py_CompileString("x = 1", "<extra>", Py_file_input);
  ASSERT_NE(code, nullptr);
  const auto* c = reinterpret_cast<PyCodeObject*>(code);
  EXPECT_EQ(a64jit::python::CodeExtraSlot(c, first), nullptr);  // no extra slots yet
  int marker = 0;
  ASSERT_EQ(_PyCode_SetExtra(code, second, &marker), 0);
  void* via_api = nullptr;
  ASSERT_EQ(_PyCode_GetExtra(code, second, &via_api), 0);
  EXPECT_EQ(via_api, &marker);
  EXPECT_EQ(a64jit::python::CodeExtraSlot(c, second), &marker);
  EXPECT_EQ(a64jit::python::CodeExtraSlot(c, first), nullptr);
  EXPECT_EQ(a64jit::python::CodeExtraSlot(c, second + 1), nullptr);  // past the slots it has
  EXPECT_EQ(a64jit::python::CodeExtraSlot(c, -1), nullptr);
  Py_DECREF(code);
}

TEST_F(Python311, EvalFrameHookSeesEveryCallAndDelegates) {
  PyInterpreterState* interp = PyInterpreterState_Get();
  g_frames.clear();
  _PyInterpreterState_SetEvalFrameFunc(interp, &CountingHook);
  const int rc = PyRun_SimpleString(
      "def f(x):\n"
      "    return x + 1\n"
      "total = 0\n"
      "for i in range(10):\n"
      "    total += f(i)\n"
      "assert total == 55, total\n");
  _PyInterpreterState_SetEvalFrameFunc(interp, &_PyEval_EvalFrameDefault);
  EXPECT_EQ(rc, 0);
  // With a hook installed CPython no longer inlines Python-to-Python calls: every call of
  // f is a hook call (the fact that makes the hook a counter and costs speed).
  EXPECT_EQ(g_frames["f"], 10);
  EXPECT_EQ(_PyInterpreterState_GetEvalFrameFunc(interp), &_PyEval_EvalFrameDefault);
}

// An exact int's deallocation is object's (tp_free, PyObject_Free) and nothing more, so the
// runtime's int free list (helpers_objects.cc a64_dealloc) may keep dead one-digit ints
// instead; a one-digit int is a PyLongObject of 32 bytes.
TEST_F(Python311, IntDeallocationOnlyFrees) {
  EXPECT_EQ(PyLong_Type.tp_dealloc, PyBaseObject_Type.tp_dealloc);
  EXPECT_EQ(PyLong_Type.tp_free, PyObject_Free);
  EXPECT_EQ(PyLong_Type.tp_finalize, nullptr);
  EXPECT_EQ(PyLong_Type.tp_weaklistoffset, 0);
  EXPECT_EQ(sizeof(PyLongObject), 32u);
  PyObject* medium = PyLong_FromLong(1000);
  EXPECT_EQ(Py_SIZE(medium), 1);
  Py_DECREF(medium);
}

// attr_descriptors.h's PropertyLayout is 3.11's propertyobject: a property made by libpython
// (builtins.property(fget, fset, fdel, doc)) has its getter, setter and deleter in those fields,
// its size is the type's, and a property without a getter has none there.
TEST_F(Python311, PropertyLayoutIsPropertyObjects) {
  PyObject* builtins = PyEval_GetBuiltins();
  PyObject* abs_fn = PyDict_GetItemString(builtins, "abs");
  PyObject* len_fn = PyDict_GetItemString(builtins, "len");
  PyObject* repr_fn = PyDict_GetItemString(builtins, "repr");
  ASSERT_NE(abs_fn, nullptr);
  PyObject* prop = PyObject_CallFunction(reinterpret_cast<PyObject*>(&PyProperty_Type), "OOOs",
                                         abs_fn, len_fn, repr_fn, "doc");
  ASSERT_NE(prop, nullptr);
  EXPECT_EQ(PyProperty_Type.tp_basicsize,
            static_cast<Py_ssize_t>(sizeof(a64jit::runtime::PropertyLayout)));
  EXPECT_EQ(a64jit::runtime::PropertyGetter(prop), abs_fn);
  auto* layout = reinterpret_cast<a64jit::runtime::PropertyLayout*>(prop);
  EXPECT_EQ(layout->prop_set, len_fn);
  EXPECT_EQ(layout->prop_del, repr_fn);
  Py_DECREF(prop);
  PyObject* setter_only =
      PyObject_CallFunction(reinterpret_cast<PyObject*>(&PyProperty_Type), "OO", Py_None, len_fn);
  ASSERT_NE(setter_only, nullptr);
  EXPECT_EQ(a64jit::runtime::PropertyGetter(setter_only), nullptr);  // None: no getter
  Py_DECREF(setter_only);
}

// interp_state.h's CurrentThreadState reads the slot PyThreadState_Get reads, on the main
// thread and on another (each sees its own), and NULL once the GIL is released.
TEST_F(Python311, CurrentThreadStateIsPyThreadStateGet) {
  EXPECT_EQ(CurrentThreadState(), PyThreadState_Get());
  PyThreadState* main = PyEval_SaveThread();
  EXPECT_EQ(CurrentThreadState(), nullptr);
  PyEval_RestoreThread(main);
  EXPECT_EQ(CurrentThreadState(), main);
  // A second thread state, made current on this OS thread while the GIL is held.
  PyThreadState* other = PyThreadState_New(main->interp);
  PyThreadState* previous = PyThreadState_Swap(other);
  EXPECT_EQ(CurrentThreadState(), other);
  EXPECT_EQ(PyThreadState_Get(), other);
  PyThreadState_Swap(previous);
  PyThreadState_Clear(other);
  PyThreadState_Delete(other);
  EXPECT_EQ(CurrentThreadState(), main);
}

TEST_F(Python311, TracingIsVisibleInCframe) {
  PyThreadState* tstate = PyThreadState_Get();
  EXPECT_EQ(tstate->cframe->use_tracing, 0);
  ASSERT_EQ(PyRun_SimpleString("import sys\nsys.settrace(lambda *a: None)\n"), 0);
  EXPECT_NE(tstate->cframe->use_tracing, 0) << "the JIT must fall back while tracing";
  ASSERT_EQ(PyRun_SimpleString("sys.settrace(None)\n"), 0);
  EXPECT_EQ(tstate->cframe->use_tracing, 0);
}

// COPY_FREE_VARS n, as 3.11's compiler emits it, fills the last n slots of localsplus with the
// closure's cells in order (frames.cc LowerCopyFreeVars, hir/passes.cc): n is co_nfreevars, and
// the free variables come after the locals and the cells that are not arguments.
TEST_F(Python311, FreeVariablesAreTheLastLocals) {
  PyObject* globals = PyDict_New();
  PyObject* done = PyRun_String(
      "def outer():\n"
      "    a = 1\n"
      "    b = 2\n"
      "    def inner(p):\n"
      "        q = p\n"
      "        c = 3\n"
      "        def innermost():\n"
      "            return c\n"
      "        return a + b + q\n"
      "    return inner\n"
      "f = outer()\n"
      "import dis\n"
      "ops = [(i.opname, i.arg) for i in dis.get_instructions(f)][:1]\n",
      Py_file_input, globals, globals);
  ASSERT_NE(done, nullptr);
  Py_DECREF(done);
  auto* func = reinterpret_cast<PyFunctionObject*>(PyDict_GetItemString(globals, "f"));
  auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
  EXPECT_EQ(code->co_nlocals, 3);         // p, q, innermost
  EXPECT_EQ(code->co_nplaincellvars, 1);  // c
  EXPECT_EQ(code->co_nfreevars, 2);       // a, b
  EXPECT_EQ(code->co_nlocals + code->co_nplaincellvars + code->co_nfreevars, code->co_nlocalsplus);
  PyObject* names = code->co_localsplusnames;
  EXPECT_STREQ(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, code->co_nlocalsplus - 2)), "a");
  EXPECT_STREQ(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, code->co_nlocalsplus - 1)), "b");
  EXPECT_EQ(PyTuple_GET_SIZE(func->func_closure), 2);
  // The first instruction: COPY_FREE_VARS 2.
  PyObject* ops = PyDict_GetItemString(globals, "ops");
  ASSERT_NE(ops, nullptr);
  PyObject* repr = PyObject_Repr(ops);
  EXPECT_STREQ(PyUnicode_AsUTF8(repr), "[('COPY_FREE_VARS', 2)]");
  Py_DECREF(repr);
  Py_DECREF(globals);
}

// Cold paths (jit/hir/builder.h) rest on how 3.11 quickens: every specialisable instruction
// becomes its adaptive form with its counter at 0, and its first run either specialises it or
// backs the counter off. So CodeInfo::unrun marks exactly the ones that have not run since:
// here the raise branch's LOAD_GLOBAL (never taken), and not the LOAD_ATTR that ran and could
// not specialise (int.real, a getset), nor the compare that specialised.
TEST_F(Python311, UnrunMarksAdaptiveInstructionsThatHaveNotRun) {
  PyObject* globals = PyDict_New();
  PyObject* done = PyRun_String(
      "def f(x):\n"
      "    if x > 100:\n"
      "        raise ValueError(x)\n"
      "    return x.real\n"
      "for i in range(50):\n"
      "    f(i)\n"
      "import dis\n"
      "offsets = {i.opname: i.offset for i in dis.get_instructions(f)}\n",
      Py_file_input, globals, globals);
  ASSERT_NE(done, nullptr);
  Py_DECREF(done);
  auto* func = reinterpret_cast<PyFunctionObject*>(PyDict_GetItemString(globals, "f"));
  auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
  ASSERT_EQ(code->co_warmup, 0);  // quickened
  const a64jit::hir::CodeInfo info = a64jit::python::CodeInfoOf(code, "facts");
  ASSERT_EQ(info.unrun.size(), info.code.size());
  PyObject* offsets = PyDict_GetItemString(globals, "offsets");
  auto unit = [&](const char* name) {
    PyObject* at = PyDict_GetItemString(offsets, name);
    return at != nullptr ? static_cast<size_t>(PyLong_AsLong(at) / 2) : info.code.size();
  };
  ASSERT_LT(unit("LOAD_GLOBAL"), info.code.size());
  EXPECT_EQ(info.unrun[unit("LOAD_GLOBAL")], 1);  // in the branch never taken
  EXPECT_EQ(info.unrun[unit("LOAD_ATTR")], 0);    // ran, not specialised
  EXPECT_EQ(info.unrun[unit("COMPARE_OP")], 0);   // ran, specialised
  int marked = 0;
  for (uint8_t u : info.unrun) marked += u;
  EXPECT_EQ(marked, 3);  // LOAD_GLOBAL, PRECALL and CALL of `raise ValueError(x)`
  Py_DECREF(globals);
}

// Compiled code boxes and frees floats through the interpreter's free list, as
// PyFloat_FromDouble and float deallocation do (arithmetic.cc BoxFloat, FreeFloat): the layout
// lowering mirrors is this build's (else AddressesOf leaves the inline path out), a freed float
// becomes the list's head and the next new float is that one, and tracemalloc's flag is where
// compiled code reads it.
TEST_F(Python311, FloatFreeListIsWhereCompiledCodeLooks) {
  PyObject* code = Py_CompileString("0.5", "<facts>", Py_eval_input);
  ASSERT_NE(code, nullptr);
  const auto rt = a64jit::python::AddressesOf(reinterpret_cast<PyCodeObject*>(code));
  Py_DECREF(code);
  ASSERT_NE(rt.float_free_list, 0u) << "struct _Py_float_state differs from FloatFreeListLayout";
  ASSERT_EQ(rt.float_free_list,
            reinterpret_cast<uintptr_t>(FloatFreeListAddress(PyInterpreterState_Get())));
  auto* list = reinterpret_cast<a64jit::lower::FloatFreeListLayout*>(rt.float_free_list);
  std::vector<PyObject*> drained;  // empties the list, so the next free goes on it
  for (int i = 0; i < a64jit::lower::kFloatFreeListMax + 20; i++) {
    drained.push_back(PyFloat_FromDouble(i));
  }
  EXPECT_EQ(list->numfree, 0);
  EXPECT_EQ(list->free_list, nullptr);
  PyObject* a = drained.back();
  drained.pop_back();
  Py_DECREF(a);
  EXPECT_EQ(list->numfree, 1);
  EXPECT_EQ(reinterpret_cast<PyObject*>(list->free_list), a);
  PyObject* b = PyFloat_FromDouble(2.5);
  EXPECT_EQ(b, a) << "PyFloat_FromDouble takes the list's head";
  EXPECT_EQ(list->numfree, 0);
  Py_DECREF(b);
  for (PyObject* f : drained) Py_DECREF(f);
  EXPECT_EQ(list->numfree, a64jit::lower::kFloatFreeListMax) << "the list stops at its maximum";

  const auto* tracing = reinterpret_cast<const int*>(rt.tracemalloc_tracing);
  EXPECT_EQ(*tracing, 0);
  ASSERT_EQ(PyRun_SimpleString("import tracemalloc\ntracemalloc.start()\n"), 0);
  EXPECT_EQ(*tracing, 1);
  ASSERT_EQ(PyRun_SimpleString("tracemalloc.stop()\n"), 0);
  EXPECT_EQ(*tracing, 0);
}

// async_gen_send.cc reads asend objects by async_gen_layout.h and puts an am_send where 3.11
// has none: the fields hold the generator, the value to send and the state, which moves from
// fresh to being sent to (an await inside passed a value out) to spent (the generator's value
// came back as StopIteration).
TEST_F(Python311, AsyncGenASendLayout) {
  using a64jit::python::AsyncGenASend;
  EXPECT_EQ(_PyAsyncGenASend_Type.tp_basicsize, static_cast<Py_ssize_t>(sizeof(AsyncGenASend)));
  EXPECT_EQ(_PyAsyncGenWrappedValue_Type.tp_basicsize,
            static_cast<Py_ssize_t>(sizeof(a64jit::python::AsyncGenWrappedValue)));
  ASSERT_NE(_PyAsyncGenASend_Type.tp_as_async, nullptr);
  EXPECT_EQ(_PyAsyncGenASend_Type.tp_as_async->am_send, nullptr);
  PyObject* globals = RunModule(
      "class Ready:\n"
      "    def __await__(self):\n"
      "        yield 'out'\n"
      "        return 5\n"
      "async def agen():\n"
      "    x = await Ready()\n"
      "    yield x\n"
      "g = agen()\n"
      "marker = object()\n"
      "with_value = g.asend(marker)\n"
      "a = g.__anext__()\n"
      "passed = a.send(None)\n");
  ASSERT_NE(globals, nullptr);
  const auto at = [&](const char* name) { return PyDict_GetItemString(globals, name); };
  const auto* with_value = reinterpret_cast<AsyncGenASend*>(at("with_value"));
  EXPECT_EQ(reinterpret_cast<PyObject*>(with_value->ags_gen), at("g"));
  EXPECT_EQ(with_value->ags_sendval, at("marker"));
  EXPECT_EQ(with_value->ags_state, a64jit::python::kAwaitableInit);
  auto* a = reinterpret_cast<AsyncGenASend*>(at("a"));
  EXPECT_EQ(a->ags_sendval, nullptr);
  EXPECT_EQ(a->ags_state, a64jit::python::kAwaitableIter);
  EXPECT_EQ(a->ags_gen->gi_running_async, 1);
  EXPECT_STREQ(PyUnicode_AsUTF8(at("passed")), "out");
  PyObject* result = nullptr;
  EXPECT_EQ(PyIter_Send(at("a"), Py_None, &result), PYGEN_RETURN);
  EXPECT_EQ(PyLong_AsLong(result), 5);
  Py_XDECREF(result);
  EXPECT_EQ(a->ags_state, a64jit::python::kAwaitableClosed);
  EXPECT_EQ(a->ags_gen->gi_running_async, 0);
  Py_DECREF(globals);
}

// super_lookup.cc reads super objects by SuperObject: the class given, the object, and the type
// whose MRO is searched (obj's type for an instance, obj itself for a class).
TEST_F(Python311, SuperObjectLayout) {
  using a64jit::python::SuperObject;
  EXPECT_EQ(PySuper_Type.tp_basicsize, static_cast<Py_ssize_t>(sizeof(SuperObject)));
  PyObject* globals = RunModule(
      "class A:\n"
      "    pass\n"
      "class B(A):\n"
      "    pass\n"
      "b = B()\n"
      "of_instance = super(B, b)\n"
      "of_class = super(A, B)\n");
  ASSERT_NE(globals, nullptr);
  const auto at = [&](const char* name) { return PyDict_GetItemString(globals, name); };
  const auto* of_instance = reinterpret_cast<SuperObject*>(at("of_instance"));
  EXPECT_EQ(reinterpret_cast<PyObject*>(of_instance->type), at("B"));
  EXPECT_EQ(of_instance->obj, at("b"));
  EXPECT_EQ(reinterpret_cast<PyObject*>(of_instance->obj_type), at("B"));
  const auto* of_class = reinterpret_cast<SuperObject*>(at("of_class"));
  EXPECT_EQ(reinterpret_cast<PyObject*>(of_class->type), at("A"));
  EXPECT_EQ(of_class->obj, at("B"));
  EXPECT_EQ(reinterpret_cast<PyObject*>(of_class->obj_type), at("B"));
  Py_DECREF(globals);
}

// a64_load_method_super reads the function a classmethod or staticmethod wraps
// (WrappedCallable) to bind it as their __get__ would.
TEST_F(Python311, ClassAndStaticMethodLayout) {
  using a64jit::python::WrappedCallable;
  EXPECT_EQ(PyClassMethod_Type.tp_basicsize, static_cast<Py_ssize_t>(sizeof(WrappedCallable)));
  EXPECT_EQ(PyStaticMethod_Type.tp_basicsize, static_cast<Py_ssize_t>(sizeof(WrappedCallable)));
  PyObject* globals = RunModule(
      "def f():\n"
      "    pass\n"
      "cm = classmethod(f)\n"
      "sm = staticmethod(f)\n");
  ASSERT_NE(globals, nullptr);
  PyObject* f = PyDict_GetItemString(globals, "f");
  EXPECT_EQ(reinterpret_cast<WrappedCallable*>(PyDict_GetItemString(globals, "cm"))->callable, f);
  EXPECT_EQ(reinterpret_cast<WrappedCallable*>(PyDict_GetItemString(globals, "sm"))->callable, f);
  Py_DECREF(globals);
}

}  // namespace
