// UnicornExecutor: runs aarch64 guest code under Unicorn 2 inside the x86-64 host process.
//
// Address space: the guest sees host memory at the same addresses. Code arenas and the
// guest stack are mapped for good; any other host page is mapped on first touch, with the
// host's read/write protection (never execute), and only if /proc/self/maps shows it. Those
// on-demand mappings stay between outermost calls while the host still backs them as they
// were mapped (checked against /proc/self/maps when an outermost call starts), so a later
// call cannot reach memory the host has since unmapped.
//
// Host calls: a guest branch to a host address faults on instruction fetch; emulation
// stops, the run loop calls the registered helper with X0-X7/D0-D7, writes X0/D0, and
// resumes at LR. uc_emu_start is therefore never nested: a helper that calls back into
// guest code starts a new run after saving the suspended guest context.
#include <unicorn/unicorn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "jit/codegen/disassembly.h"
#include "emulation/executors.h"
#include "emulation/helper_registry.h"
#include "emulation/host_maps.h"

namespace a64jit::emu {
namespace {

using codegen::DisassembleAt;
using runtime::CallFrame;
using runtime::CallHost;
using runtime::ExecutorError;
using runtime::GuestFault;
using runtime::HostCallResult;
using runtime::Timeout;

// Return address of every call: below mmap_min_addr, so the host never maps it; emulation
// stops on reaching it (uc_emu_start's `until`).
constexpr uint64_t kReturnSentinel = 0x1000;
constexpr uint64_t kWindow = 64 * 1024;  // on-demand mapping granularity
constexpr size_t kMaxOnDemandMappings = 512;

// QEMU's AArch64 exception numbers, as delivered to UC_HOOK_INTR.
constexpr uint32_t kExcpUdef = 1;
constexpr uint32_t kExcpSwi = 2;
constexpr uint32_t kExcpBkpt = 7;

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

class UnicornExecutor : public Executor {
 public:
  explicit UnicornExecutor(const ExecutorOptions& options);
  ~UnicornExecutor() override;
  ExecMode mode() const override { return ExecMode::kUnicorn; }

 protected:
  void RunStub(CallFrame* frame, int depth) override;
  void CodeChanged(const uint8_t* begin, size_t size) override;
  // Nothing was translated there: skip uc_ctl_remove_cache (in Unicorn 2.0.1 a long run
  // with thousands of them ended in a crash inside page_collection_lock).
  void CodeFilled(const uint8_t*, size_t) override {}
  void ArenaAdded(const uint8_t* begin, size_t size) override;
  bool ReadGuest(uint64_t address, void* out, size_t size) override;

 private:
  // Why the current uc_emu_start stopped, as recorded by the hooks.
  struct Stop {
    enum What { kNone, kHostCall, kFault, kTimeout } what = kNone;
    GuestFault::Kind kind = GuestFault::Kind::kUnmappedAccess;
    uint64_t pc = 0, address = 0;
    std::string detail;
  };

  void Check(uc_err err, const char* what) const;
  uint64_t Reg(int reg) const;
  void SetReg(int reg, uint64_t value);
  bool MapOnDemand(uint64_t address, bool write);
  void MapFixed(uint64_t begin, uint64_t size, uint32_t perms);
  void DropOnDemandMappings();
  void DropStaleOnDemandMappings();
  uint64_t HostCall(uint64_t target);  // returns where to resume
  [[noreturn]] void ThrowStop(const Stop& stop);

  static void OnBlock(uc_engine* uc, uint64_t address, uint32_t size, void* self);
  static void OnCode(uc_engine* uc, uint64_t address, uint32_t size, void* self);
  static bool OnInvalidMemory(uc_engine* uc, uc_mem_type type, uint64_t address, int size,
                              int64_t value, void* self);
  static void OnInterrupt(uc_engine* uc, uint32_t intno, void* self);
  static bool OnInvalidInstruction(uc_engine* uc, void* self);

  uc_engine* uc_ = nullptr;
  std::map<uint64_t, uint64_t> mapped_;  // begin -> end, every guest mapping
  struct OnDemand {
    uint64_t begin, end;
    bool write;
  };
  std::vector<OnDemand> on_demand_;
  HostMaps host_maps_;
  bool host_maps_fresh_ = false;
  bool trace_ = false;
  Stop stop_;
};

UnicornExecutor::UnicornExecutor(const ExecutorOptions& options) : Executor(options) {
  Check(uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc_), "uc_open");
  // MAX: every instruction Unicorn's QEMU implements (a Neoverse core's v8.2+ set included).
  Check(uc_ctl_set_cpu_model(uc_, UC_CPU_ARM64_MAX), "set cpu model");
  uint64_t cpacr = Reg(UC_ARM64_REG_CPACR_EL1);
  SetReg(UC_ARM64_REG_CPACR_EL1, cpacr | (3ull << 20));  // FPEN: FP/SIMD without traps

  uc_hook hook;
  const char* trace_env = std::getenv("A64JIT_TRACE");
  trace_ = options.trace || (trace_env != nullptr && std::string(trace_env) == "1");
  if (options.count_every_instruction || trace_) {
    Check(uc_hook_add(uc_, &hook, UC_HOOK_CODE, reinterpret_cast<void*>(&OnCode), this, 1, 0),
          "hook code");
  } else {
    Check(uc_hook_add(uc_, &hook, UC_HOOK_BLOCK, reinterpret_cast<void*>(&OnBlock), this, 1, 0),
          "hook block");
  }
  Check(uc_hook_add(uc_, &hook, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT,
                    reinterpret_cast<void*>(&OnInvalidMemory), this, 1, 0),
        "hook memory");
  Check(uc_hook_add(uc_, &hook, UC_HOOK_INTR, reinterpret_cast<void*>(&OnInterrupt), this, 1, 0),
        "hook interrupt");
  Check(uc_hook_add(uc_, &hook, UC_HOOK_INSN_INVALID,
                    reinterpret_cast<void*>(&OnInvalidInstruction), this, 1, 0),
        "hook invalid instruction");
  MapFixed(stack_low(), stack_high() - stack_low(), UC_PROT_READ | UC_PROT_WRITE);
}

UnicornExecutor::~UnicornExecutor() {
  if (uc_ != nullptr) uc_close(uc_);
}

void UnicornExecutor::Check(uc_err err, const char* what) const {
  if (err != UC_ERR_OK) {
    throw ExecutorError(std::string("unicorn: ") + what + ": " + uc_strerror(err));
  }
}

uint64_t UnicornExecutor::Reg(int reg) const {
  uint64_t v = 0;
  uc_reg_read(uc_, reg, &v);
  return v;
}

void UnicornExecutor::SetReg(int reg, uint64_t value) {
  Check(uc_reg_write(uc_, reg, &value), "reg write");
}

void UnicornExecutor::MapFixed(uint64_t begin, uint64_t size, uint32_t perms) {
  Check(uc_mem_map_ptr(uc_, begin, size, perms, reinterpret_cast<void*>(begin)), "map");
  mapped_[begin] = begin + size;
}

void UnicornExecutor::ArenaAdded(const uint8_t* begin, size_t size) {
  // Code is readable and executable by the guest, never writable: a guest store into code
  // is a protection fault, as it is natively under W^X.
  MapFixed(reinterpret_cast<uintptr_t>(begin), size, UC_PROT_READ | UC_PROT_EXEC);
}

void UnicornExecutor::CodeChanged(const uint8_t* begin, size_t size) {
  const uint64_t b = reinterpret_cast<uintptr_t>(begin);
  Check(uc_ctl_remove_cache(uc_, b, b + size), "remove translation cache");
}

bool UnicornExecutor::ReadGuest(uint64_t address, void* out, size_t size) {
  return uc_mem_read(uc_, address, out, size) == UC_ERR_OK;
}

bool UnicornExecutor::MapOnDemand(uint64_t address, bool write) {
  if (address < 0x10000) return false;  // never map the null page region
  // Unicorn's address space holds a bounded number of sections (it aborts past that), and
  // one outermost call may run for a whole program. Recycle: drop every on-demand mapping
  // and let later accesses map again what they need.
  if (on_demand_.size() >= kMaxOnDemandMappings) DropOnDemandMappings();
  std::optional<HostRegion> region;
  if (host_maps_fresh_) region = host_maps_.Find(address);
  if (!region) {
    // Not in the snapshot, or no snapshot: the host may have mapped it since (a grown stack,
    // a new heap arena). Read the map again before calling the access a fault.
    host_maps_.Refresh();
    host_maps_fresh_ = true;
    region = host_maps_.Find(address);
  }
  if (!region || !region->read || (write && !region->write)) return false;
  uint64_t lo = std::max(region->begin, address & ~(kWindow - 1));
  uint64_t hi = std::min(region->end, (address & ~(kWindow - 1)) + kWindow);
  // Clip against what is already mapped (neighbouring host regions may have merged).
  auto next = mapped_.upper_bound(address);
  if (next != mapped_.end()) hi = std::min(hi, next->first);
  if (next != mapped_.begin()) {
    auto prev = std::prev(next);
    if (prev->second > address) return false;  // mapped already: not an on-demand case
    lo = std::max(lo, prev->second);
  }
  const uint32_t perms = UC_PROT_READ | (region->write ? UC_PROT_WRITE : 0);
  if (uc_mem_map_ptr(uc_, lo, hi - lo, perms, reinterpret_cast<void*>(lo)) != UC_ERR_OK) {
    return false;
  }
  mapped_[lo] = hi;
  on_demand_.push_back(OnDemand{lo, hi, region->write});
  return true;
}

void UnicornExecutor::DropOnDemandMappings() {
  for (const OnDemand& m : on_demand_) {
    uc_mem_unmap(uc_, m.begin, m.end - m.begin);
    mapped_.erase(m.begin);
  }
  on_demand_.clear();
}

// Before an outermost call: keeps the on-demand mappings the host still backs exactly as
// they were mapped (one region, same protection), drops the rest. Dropping them all after
// every call instead meant a uc_mem_unmap and a uc_mem_map_ptr per window per call; with an
// interpreter calling compiled code tens of thousands of times a second, that churn made
// Unicorn 2.0.1 crash in page_collection_lock (Richards autojit, about one run in two).
void UnicornExecutor::DropStaleOnDemandMappings() {
  host_maps_.Refresh();
  host_maps_fresh_ = true;
  std::vector<OnDemand> kept;
  for (const OnDemand& m : on_demand_) {
    const std::optional<HostRegion> r = host_maps_.Find(m.begin);
    if (r && r->end >= m.end && r->read && r->write == m.write) {
      kept.push_back(m);
    } else {
      uc_mem_unmap(uc_, m.begin, m.end - m.begin);
      mapped_.erase(m.begin);
    }
  }
  on_demand_ = std::move(kept);
}

void UnicornExecutor::OnBlock(uc_engine* uc, uint64_t address, uint32_t size, void* self_ptr) {
  auto* self = static_cast<UnicornExecutor*>(self_ptr);
  self->current_.guest_instructions += size / 4;
  if (self->current_.guest_instructions > self->options().instruction_budget) {
    self->stop_.what = Stop::kTimeout;
    self->stop_.pc = address;
    uc_emu_stop(uc);
    return;
  }
  // AArch64 requires a 16-byte aligned SP for SP-based accesses (Linux enables the check).
  uint64_t sp = 0;
  uc_reg_read(uc, UC_ARM64_REG_SP, &sp);
  if (sp & 15) {
    self->stop_ =
        Stop{Stop::kFault, GuestFault::Kind::kMisalignedStack, address, sp, "sp = " + Hex(sp)};
    uc_emu_stop(uc);
  }
}

void UnicornExecutor::OnCode(uc_engine* uc, uint64_t address, uint32_t size, void* self_ptr) {
  auto* self = static_cast<UnicornExecutor*>(self_ptr);
  self->current_.guest_instructions++;
  if (self->trace_) {
    uint64_t sp = 0;
    uc_reg_read(uc, UC_ARM64_REG_SP, &sp);
    uint8_t word[4];
    std::string text = uc_mem_read(uc, address, word, 4) == UC_ERR_OK
                           ? DisassembleAt(word, 4, address, address)
                           : "(unreadable)\n";
    std::fprintf(stderr, "[a64jit trace] sp=0x%llx %s", static_cast<unsigned long long>(sp),
                 text.c_str());
  }
  if (self->current_.guest_instructions > self->options().instruction_budget) {
    self->stop_.what = Stop::kTimeout;
    self->stop_.pc = address;
    uc_emu_stop(uc);
  }
}

bool UnicornExecutor::OnInvalidMemory(uc_engine* uc, uc_mem_type type, uint64_t address, int,
                                      int64_t, void* self_ptr) {
  auto* self = static_cast<UnicornExecutor*>(self_ptr);
  uint64_t pc = 0, sp = 0;
  uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
  uc_reg_read(uc, UC_ARM64_REG_SP, &sp);
  switch (type) {
    case UC_MEM_FETCH_UNMAPPED:
    case UC_MEM_FETCH_PROT:
      // A branch out of guest code: a host call (or a bad branch, decided by the run loop).
      self->stop_ = Stop{Stop::kHostCall, GuestFault::Kind::kBadBranch, address, address, ""};
      return false;
    case UC_MEM_READ_UNMAPPED:
    case UC_MEM_WRITE_UNMAPPED:
      if (self->MapOnDemand(address, type == UC_MEM_WRITE_UNMAPPED)) return true;
      self->stop_ = Stop{Stop::kFault, self->ClassifyDataFault(address, sp), pc, address,
                         type == UC_MEM_WRITE_UNMAPPED ? "write" : "read"};
      return false;
    default:
      self->stop_ =
          Stop{Stop::kFault, GuestFault::Kind::kProtection, pc, address,
               type == UC_MEM_WRITE_PROT ? "write to read-only memory" : "access not permitted"};
      return false;
  }
}

void UnicornExecutor::OnInterrupt(uc_engine* uc, uint32_t intno, void* self_ptr) {
  auto* self = static_cast<UnicornExecutor*>(self_ptr);
  uint64_t pc = 0;
  uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
  GuestFault::Kind kind = GuestFault::Kind::kUndefinedInstruction;
  if (intno == kExcpSwi) {
    kind = GuestFault::Kind::kSystemCall;
    pc -= 4;  // QEMU reports the return address of svc
  } else if (intno == kExcpBkpt) {
    kind = GuestFault::Kind::kBreakpoint;
  } else if (intno != kExcpUdef) {
    self->stop_.detail = "CPU exception " + std::to_string(intno);
  }
  self->stop_.what = Stop::kFault;
  self->stop_.kind = kind;
  self->stop_.pc = pc;
  self->stop_.address = pc;
  uc_emu_stop(uc);
}

bool UnicornExecutor::OnInvalidInstruction(uc_engine* uc, void* self_ptr) {
  auto* self = static_cast<UnicornExecutor*>(self_ptr);
  uint64_t pc = 0;
  uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
  self->stop_ = Stop{Stop::kFault, GuestFault::Kind::kUndefinedInstruction, pc, pc, ""};
  return false;
}

void UnicornExecutor::ThrowStop(const Stop& stop) {
  if (stop.what == Stop::kTimeout) {
    throw Timeout("guest call exceeded its budget of " +
                  std::to_string(options().instruction_budget) +
                  " instructions (unicorn); last block at pc " + Hex(stop.pc));
  }
  throw GuestFault(stop.kind, stop.pc, stop.address, stop.detail, DisassembleAround(stop.pc));
}

uint64_t UnicornExecutor::HostCall(uint64_t target) {
  const uint64_t lr = Reg(UC_ARM64_REG_LR);
  std::optional<HelperSignature> sig = LookupHelper(target);
  if (!sig) {
    const std::string symbol = DescribeHostAddress(target);
    const uint64_t call_site = lr >= 4 ? lr - 4 : lr;
    Stop stop{
        Stop::kFault,
        symbol.empty() ? GuestFault::Kind::kBadBranch : GuestFault::Kind::kUnregisteredHostCall,
        call_site, target,
        symbol.empty() ? "branch target " + Hex(target) + " is not guest code"
                       : "no helper signature registered for " + Hex(target) + " = " + symbol};
    ThrowStop(stop);
  }
  const uint64_t sp = Reg(UC_ARM64_REG_SP);
  if (sp & 15) {
    ThrowStop(Stop{Stop::kFault, GuestFault::Kind::kMisalignedStack, lr - 4, sp,
                   "sp = " + Hex(sp) + " at a call to " + sig->name});
  }
  uint64_t x[8];
  double d[8];
  for (int i = 0; i < 8; i++) {
    x[i] = Reg(UC_ARM64_REG_X0 + i);
    uint64_t bits = Reg(UC_ARM64_REG_D0 + i);
    std::memcpy(&d[i], &bits, sizeof bits);
  }
  current_.host_calls++;
  host_maps_fresh_ = false;  // the helper may map or unmap host memory, before a nested call
  HostCallResult r = CallHost(target, sig->ret, x, d);
  host_maps_fresh_ = false;
  if (sig->ret == RetKind::kInt) SetReg(UC_ARM64_REG_X0, r.x0);
  if (sig->ret == RetKind::kDouble) {
    uint64_t bits;
    std::memcpy(&bits, &r.d0, sizeof bits);
    SetReg(UC_ARM64_REG_D0, bits);
  }
  return lr;
}

void UnicornExecutor::RunStub(CallFrame* frame, int depth) {
  // A nested call interrupts a guest that is suspended in a host call: save its context.
  uc_context* saved = nullptr;
  if (depth > 1) {
    Check(uc_context_alloc(uc_, &saved), "context alloc");
    Check(uc_context_save(uc_, saved), "context save");
  } else {
    host_maps_fresh_ = false;
    if (!on_demand_.empty()) DropStaleOnDemandMappings();
    // The guest starts on its own stack, so the stub has no stack to switch to.
    SetReg(UC_ARM64_REG_SP, frame->new_sp);
    frame->new_sp = 0;
  }
  struct Restore {
    UnicornExecutor* self;
    uc_context* saved;
    ~Restore() {
      if (saved != nullptr) {
        uc_context_restore(self->uc_, saved);
        uc_context_free(saved);
      }
    }
  } restore{this, saved};

  SetReg(UC_ARM64_REG_X0, reinterpret_cast<uintptr_t>(frame));
  SetReg(UC_ARM64_REG_LR, kReturnSentinel);
  uint64_t pc = reinterpret_cast<uintptr_t>(stub());
  for (;;) {
    stop_ = Stop{};
    uc_err err = uc_emu_start(uc_, pc, kReturnSentinel, 0, 0);
    Stop stop = stop_;
    if (stop.what == Stop::kHostCall) {
      if (stop.address == kReturnSentinel) break;
      pc = HostCall(stop.address);
      continue;
    }
    if (stop.what != Stop::kNone) ThrowStop(stop);
    if (err != UC_ERR_OK) {
      const uint64_t at = Reg(UC_ARM64_REG_PC);
      ThrowStop(Stop{Stop::kFault, GuestFault::Kind::kUndefinedInstruction, at, at,
                     std::string("unicorn: ") + uc_strerror(err)});
    }
    if (Reg(UC_ARM64_REG_PC) == kReturnSentinel) break;
    throw ExecutorError("unicorn: emulation stopped at " + Hex(Reg(UC_ARM64_REG_PC)) +
                        " for no recorded reason");
  }
}

}  // namespace

std::unique_ptr<Executor> CreateUnicornExecutor(const ExecutorOptions& options) {
  std::unique_ptr<UnicornExecutor> executor(new UnicornExecutor(options));
  InitExecutor(executor.get());
  return executor;
}

}  // namespace a64jit::emu
