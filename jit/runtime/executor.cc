#include "jit/runtime/executor.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "jit/codegen/disassembly.h"
#include "jit/runtime/call_trampoline.h"

namespace a64jit::runtime {

const char* ExecModeName(ExecMode mode) { return mode == ExecMode::kNative ? "native" : "unicorn"; }

const char* GuestFault::KindName(Kind kind) {
  switch (kind) {
    case Kind::kNullDereference:
      return "null dereference";
    case Kind::kUnmappedAccess:
      return "access to unmapped memory";
    case Kind::kProtection:
      return "protection violation";
    case Kind::kUndefinedInstruction:
      return "undefined instruction";
    case Kind::kBreakpoint:
      return "breakpoint (brk)";
    case Kind::kSystemCall:
      return "system call (svc) from guest code";
    case Kind::kMisalignedStack:
      return "misaligned stack pointer";
    case Kind::kStackOverflow:
      return "guest stack overflow";
    case Kind::kBadBranch:
      return "branch to non-code address";
    case Kind::kUnregisteredHostCall:
      return "call to unregistered host function";
  }
  return "fault";
}

namespace {

std::string FaultMessage(GuestFault::Kind kind, uint64_t pc, uint64_t address,
                         const std::string& detail, const std::string& disassembly) {
  char head[160];
  std::snprintf(head, sizeof head, "guest fault: %s at pc 0x%llx, address 0x%llx",
                GuestFault::KindName(kind), static_cast<unsigned long long>(pc),
                static_cast<unsigned long long>(address));
  std::string msg = head;
  if (!detail.empty()) msg += ": " + detail;
  if (!disassembly.empty()) msg += "\n" + disassembly;
  return msg;
}

}  // namespace

GuestFault::GuestFault(Kind kind, uint64_t pc, uint64_t address, std::string detail,
                       std::string disassembly)
    : std::runtime_error(FaultMessage(kind, pc, address, detail, disassembly)),
      kind_(kind),
      pc_(pc),
      address_(address),
      disassembly_(std::move(disassembly)) {}

namespace {

std::atomic<uint64_t> g_next_executor_id{1};

// This thread's share of every executor it called: executor id -> its ThreadCalls. A thread
// that ends frees its guest stacks with this table.
thread_local std::unordered_map<uint64_t, std::unique_ptr<Executor::ThreadCalls>> t_calls;

}  // namespace

Executor::ThreadCalls::ThreadCalls(size_t stack_size) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t stack = (stack_size + page - 1) / page * page;
  const size_t guard = 64 * 1024;  // big frames (sub sp, sp, #N) still land in it
  mapping_size = stack + guard;
  mapping = MapAwayFromCode(mapping_size);
  if (mapping == nullptr) {
    throw ExecutorError(std::string("guest stack: mmap failed: ") + std::strerror(errno));
  }
  if (mprotect(mapping, guard, PROT_NONE) != 0) {
    munmap(mapping, mapping_size);
    mapping = nullptr;
    throw ExecutorError(std::string("guest stack: guard mprotect failed: ") + std::strerror(errno));
  }
  guard_low = reinterpret_cast<uintptr_t>(mapping);
  stack_low = guard_low + guard;
  stack_high = guard_low + mapping_size;
}

Executor::ThreadCalls::~ThreadCalls() {
  if (mapping != nullptr) munmap(mapping, mapping_size);
}

Executor::Executor(const ExecutorOptions& options)
    : id_(g_next_executor_id.fetch_add(1)), options_(options) {
  code_.set_arena_listener([this](const uint8_t* base, size_t size) { ArenaAdded(base, size); });
  // The creating thread's stack now rather than on its first call: memory mapped in between
  // (and freed again) would otherwise lie right below the guard, where a fault reads as an
  // overflow.
  Calls();
}

Executor::~Executor() { t_calls.erase(id_); }

Executor::ThreadCalls& Executor::Calls() {
  // One entry remembered: a thread calls the same executor again and again.
  thread_local uint64_t last_id = 0;
  thread_local ThreadCalls* last = nullptr;
  if (last_id == id_ && last != nullptr) return *last;
  std::unique_ptr<ThreadCalls>& slot = t_calls[id_];
  if (slot == nullptr) slot = std::make_unique<ThreadCalls>(options_.stack_size);
  last_id = id_;
  last = slot.get();
  return *last;
}

CallStats Executor::last_call_stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return last_;
}

CallStats Executor::total_stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return total_;
}

void Executor::FinishOutermostCall(const CallStats& call) {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  last_ = call;
  total_.calls += call.calls;
  total_.guest_instructions += call.guest_instructions;
  total_.host_calls += call.host_calls;
  total_.host_calls_in_hook += call.host_calls_in_hook;
  total_.max_depth = std::max(total_.max_depth, call.max_depth);
}

void Executor::Init() {
  const std::vector<uint8_t> stub = AssembleCallTrampoline();
  stub_ = Load(stub);
  stub_size_ = stub.size();
}

const uint8_t* Executor::Load(const uint8_t* code, size_t size) {
  if (size == 0 || size % 4 != 0) {
    throw ExecutorError("Load: code size " + std::to_string(size) +
                        " is not a positive multiple of 4");
  }
  uint8_t* at = code_.Add(code, size);
  CodeFilled(at, size);
  return at;
}

void Executor::Patch(const uint8_t* at, const uint8_t* code, size_t size) {
  code_.Write(const_cast<uint8_t*>(at), code, size);
  CodeChanged(at, size);
}

CallResult Executor::Call(const void* entry, const std::vector<Arg>& args) {
  ThreadCalls& calls = Calls();
  if (calls.depth >= options_.max_nesting) {
    throw ExecutorError("Call: nesting deeper than " + std::to_string(options_.max_nesting));
  }
  CallFrame frame{};
  std::vector<uint64_t> stack_args;
  int ni = 0, nd = 0;
  for (const Arg& arg : args) {
    if (arg.is_double) {
      if (nd < 8) {
        frame.d[nd++] = arg.d;
      } else {
        uint64_t bits;
        std::memcpy(&bits, &arg.d, sizeof bits);
        stack_args.push_back(bits);
      }
    } else if (ni < 8) {
      frame.x[ni++] = arg.i;
    } else {
      stack_args.push_back(arg.i);
    }
  }
  frame.target = reinterpret_cast<uintptr_t>(entry);
  frame.nstack = stack_args.size();
  frame.stack_args = reinterpret_cast<uintptr_t>(stack_args.data());

  const bool outermost = calls.depth == 0;
  // The outermost call switches to the thread's guest stack; nested calls continue on it.
  frame.new_sp = outermost ? calls.stack_high : 0;
  if (outermost) {
    calls.current = CallStats{};
    calls.current.calls = 1;
  }

  struct DepthGuard {
    Executor* self;
    ThreadCalls& calls;
    bool outermost;
    ~DepthGuard() {
      calls.depth--;
      if (outermost) self->FinishOutermostCall(calls.current);
    }
  };
  calls.depth++;
  calls.current.max_depth = std::max(calls.current.max_depth, calls.depth);
  DepthGuard guard{this, calls, outermost};
  RunStub(&frame, calls.depth);
  return CallResult{frame.ret_x0, frame.ret_d0};
}

GuestFault::Kind Executor::ClassifyDataFault(uint64_t address, uint64_t sp) {
  constexpr uint64_t kOverflowReach = 1u << 20;  // frames up to 1 MiB below the guard
  if (address < 0x10000) return GuestFault::Kind::kNullDereference;
  const ThreadCalls& calls = Calls();
  const uint64_t reach_low =
      calls.guard_low > kOverflowReach ? calls.guard_low - kOverflowReach : 0;
  if ((address >= reach_low && address < calls.stack_low) ||
      (sp >= reach_low && sp < calls.stack_low)) {
    return GuestFault::Kind::kStackOverflow;
  }
  return GuestFault::Kind::kUnmappedAccess;
}

std::string Executor::DisassembleAround(uint64_t pc, int after) {
  constexpr uint64_t kBefore = 4;  // instructions shown before pc
  pc &= ~uint64_t{3};
  std::string out;
  const uint64_t last = pc + static_cast<uint64_t>(after) * 4;
  for (uint64_t at = pc >= kBefore * 4 ? pc - kBefore * 4 : 0; at <= last; at += 4) {
    uint8_t word[4];
    if (!ReadGuest(at, word, 4)) continue;
    out += codegen::DisassembleAt(word, 4, at, pc);
  }
  return out.empty() ? "(no readable code at pc)\n" : out;
}

void InitExecutor(Executor* executor) { executor->Init(); }

}  // namespace a64jit::runtime
