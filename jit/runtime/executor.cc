#include "jit/runtime/executor.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "jit/codegen/disassembly.h"
#include "jit/runtime/call_stub.h"

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

Executor::Executor(const ExecutorOptions& options) : options_(options) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t stack = (options.stack_size + page - 1) / page * page;
  const size_t guard = 64 * 1024;  // big frames (sub sp, sp, #N) still land in it
  stack_mapping_size_ = stack + guard;
  stack_mapping_ = mmap(nullptr, stack_mapping_size_, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (stack_mapping_ == MAP_FAILED) {
    throw ExecutorError(std::string("guest stack: mmap failed: ") + std::strerror(errno));
  }
  if (mprotect(stack_mapping_, guard, PROT_NONE) != 0) {
    throw ExecutorError(std::string("guest stack: guard mprotect failed: ") + std::strerror(errno));
  }
  guard_low_ = reinterpret_cast<uintptr_t>(stack_mapping_);
  stack_low_ = guard_low_ + guard;
  stack_high_ = guard_low_ + stack_mapping_size_;
  code_.set_arena_listener([this](const uint8_t* base, size_t size) { ArenaAdded(base, size); });
}

Executor::~Executor() {
  if (stack_mapping_ != nullptr) munmap(stack_mapping_, stack_mapping_size_);
}

void Executor::Init() {
  const std::vector<uint8_t> stub = AssembleCallStub();
  stub_ = Load(stub);
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
  constexpr int kMaxDepth = 4096;
  if (depth_ >= kMaxDepth) {
    throw ExecutorError("Call: nesting deeper than " + std::to_string(kMaxDepth));
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

  const bool outermost = depth_ == 0;
  // The outermost call switches to the guest stack; nested calls continue on it.
  frame.new_sp = outermost ? stack_high_ : 0;
  if (outermost) current_ = CallStats{1, 0, 0, 0};

  struct DepthGuard {
    Executor* self;
    bool outermost;
    ~DepthGuard() {
      self->depth_--;
      if (outermost) {
        self->last_ = self->current_;
        self->total_.calls += self->current_.calls;
        self->total_.guest_instructions += self->current_.guest_instructions;
        self->total_.host_calls += self->current_.host_calls;
        self->total_.max_depth = std::max(self->total_.max_depth, self->current_.max_depth);
      }
    }
  };
  depth_++;
  current_.max_depth = std::max(current_.max_depth, depth_);
  DepthGuard guard{this, outermost};
  RunStub(&frame, depth_);
  return CallResult{frame.ret_x0, frame.ret_d0};
}

GuestFault::Kind Executor::ClassifyDataFault(uint64_t address, uint64_t sp) const {
  constexpr uint64_t kOverflowReach = 1u << 20;  // frames up to 1 MiB below the guard
  if (address < 0x10000) return GuestFault::Kind::kNullDereference;
  const uint64_t reach_low = guard_low_ > kOverflowReach ? guard_low_ - kOverflowReach : 0;
  if ((address >= reach_low && address < stack_low_) || (sp >= reach_low && sp < stack_low_)) {
    return GuestFault::Kind::kStackOverflow;
  }
  return GuestFault::Kind::kUnmappedAccess;
}

std::string Executor::DisassembleAround(uint64_t pc) {
  constexpr uint64_t kBefore = 4, kAfter = 3;  // instructions shown around pc
  pc &= ~uint64_t{3};
  std::string out;
  for (uint64_t at = pc >= kBefore * 4 ? pc - kBefore * 4 : 0; at <= pc + kAfter * 4; at += 4) {
    uint8_t word[4];
    if (!ReadGuest(at, word, 4)) continue;
    out += codegen::DisassembleAt(word, 4, at, pc);
  }
  return out.empty() ? "(no readable code at pc)\n" : out;
}

void InitExecutor(Executor* executor) { executor->Init(); }

}  // namespace a64jit::runtime
