// The executor interface: what the JIT's runtime needs to place aarch64 code and call it.
// The backends live in emulation/: natively on an aarch64 host (NativeExecutor) or, on an
// x86-64 host, under Unicorn inside the process that produced it (UnicornExecutor). Both
// take the same bytes and the same calls, so one test source runs in every configuration.
#ifndef A64JIT_JIT_RUNTIME_EXECUTOR_H_
#define A64JIT_JIT_RUNTIME_EXECUTOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "jit/runtime/code_memory.h"
#include "jit/runtime/code_sink.h"

namespace a64jit::runtime {

enum class ExecMode { kNative, kUnicorn };
const char* ExecModeName(ExecMode mode);

// One argument of an AAPCS64 call: an integer/pointer (X registers) or a double (D
// registers). The ninth and later argument of each kind goes on the stack, in order.
struct Arg {
  static Arg Int(uint64_t v) { return Arg{false, v, 0.0}; }
  static Arg Ptr(const void* p) { return Int(reinterpret_cast<uintptr_t>(p)); }
  static Arg Double(double v) { return Arg{true, 0, v}; }
  bool is_double;
  uint64_t i;
  double d;
};

// What a call returned: X0 and D0 after the callee's `ret` (the caller knows which counts).
struct CallResult {
  uint64_t x0 = 0;
  double d0 = 0.0;
};

// Statistics of one outermost call (nested calls included) or of an executor's lifetime.
struct CallStats {
  uint64_t calls = 0;               // outermost calls made
  uint64_t guest_instructions = 0;  // counted per translated block (Unicorn; 0 natively)
  uint64_t host_calls = 0;          // guest -> host helper calls (Unicorn; 0 natively)
  uint64_t host_calls_in_hook = 0;  // of those, made without stopping emulation (Unicorn)
  int max_depth = 0;                // deepest nesting of guest calls (host -> guest -> ...)
};

struct ExecutorOptions {
  // Unicorn: guest instructions one outermost call may execute before it is a Timeout.
  uint64_t instruction_budget = 20'000'000'000ull;
  // Native: wall-clock seconds one outermost call may run (instructions are not counted).
  double time_limit_seconds = 60.0;
  // Guest stack, below which lies a guard region; overflow is a GuestFault.
  size_t stack_size = 8u << 20;
  // Calls nested on one thread (host -> guest -> host -> guest ...) before Call refuses one
  // with ExecutorError. Each level takes host stack: the JIT, whose host frames run on a
  // stack of its own (jit/python/jit_stack.h), allows far more.
  int max_nesting = 4096;
  // Unicorn: count guest instructions with a hook per translated block, which also enforces
  // instruction_budget and checks SP's alignment at every block. The hook costs about a fifth
  // of the run time; off, instructions are not counted (0), no budget applies, and SP is
  // checked at host calls only. A64JIT_UNICORN_UNCOUNTED=1 turns it off.
  bool count_instructions = true;
  // Unicorn: also run a hook per instruction (slow; for tracing). Off: per-block counting.
  bool count_every_instruction = false;
  // Unicorn: print every executed instruction (pc, sp, disassembly) to stderr. Implies
  // count_every_instruction. Also enabled by the environment variable A64JIT_TRACE=1.
  bool trace = false;
};

// A fault of guest code: the host survives it and the executor stays usable.
class GuestFault : public std::runtime_error {
 public:
  enum class Kind {
    kNullDereference,  // data access below 64 KiB
    kUnmappedAccess,   // data access to memory the host does not have mapped
    kProtection,       // e.g. a write to read-only memory or code
    kUndefinedInstruction,
    kBreakpoint,            // brk
    kSystemCall,            // svc: guest code may not make system calls
    kMisalignedStack,       // SP not 16-byte aligned
    kStackOverflow,         // access in the guard region below the guest stack
    kBadBranch,             // branch to memory that is neither code nor a host helper
    kUnregisteredHostCall,  // branch to a host function with no registered signature
  };
  GuestFault(Kind kind, uint64_t pc, uint64_t address, std::string detail, std::string disassembly);
  Kind kind() const { return kind_; }
  uint64_t pc() const { return pc_; }
  uint64_t address() const { return address_; }
  const std::string& disassembly() const { return disassembly_; }
  static const char* KindName(Kind kind);

 private:
  Kind kind_;
  uint64_t pc_;
  uint64_t address_;
  std::string disassembly_;
};

// An outermost call ran past its instruction budget (Unicorn) or time limit (native).
class Timeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Misuse of the executor itself (bad arguments, resources exhausted).
class ExecutorError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Layout shared by the call trampoline (emitted aarch64 code) and C++; see call_trampoline.cc.
struct CallFrame {
  uint64_t x[8];
  double d[8];
  uint64_t target;      // function to call
  uint64_t new_sp;      // stack to switch to, 0 to stay on the current one
  uint64_t nstack;      // 8-byte stack argument slots
  uint64_t stack_args;  // address of those slots
  uint64_t ret_x0;
  double ret_d0;
};

class Executor : public CodeSink {
 public:
  virtual ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  virtual ExecMode mode() const = 0;

  // Copies code into executable memory (written, then made read+execute, caches flushed)
  // and returns its address.
  const uint8_t* Load(const uint8_t* code, size_t size) override;
  const uint8_t* Load(const std::vector<uint8_t>& code) { return Load(code.data(), code.size()); }
  uint64_t NextAddress() const override { return code_.NextAddress(); }
  // Rewrites loaded code in place; the i-cache / translation cache sees the new bytes.
  void Patch(const uint8_t* at, const uint8_t* code, size_t size) override;

  // Calls `entry` per AAPCS64. May be called re-entrantly from a host helper that guest
  // code called, and from any thread: each calling thread has its own guest stack and
  // nesting (and, under Unicorn, its own engine). Throws GuestFault, Timeout.
  CallResult Call(const void* entry, const std::vector<Arg>& args);
  uint64_t CallInt(const void* entry, const std::vector<Arg>& args) { return Call(entry, args).x0; }
  double CallDouble(const void* entry, const std::vector<Arg>& args) {
    return Call(entry, args).d0;
  }

  // The executor's own stub, through which Call enters guest code (native tools name it).
  const uint8_t* entry_stub() const { return stub_; }
  size_t entry_stub_size() const { return stub_size_; }
  // Code memory: bytes placed (each piece rounded up to 16) and bytes mapped for code.
  size_t code_bytes_used() const { return code_.used_bytes(); }
  size_t code_bytes_reserved() const { return code_.reserved_bytes(); }

  // Statistics of the most recent outermost call (of any thread), and of all calls so far.
  CallStats last_call_stats() const;
  CallStats total_stats() const;
  const ExecutorOptions& options() const { return options_; }
  // Limits for later calls (see ExecutorOptions).
  void set_instruction_budget(uint64_t budget) { options_.instruction_budget = budget; }
  // The calling thread's guest stack: [stack_low, stack_high).
  uint64_t stack_low() { return Calls().stack_low; }
  uint64_t stack_high() { return Calls().stack_high; }

  // What one calling thread has of this executor: its nesting depth, the statistics of its
  // outermost call in progress, and its guest stack. Made on the thread's first call, freed
  // when the thread ends or the executor goes.
  struct ThreadCalls {
    explicit ThreadCalls(size_t stack_size);
    ~ThreadCalls();
    ThreadCalls(const ThreadCalls&) = delete;
    ThreadCalls& operator=(const ThreadCalls&) = delete;
    int depth = 0;
    CallStats current;
    void* mapping = nullptr;
    size_t mapping_size = 0;
    uint64_t guard_low = 0, stack_low = 0, stack_high = 0;
  };

 protected:
  explicit Executor(const ExecutorOptions& options);
  // Emits the call trampoline; called by the factory once the subclass exists.
  void Init();
  friend void InitExecutor(Executor* executor);
  // Runs the call trampoline on `frame` at nesting `depth` (1 = outermost).
  virtual void RunStub(CallFrame* frame, int depth) = 0;
  // Code bytes in [begin, begin+size) changed (code there may have run before).
  virtual void CodeChanged(const uint8_t* begin, size_t size) = 0;
  // Code bytes in [begin, begin+size) were written where no code ever ran (a fresh Load):
  // no translation can be stale. Default: as CodeChanged.
  virtual void CodeFilled(const uint8_t* begin, size_t size) { CodeChanged(begin, size); }
  // Arena [begin, begin+size) was added to code memory.
  virtual void ArenaAdded(const uint8_t* begin, size_t size) = 0;

  ThreadCalls& Calls();  // the calling thread's
  // Identifies this executor in per-thread tables (never reused, unlike its address).
  uint64_t id() const { return id_; }

  const uint8_t* stub() const { return stub_; }
  CodeMemory& code_memory() { return code_; }
  bool IsGuestCode(uint64_t pc) const { return code_.Contains(pc); }
  // Classifies a faulting data access (against the calling thread's stack).
  GuestFault::Kind ClassifyDataFault(uint64_t address, uint64_t sp);
  // Reads guest-visible memory for a fault report; false if it is not readable.
  virtual bool ReadGuest(uint64_t address, void* out, size_t size) = 0;
  // Capstone disassembly of the instructions around `pc`, `pc` marked: four before it and
  // `after` after it.
  std::string DisassembleAround(uint64_t pc, int after = 3);

  void FinishOutermostCall(const CallStats& call);

 private:
  const uint64_t id_;
  ExecutorOptions options_;
  CodeMemory code_;
  const uint8_t* stub_ = nullptr;
  size_t stub_size_ = 0;
  mutable std::mutex stats_mutex_;  // last_ and total_: outermost calls end on any thread
  CallStats last_, total_;
};

// Finishes construction (emits the call trampoline); for the backends' factories
// (emulation/executors.h).
void InitExecutor(Executor* executor);

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_RUNTIME_EXECUTOR_H_
