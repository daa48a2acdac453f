// UnicornExecutor: runs aarch64 guest code under Unicorn 2 inside the x86-64 host process.
//
// Address space: the guest sees host memory at the same addresses. Code arenas and the
// guest stack are mapped for good; any other host page is mapped on first touch, with the
// host's read/write protection (never execute), and only if /proc/self/maps shows it. Those
// on-demand mappings stay between outermost calls while the host still backs them as they
// were mapped (checked against /proc/self/maps when an outermost call starts), so a later
// call cannot reach memory the host has since unmapped.
//
// Host calls: a guest branch to a host address first faults on instruction fetch; emulation
// stops, the run loop calls the registered helper with the argument registers its signature
// names, writes X0/D0, and resumes at LR. From then on the code around that helper is a trap
// window of `svc #0` words (see MapTrapWindow), and later calls are made inside the
// interrupt hook that `svc` raises, without stopping emulation (see CallInHook). A helper
// that calls back into guest code then starts a nested run inside that hook; the suspended
// guest's callee-saved registers are put back if that run ends in an exception.
//
// Threads: every calling thread has its own Unicorn engine (registers, mappings, guest
// stack), made on its first call and closed when the thread ends. A helper that releases
// the GIL lets another thread run guest code while this one's engine stays suspended.
// Code arenas and code changes are recorded here and applied to each engine before it runs.
#include <sys/mman.h>
#include <unicorn/unicorn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "emulation/executors.h"
#include "emulation/helper_registry.h"
#include "emulation/host_maps.h"
#include "emulation/unicorn_dirty_tlb.h"
#include "emulation/unicorn_layout.h"
#include "emulation/unicorn_registers.h"
#include "emulation/unicorn_tb_buffer.h"
#include "jit/codegen/disassembly.h"

namespace a64jit::emu {
namespace {

using codegen::DisassembleAt;
using runtime::CallFrame;
using runtime::CallHost;
using runtime::CallStats;
using runtime::ExecutorError;
using runtime::GuestFault;
using runtime::HostCallResult;
using runtime::Timeout;

// Return address of every call: below mmap_min_addr, so the host never maps it. The guest
// maps it as a trap window (see MapTrapWindow), and emulation stops on reaching it. Not
// uc_emu_start's `until`: Unicorn 2.0.1 then drops the translations at until - 1 after every
// stop, at the cost of a failed page lookup and a page-collection tree (8% of Richards).
constexpr uint64_t kReturnSentinel = 0x1000;
constexpr uint64_t kWindow = 64 * 1024;  // on-demand mapping granularity
constexpr size_t kMaxOnDemandMappings = 512;

// QEMU's AArch64 exception numbers, as delivered to UC_HOOK_INTR.
constexpr uint32_t kExcpUdef = 1;
constexpr uint32_t kExcpSwi = 2;
constexpr uint32_t kExcpBkpt = 7;

// `svc #0`: what a host-call trap window holds at every word (see MapTrapWindow).
constexpr uint32_t kSvc0 = 0xd4000001;

// One read-only window of kSvc0 words, the backing of every engine's trap windows.
const void* TrapWords() {
  static const void* words = [] {
    void* p = mmap(nullptr, kWindow, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw ExecutorError("unicorn: cannot allocate the host-call trap words");
    auto* w = static_cast<uint32_t*>(p);
    for (size_t i = 0; i < kWindow / 4; i++) w[i] = kSvc0;
    mprotect(p, kWindow, PROT_READ);
    return p;
  }();
  return words;
}

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Why an engine's current uc_emu_start stopped, as recorded by the hooks.
struct Stop {
  // kRethrow: a host call made inside a hook threw; Engine::pending holds the exception.
  enum What { kNone, kHostCall, kFault, kTimeout, kRethrow } what = kNone;
  GuestFault::Kind kind = GuestFault::Kind::kUnmappedAccess;
  uint64_t pc = 0, address = 0;
  std::string detail;
  bool trapped = false;      // a host call that came through a trap window (see MapTrapWindow)
  uint32_t block_bytes = 0;  // a data fault's: its block's size from pc (see OnInvalidMemory)
};

struct OnDemand {
  uint64_t begin, end;
  bool write;
};

class UnicornExecutor;

// A guest mapping: where it ends, and whether the guest may write it.
struct Mapping {
  uint64_t end;
  bool writable;
};

// One thread's Unicorn engine and what it has mapped.
struct Engine {
  UnicornExecutor* executor = nullptr;
  uc_engine* uc = nullptr;
  GuestRegisters regs;
  CallStats* current = nullptr;        // the thread's outermost call in progress
  std::map<uint64_t, Mapping> mapped;  // begin -> mapping, every guest mapping
  std::vector<OnDemand> on_demand;
  std::map<uint64_t, uint64_t> traps;  // begin -> end, host-call trap windows
  HostMaps host_maps;
  bool host_maps_fresh = false;
  std::chrono::steady_clock::time_point last_stale_check{};
  bool trace = false;
  // The translated block running, as the block hook (or the code hook: one instruction) last
  // saw it: where a data fault is, as nearly as Unicorn can tell (see OnInvalidMemory).
  uint64_t block_pc = 0;
  uint32_t block_bytes = 0;
  // Mapped or unmapped since the translation cache was last flushed (see RunStub).
  bool address_space_changed = false;
  size_t arenas = 0, changes = 0;  // of the executor's code records, applied here
  Stop stop;
  bool hook_calls = false;           // host calls are made inside the hook (see CallInHook)
  int calls_in_hook = 0;             // host calls in progress inside OnInterrupt (CallInHook)
  uint64_t nested_runs_in_hook = 0;  // nested runs started inside one of them, ever
  std::exception_ptr pending;        // what a host call made inside a hook threw
  ~Engine() {
    if (uc == nullptr) return;
    ForgetDirtyTlbEntries(uc);
    uc_close(uc);
  }
};

// This thread's engines: executor id -> engine. Closed when the thread ends.
thread_local std::unordered_map<uint64_t, std::unique_ptr<Engine>> t_engines;

class UnicornExecutor : public Executor {
 public:
  explicit UnicornExecutor(const ExecutorOptions& options) : Executor(options) {}
  ~UnicornExecutor() override { t_engines.erase(id()); }
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
  Engine& ThisThreadEngine();
  std::unique_ptr<Engine> NewEngine();
  void ApplyCodeRecords(Engine& e);
  bool MapOnDemand(Engine& e, uint64_t address, bool write);
  void MapTrapWindow(Engine& e, uint64_t target);
  static void MapTrap(Engine& e, uint64_t begin, uint64_t end);
  void DropOnDemandMappings(Engine& e);
  void DropStaleOnDemandMappings(Engine& e);
  void FlushTranslations(Engine& e);
  // Returns where to resume. `trapped`: the call came through a trap window already.
  uint64_t HostCall(Engine& e, uint64_t target, bool trapped);
  bool CallInHook(Engine& e, uint64_t target);
  void RunToSentinel(Engine& e, CallFrame* frame);
  [[noreturn]] void ThrowStop(const Stop& stop);

  static void OnBlock(uc_engine* uc, uint64_t address, uint32_t size, void* engine);
  static bool IsGuestWritable(void* engine, uint64_t address);
  static void OnCode(uc_engine* uc, uint64_t address, uint32_t size, void* engine);
  static bool OnInvalidMemory(uc_engine* uc, uc_mem_type type, uint64_t address, int size,
                              int64_t value, void* engine);
  static void OnInterrupt(uc_engine* uc, uint32_t intno, void* engine);
  static bool OnInvalidInstruction(uc_engine* uc, void* engine);

  // Code arenas and changed code, for every thread's engine to apply before it runs.
  std::mutex code_mutex_;
  std::vector<std::pair<uint64_t, uint64_t>> arenas_;   // begin, size
  std::vector<std::pair<uint64_t, uint64_t>> changes_;  // begin, end
  std::atomic<size_t> code_generation_{0};              // arenas_.size() + changes_.size()
};

void Check(uc_err err, const char* what) {
  if (err != UC_ERR_OK) {
    throw ExecutorError(std::string("unicorn: ") + what + ": " + uc_strerror(err));
  }
}

uint64_t Reg(uc_engine* uc, int reg) {
  uint64_t v = 0;
  uc_reg_read(uc, reg, &v);
  return v;
}

void SetReg(uc_engine* uc, int reg, uint64_t value) {
  Check(uc_reg_write(uc, reg, &value), "reg write");
}

void MapFixed(Engine& e, uint64_t begin, uint64_t size, uint32_t perms) {
  Check(uc_mem_map_ptr(e.uc, begin, size, perms, reinterpret_cast<void*>(begin)), "map");
  e.mapped[begin] = Mapping{begin + size, (perms & UC_PROT_WRITE) != 0};
}

Engine& UnicornExecutor::ThisThreadEngine() {
  std::unique_ptr<Engine>& slot = t_engines[id()];
  if (slot == nullptr) slot = NewEngine();
  return *slot;
}

std::unique_ptr<Engine> UnicornExecutor::NewEngine() {
  auto e = std::make_unique<Engine>();
  e->executor = this;
  e->current = &Calls().current;
  Check(uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &e->uc), "uc_open");
  uc_engine* uc = e->uc;
  // Where this Unicorn cannot be told, the engine keeps its 1 GiB buffer: slower, still right
  // (executor_test checks that the size is set with the Unicorn installed here).
  SizeTranslationBuffer(uc);
  // MAX: every instruction Unicorn's QEMU implements (a Neoverse core's v8.2+ set included).
  Check(uc_ctl_set_cpu_model(uc, UC_CPU_ARM64_MAX), "set cpu model");
  SetReg(uc, UC_ARM64_REG_CPACR_EL1, Reg(uc, UC_ARM64_REG_CPACR_EL1) | (3ull << 20));  // FPEN
  // Guest stores to writable mappings take the fast path (see unicorn_dirty_tlb.h). Where
  // this Unicorn cannot be told, they stay slow and right.
  UseDirtyTlbEntries(uc, &IsGuestWritable, e.get());
  e->regs.Attach(uc);  // registers without a Unicorn call each (see unicorn_registers.h)
  e->hook_calls = !KnobSet("A64JIT_UNICORN_STOP_CALLS");

  uc_hook hook;
  void* user = e.get();
  e->trace = options().trace || KnobSet("A64JIT_TRACE");
  if (options().count_every_instruction || e->trace) {
    Check(uc_hook_add(uc, &hook, UC_HOOK_CODE, reinterpret_cast<void*>(&OnCode), user, 1, 0),
          "hook code");
  } else if (options().count_instructions) {
    Check(uc_hook_add(uc, &hook, UC_HOOK_BLOCK, reinterpret_cast<void*>(&OnBlock), user, 1, 0),
          "hook block");
  }
  Check(uc_hook_add(uc, &hook, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT,
                    reinterpret_cast<void*>(&OnInvalidMemory), user, 1, 0),
        "hook memory");
  Check(uc_hook_add(uc, &hook, UC_HOOK_INTR, reinterpret_cast<void*>(&OnInterrupt), user, 1, 0),
        "hook interrupt");
  Check(uc_hook_add(uc, &hook, UC_HOOK_INSN_INVALID, reinterpret_cast<void*>(&OnInvalidInstruction),
                    user, 1, 0),
        "hook invalid instruction");
  MapFixed(*e, stack_low(), stack_high() - stack_low(), UC_PROT_READ | UC_PROT_WRITE);
  Check(uc_ctl_exits_enable(uc), "use exits");  // and set none: `until` is not used
  MapTrap(*e, kReturnSentinel, kReturnSentinel + 0x1000);
  ApplyCodeRecords(*e);
  // Unicorn 2.0.1 starts an engine with its translation region not yet handed out: the
  // first time the buffer fills, tcg_tb_alloc takes the region as if it were new and zeroes
  // it, with every block still in the hash table and the block just run still to be chained
  // (SIGSEGV in tb_set_jmp_target; executor_test's MoreChainedBlocksThanTheBufferHolds).
  // A flush hands the region out, so that every fill after it is a real flush.
  FlushTranslations(*e);
  return e;
}

// Maps the arenas added and drops the translations of code changed since the engine last
// looked (on another thread, or on this one while it was suspended in a host call).
void UnicornExecutor::ApplyCodeRecords(Engine& e) {
  if (e.arenas + e.changes == code_generation_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(code_mutex_);
  for (; e.arenas < arenas_.size(); e.arenas++) {
    // Code is readable and executable by the guest, never writable: a guest store into code
    // is a protection fault, as it is natively under W^X.
    MapFixed(e, arenas_[e.arenas].first, arenas_[e.arenas].second, UC_PROT_READ | UC_PROT_EXEC);
  }
  for (; e.changes < changes_.size(); e.changes++) {
    Check(uc_ctl_remove_cache(e.uc, changes_[e.changes].first, changes_[e.changes].second),
          "remove translation cache");
  }
}

void UnicornExecutor::ArenaAdded(const uint8_t* begin, size_t size) {
  std::lock_guard<std::mutex> lock(code_mutex_);
  arenas_.emplace_back(reinterpret_cast<uintptr_t>(begin), size);
  code_generation_.fetch_add(1, std::memory_order_release);
}

void UnicornExecutor::CodeChanged(const uint8_t* begin, size_t size) {
  {
    std::lock_guard<std::mutex> lock(code_mutex_);
    const uint64_t b = reinterpret_cast<uintptr_t>(begin);
    changes_.emplace_back(b, b + size);
    code_generation_.fetch_add(1, std::memory_order_release);
  }
  auto it = t_engines.find(id());
  if (it != t_engines.end()) ApplyCodeRecords(*it->second);
}

bool UnicornExecutor::ReadGuest(uint64_t address, void* out, size_t size) {
  return uc_mem_read(ThisThreadEngine().uc, address, out, size) == UC_ERR_OK;
}

// Whether one of the ranges (begin -> end) holds `address`.
bool Contains(const std::map<uint64_t, uint64_t>& ranges, uint64_t address) {
  auto it = ranges.upper_bound(address);
  return it != ranges.begin() && std::prev(it)->second > address;
}

// The mapping holding `address`, or null.
const Mapping* FindMapping(const std::map<uint64_t, Mapping>& mapped, uint64_t address) {
  auto it = mapped.upper_bound(address);
  if (it == mapped.begin() || std::prev(it)->second.end <= address) return nullptr;
  return &std::prev(it)->second;
}

// The host region holding `address`: from the snapshot, else from the map read again (the
// host may have mapped it since: a grown stack, a new heap arena).
std::optional<HostRegion> FindHostRegion(Engine& e, uint64_t address) {
  std::optional<HostRegion> region;
  if (e.host_maps_fresh) region = e.host_maps.Find(address);
  if (!region) {
    e.host_maps.Refresh();
    e.host_maps_fresh = true;
    region = e.host_maps.Find(address);
  }
  return region;
}

// The kWindow-aligned window around `address`, within `region` and clipped against what the
// engine has mapped (neighbouring host regions may have merged). False if `address` itself
// is mapped already.
bool WindowAround(const Engine& e, const HostRegion& region, uint64_t address, uint64_t* lo,
                  uint64_t* hi) {
  *lo = std::max(region.begin, address & ~(kWindow - 1));
  *hi = std::min(region.end, (address & ~(kWindow - 1)) + kWindow);
  auto next = e.mapped.upper_bound(address);
  if (next != e.mapped.end()) *hi = std::min(*hi, next->first);
  if (next != e.mapped.begin()) {
    auto prev = std::prev(next);
    if (prev->second.end > address) return false;
    *lo = std::max(*lo, prev->second.end);
  }
  return true;
}

bool UnicornExecutor::MapOnDemand(Engine& e, uint64_t address, bool write) {
  if (address < 0x10000) return false;  // never map the null page region
  // Unicorn's address space holds a bounded number of sections (it aborts past that), and
  // one outermost call may run for a whole program. Recycle: drop every on-demand mapping
  // and let later accesses map again what they need. (This runs inside the memory hook: a
  // stop-and-retry instead is not possible, as Unicorn 2.0.1 reports neither the hook's PC
  // nor the PC after the stop precisely enough to run the access again.)
  if (e.on_demand.size() >= kMaxOnDemandMappings) DropOnDemandMappings(e);
  const std::optional<HostRegion> region = FindHostRegion(e, address);
  if (!region || !region->read || (write && !region->write)) return false;
  uint64_t lo, hi;
  if (!WindowAround(e, *region, address, &lo, &hi)) return false;  // not an on-demand case
  const uint32_t perms = UC_PROT_READ | (region->write ? UC_PROT_WRITE : 0);
  if (uc_mem_map_ptr(e.uc, lo, hi - lo, perms, reinterpret_cast<void*>(lo)) != UC_ERR_OK) {
    return false;
  }
  e.mapped[lo] = Mapping{hi, region->write};
  e.address_space_changed = true;
  e.on_demand.push_back(OnDemand{lo, hi, region->write});
  return true;
}

// A host call first reaches its target as an instruction fetch from unmapped memory. That
// costs Unicorn 2.0.1 a failed translation each time, and each failed translation leaks the
// block it had begun in the translation buffer (Richards: 1.4 million host calls and about 3
// buffer flushes per iteration with a 64 MiB buffer). So after the first call of a helper,
// the host's code around it (the 64 KiB window, within the executable host region, clipped
// against what is mapped) is mapped for the guest as a page of `svc #0` words: later calls
// execute one cached `svc`, which OnInterrupt turns into the same host-call stop.
void UnicornExecutor::MapTrapWindow(Engine& e, uint64_t target) {
  // Mapped already (as data): calls there keep the fetch fault. Checked first, as these
  // calls come back every time and the region lookup may read /proc/self/maps.
  if (FindMapping(e.mapped, target) != nullptr) return;
  const std::optional<HostRegion> region = FindHostRegion(e, target);
  if (!region || !region->exec) return;
  uint64_t lo, hi;
  if (!WindowAround(e, *region, target, &lo, &hi)) return;
  MapTrap(e, lo, hi);
  e.address_space_changed = true;
}

// Execute-only: a guest load from a trap window is a protection fault, not svc words.
void UnicornExecutor::MapTrap(Engine& e, uint64_t begin, uint64_t end) {
  Check(uc_mem_map_ptr(e.uc, begin, end - begin, UC_PROT_EXEC, const_cast<void*>(TrapWords())),
        "map trap window");
  e.mapped[begin] = Mapping{end, false};
  e.traps[begin] = end;
}

void UnicornExecutor::DropOnDemandMappings(Engine& e) {
  for (const OnDemand& m : e.on_demand) {
    uc_mem_unmap(e.uc, m.begin, m.end - m.begin);
    e.mapped.erase(m.begin);
  }
  e.on_demand.clear();
  e.address_space_changed = true;
}

// Whether an outermost call should check the on-demand mappings against the host's map: at
// most every kStaleCheckInterval. Reading /proc/self/maps costs about 50 microseconds (more
// with many mappings), and an interpreter may call compiled code tens of thousands of times
// a second. Correct guest code never touches memory the host has unmapped (only dead
// objects lived there), and a host region mapped again at the same address is reached
// through the same window; what the check buys is a GuestFault instead of a host crash when
// a bug in generated code uses such memory within the interval.
constexpr auto kStaleCheckInterval = std::chrono::milliseconds(50);

bool StaleCheckDue(Engine& e) {
  const auto now = std::chrono::steady_clock::now();
  if (now - e.last_stale_check < kStaleCheckInterval) return false;
  e.last_stale_check = now;
  return true;
}

// Before an outermost call: keeps the on-demand mappings the host still backs exactly as
// they were mapped (one region, same protection), drops the rest. Dropping them all after
// every call instead meant a uc_mem_unmap and a uc_mem_map_ptr per window per call; with an
// interpreter calling compiled code tens of thousands of times a second, that churn made
// Unicorn 2.0.1 crash in page_collection_lock (Richards autojit, about one run in two).
void UnicornExecutor::DropStaleOnDemandMappings(Engine& e) {
  e.host_maps.Refresh();
  e.host_maps_fresh = true;
  std::vector<OnDemand> kept;
  for (const OnDemand& m : e.on_demand) {
    const std::optional<HostRegion> r = e.host_maps.Find(m.begin);
    if (r && r->end >= m.end && r->read && r->write == m.write) {
      kept.push_back(m);
    } else {
      uc_mem_unmap(e.uc, m.begin, m.end - m.begin);
      e.mapped.erase(m.begin);
      e.address_space_changed = true;
    }
  }
  e.on_demand = std::move(kept);
}

// Unicorn 2.0.1 bug, worked around: with on-demand mappings made inside the memory hook
// during earlier calls, a later call could crash the process inside Unicorn's translation
// cache (SIGSEGV in page_collection_lock on a guest store, or in tb_set_jmp_target when
// chaining blocks): numpy's test_matrix_linalg -k TestSolveMatrix, PYTHONHASHSEED=4, crashed
// in 19 runs of 29 (also with the recycling moved out of the hook, or 2 MiB windows).
// Dropping every translation before an outermost call that follows a change of the guest
// address space: 0 of 13. Unicorn's later releases reworked this code
// (page_collection_lock became a no-op); its issue 1946 reports the same crash and the same
// cure. The cost is one retranslation of the code that runs next; a program whose mappings
// have settled (a benchmark loop) flushes no more: 8 flushes in that pytest run. Flushing
// before nested calls as well made the same run 4.7x slower (73 s against 16 s, about 8,000
// flushes) without being needed; inside a hook it would free blocks still executing.
void UnicornExecutor::FlushTranslations(Engine& e) {
  Check(uc_ctl_flush_tlb(e.uc), "flush translation cache");  // UC_CTL_TB_FLUSH in 2.0.1
  e.address_space_changed = false;
}

bool UnicornExecutor::IsGuestWritable(void* engine, uint64_t address) {
  const Mapping* m = FindMapping(static_cast<Engine*>(engine)->mapped, address);
  return m != nullptr && m->writable;
}

void UnicornExecutor::OnBlock(uc_engine* uc, uint64_t address, uint32_t size, void* engine) {
  auto* e = static_cast<Engine*>(engine);
  e->block_pc = address;
  e->block_bytes = size;
  e->current->guest_instructions += size / 4;
  if (e->current->guest_instructions > e->executor->options().instruction_budget) {
    e->stop.what = Stop::kTimeout;
    e->stop.pc = address;
    uc_emu_stop(uc);
    return;
  }
  // AArch64 requires a 16-byte aligned SP for SP-based accesses (Linux enables the check).
  const uint64_t sp = e->regs.x(kGuestSp);
  if (sp & 15) {
    e->stop =
        Stop{Stop::kFault, GuestFault::Kind::kMisalignedStack, address, sp, "sp = " + Hex(sp)};
    uc_emu_stop(uc);
  }
}

void UnicornExecutor::OnCode(uc_engine* uc, uint64_t address, uint32_t size, void* engine) {
  auto* e = static_cast<Engine*>(engine);
  e->block_pc = address;
  e->block_bytes = 4;
  e->current->guest_instructions++;
  if (e->trace) {
    uint64_t sp = 0;
    uc_reg_read(uc, UC_ARM64_REG_SP, &sp);
    uint8_t word[4];
    std::string text = uc_mem_read(uc, address, word, 4) == UC_ERR_OK
                           ? DisassembleAt(word, 4, address, address)
                           : "(unreadable)\n";
    std::fprintf(stderr, "[a64jit trace] sp=0x%llx %s", static_cast<unsigned long long>(sp),
                 text.c_str());
  }
  if (e->current->guest_instructions > e->executor->options().instruction_budget) {
    e->stop.what = Stop::kTimeout;
    e->stop.pc = address;
    uc_emu_stop(uc);
  }
}

namespace {
// A data fault's detail with the link register: a fault in a shared stub (the call stub,
// the site stubs) then names the compiled code that called it.
std::string WithLinkRegister(uc_engine* uc, const char* what) {
  uint64_t lr = 0;
  uc_reg_read(uc, UC_ARM64_REG_LR, &lr);
  return std::string(what) + "; lr " + Hex(lr);
}

// A data fault as a stop, at the faulting block. Inside a memory hook, Unicorn 2.0.1's PC is
// where the guest last left the translated code for Unicorn's loop, which after chained blocks
// may be far from the access, and it does not say which instruction made it. The block hook
// does see each block start (the code hook, each instruction), so the stop names the running
// block and its size, and the message says that pc is the block's start.
Stop DataFault(const Engine& e, uc_engine* uc, GuestFault::Kind kind, uint64_t address,
               const char* what) {
  uint64_t pc = e.block_pc;
  if (e.block_bytes == 0) uc_reg_read(uc, UC_ARM64_REG_PC, &pc);  // no block hook: its best
  std::string detail = WithLinkRegister(uc, what);
  if (e.block_bytes > 4) {
    detail += "; pc is the start of the faulting block of " + std::to_string(e.block_bytes / 4) +
              " instructions (Unicorn does not say which one)";
  } else if (e.block_bytes == 0) {
    detail += "; pc is where Unicorn last stopped, not necessarily the faulting block";
  }
  Stop stop{Stop::kFault, kind, pc, address, detail};
  stop.block_bytes = e.block_bytes;
  return stop;
}
}  // namespace

bool UnicornExecutor::OnInvalidMemory(uc_engine* uc, uc_mem_type type, uint64_t address, int,
                                      int64_t, void* engine) {
  auto* e = static_cast<Engine*>(engine);
  const uint64_t sp = e->regs.x(kGuestSp);
  const bool write = type == UC_MEM_WRITE_UNMAPPED || type == UC_MEM_WRITE_PROT;
  switch (type) {
    case UC_MEM_FETCH_UNMAPPED:
    case UC_MEM_FETCH_PROT:
      // A branch out of guest code: a host call (or a bad branch, decided by the run loop).
      e->stop = Stop{Stop::kHostCall, GuestFault::Kind::kBadBranch, address, address, ""};
      return false;
    case UC_MEM_READ_UNMAPPED:
    case UC_MEM_WRITE_UNMAPPED:
      if (e->executor->MapOnDemand(*e, address, write)) return true;
      e->stop = DataFault(*e, uc, e->executor->ClassifyDataFault(address, sp), address,
                          write ? "write" : "read");
      return false;
    default:
      if (address < 0x10000) {  // the return sentinel's trap window, or the null page
        e->stop = DataFault(*e, uc, GuestFault::Kind::kNullDereference, address,
                            write ? "write" : "read");
        return false;
      }
      e->stop = DataFault(*e, uc, GuestFault::Kind::kProtection, address,
                          write ? "write to read-only memory" : "access not permitted");
      return false;
  }
}

void UnicornExecutor::OnInterrupt(uc_engine* uc, uint32_t intno, void* engine) {
  auto* e = static_cast<Engine*>(engine);
  uint64_t pc = e->regs.pc();
  GuestFault::Kind kind = GuestFault::Kind::kUndefinedInstruction;
  if (intno == kExcpSwi && Contains(e->traps, pc - 4)) {  // a host call (see MapTrapWindow)
    if (pc - 4 != kReturnSentinel && e->executor->CallInHook(*e, pc - 4)) return;
    e->stop = Stop{Stop::kHostCall, GuestFault::Kind::kBadBranch, pc - 4, pc - 4, "", true};
    uc_emu_stop(uc);
    return;
  }
  // A host call to a function whose address is not a multiple of 4 (x86-64 code need not be
  // aligned, and Debian's python3.11 has such functions among its cold ones), inside a trap
  // window: the branch raises the PC alignment fault, an undefined instruction, at the
  // function's own address, before any `svc` is reached.
  if (intno == kExcpUdef && (pc & 3) != 0 && Contains(e->traps, pc)) {
    if (e->executor->CallInHook(*e, pc)) return;
    e->stop = Stop{Stop::kHostCall, GuestFault::Kind::kBadBranch, pc, pc, "", true};
    uc_emu_stop(uc);
    return;
  }
  if (intno == kExcpSwi) {
    kind = GuestFault::Kind::kSystemCall;
    pc -= 4;  // QEMU reports the return address of svc
  } else if (intno == kExcpBkpt) {
    kind = GuestFault::Kind::kBreakpoint;
  } else if (intno != kExcpUdef) {
    e->stop.detail = "CPU exception " + std::to_string(intno);
  }
  e->stop.what = Stop::kFault;
  e->stop.kind = kind;
  e->stop.pc = pc;
  e->stop.address = pc;
  uc_emu_stop(uc);
}

bool UnicornExecutor::OnInvalidInstruction(uc_engine* uc, void* engine) {
  auto* e = static_cast<Engine*>(engine);
  uint64_t pc = 0;
  uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
  e->stop = Stop{Stop::kFault, GuestFault::Kind::kUndefinedInstruction, pc, pc, ""};
  return false;
}

void UnicornExecutor::ThrowStop(const Stop& stop) {
  if (stop.what == Stop::kTimeout) {
    throw Timeout("guest call exceeded its budget of " +
                  std::to_string(options().instruction_budget) +
                  " instructions (unicorn); last block at pc " + Hex(stop.pc));
  }
  // A data fault's whole block, up to its last instruction.
  constexpr uint32_t kMaxShown = 32;
  const int after =
      std::max<int>(3, static_cast<int>(std::min(stop.block_bytes / 4, kMaxShown)) - 1);
  throw GuestFault(stop.kind, stop.pc, stop.address, stop.detail,
                   DisassembleAround(stop.pc, after));
}

uint64_t UnicornExecutor::HostCall(Engine& e, uint64_t target, bool trapped) {
  const HelperSignature* sig = LookupHelper(target);
  if (sig == nullptr) {
    const uint64_t lr = e.regs.x(kGuestLr);
    const std::string symbol = DescribeHostAddress(target);
    const uint64_t call_site = lr >= 4 ? lr - 4 : lr;
    Stop fault{
        Stop::kFault,
        symbol.empty() ? GuestFault::Kind::kBadBranch : GuestFault::Kind::kUnregisteredHostCall,
        call_site, target,
        symbol.empty() ? "branch target " + Hex(target) + " is not guest code"
                       : "no helper signature registered for " + Hex(target) + " = " + symbol};
    ThrowStop(fault);
  }
  const uint64_t lr = e.regs.x(kGuestLr), sp = e.regs.x(kGuestSp);
  if (sp & 15) {
    ThrowStop(Stop{Stop::kFault, GuestFault::Kind::kMisalignedStack, lr - 4, sp,
                   "sp = " + Hex(sp) + " at a call to " + sig->name});
  }
  uint64_t x[8] = {};
  double d[8] = {};
  for (int i = 0; i < sig->int_args; i++) x[i] = e.regs.x(i);
  for (int i = 0; i < sig->double_args; i++) {
    const uint64_t bits = e.regs.d(i);
    std::memcpy(&d[i], &bits, sizeof bits);
  }
  e.current->host_calls++;
  if (!trapped) MapTrapWindow(e, target);
  e.host_maps_fresh = false;  // the helper may map or unmap host memory, before a nested call
  HostCallResult r = CallHost(target, sig->ret, x, d);
  e.host_maps_fresh = false;
  if (sig->ret == RetKind::kInt) e.regs.set_x(0, r.x0);
  if (sig->ret == RetKind::kDouble) {
    uint64_t bits;
    std::memcpy(&bits, &r.d0, sizeof bits);
    e.regs.set_d(0, bits);
  }
  return lr;
}

// Makes the host call to `target` from inside OnInterrupt, while emulation runs on, and
// resumes the guest at LR. Stopping emulation for each call and starting it again cost about
// 350 ns a call (executor_benchmark's round trip), half of Richards under Unicorn. Inside the
// interrupt hook no translated block is executing (the hook runs in cpu_exec's loop, which
// then looks up the block at the new PC), so a helper may start a nested run here even if
// that run flushes the translation buffer. Facts about Unicorn 2.0.1 this relies on:
// - nested uc_emu_start keeps one longjmp target per nesting level, at most 64 levels, so
//   past kMaxCallsInHook calls in progress the call stops emulation as before, and the
//   nesting stops growing;
// - a nested run that ends by uc_emu_stop leaves the stop request set for the run it is
//   nested in. Writing PC through uc_reg_write makes the run loop leave cpu_exec, clear the
//   request and go on, so that is how the guest resumes after a nested run; otherwise PC is
//   written directly.
// An exception from the helper cannot cross Unicorn's C frames: it is kept, emulation stops,
// and RunToSentinel throws it again.
bool UnicornExecutor::CallInHook(Engine& e, uint64_t target) {
  constexpr int kMaxCallsInHook = 48;
  if (!e.hook_calls || e.calls_in_hook >= kMaxCallsInHook) return false;
  const uint64_t nested_before = e.nested_runs_in_hook;
  e.calls_in_hook++;
  e.current->host_calls_in_hook++;
  uint64_t resume = 0;
  try {
    resume = HostCall(e, target, /*trapped=*/true);
    ApplyCodeRecords(e);
  } catch (...) {
    e.pending = std::current_exception();
  }
  e.calls_in_hook--;
  const bool nested = e.nested_runs_in_hook != nested_before;
  if (e.pending) {
    e.stop = Stop{};
    e.stop.what = Stop::kRethrow;
    uc_emu_stop(e.uc);
  } else if (nested) {
    e.stop = Stop{};  // the nested run's last stop is not this run's
    SetReg(e.uc, UC_ARM64_REG_PC, resume);
  } else {
    e.regs.set_pc(resume);
  }
  return true;
}

// What a guest suspended in a host call needs back from a nested call that does not return
// normally: the AAPCS64 callee-saved registers and SP. A nested call that returns has kept
// them (the call trampoline and compiled code follow AAPCS64); one that ends in an exception may
// have left any value, and the helper may catch the exception and resume the guest (the JIT
// turns a fault into a Python SystemError). Cheaper than uc_context_save, which copies the
// whole CPU state (a malloc, two copies of it and a free per nested call).
class CalleeSaved {
 public:
  explicit CalleeSaved(GuestRegisters& regs) : regs_(regs) {
    for (int i = 0; i < kXCount; i++) x_[i] = regs.x(kXRegs[i]);
    for (int i = 0; i < kDCount; i++) d_[i] = regs.d(kFirstD + i);
  }
  void Restore() {
    for (int i = 0; i < kXCount; i++) regs_.set_x(kXRegs[i], x_[i]);
    for (int i = 0; i < kDCount; i++) regs_.set_d(kFirstD + i, d_[i]);
  }

 private:
  // X19-X28, FP and SP; D8-D15.
  static constexpr int kXRegs[] = {19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, kGuestSp};
  static constexpr int kXCount = 12, kFirstD = 8, kDCount = 8;
  GuestRegisters& regs_;
  uint64_t x_[kXCount];
  uint64_t d_[kDCount];
};

void UnicornExecutor::RunStub(CallFrame* frame, int depth) {
  Engine& e = ThisThreadEngine();
  ApplyCodeRecords(e);
  std::optional<CalleeSaved> saved;
  if (depth > 1) {
    saved.emplace(e.regs);  // a nested call interrupts a guest suspended in a host call
    if (e.calls_in_hook > 0) e.nested_runs_in_hook++;
  } else {
    e.host_maps_fresh = false;
    if (!e.on_demand.empty() && StaleCheckDue(e)) DropStaleOnDemandMappings(e);
    if (e.address_space_changed) FlushTranslations(e);
    // The guest starts on its own stack, so the stub has no stack to switch to.
    e.regs.set_x(kGuestSp, frame->new_sp);
    frame->new_sp = 0;
  }
  try {
    RunToSentinel(e, frame);
  } catch (...) {
    if (saved) saved->Restore();
    throw;
  }
}

void UnicornExecutor::RunToSentinel(Engine& e, CallFrame* frame) {
  e.regs.set_x(0, reinterpret_cast<uintptr_t>(frame));
  e.regs.set_x(kGuestLr, kReturnSentinel);
  uint64_t pc = reinterpret_cast<uintptr_t>(stub());
  constexpr int kMaxQuietStops = 1000;
  int quiet_stops = 0;
  for (;;) {
    e.stop = Stop{};
    uc_err err = uc_emu_start(e.uc, pc, 0, 0, 0);
    Stop stop = e.stop;
    ApplyCodeRecords(e);  // code compiled or changed while emulation was stopped
    if (stop.what == Stop::kHostCall) {
      if (stop.address == kReturnSentinel) return;
      pc = HostCall(e, stop.address, stop.trapped);
      continue;
    }
    if (stop.what == Stop::kRethrow) {
      std::exception_ptr thrown = std::move(e.pending);
      e.pending = nullptr;
      std::rethrow_exception(thrown);
    }
    if (stop.what != Stop::kNone) ThrowStop(stop);
    const uint64_t at = Reg(e.uc, UC_ARM64_REG_PC);
    // A stop request left set by a nested run (see CallInHook) ends this run at its next
    // exit from cpu_exec (a buffer flush, say), with nothing recorded: go on where it was.
    if (err == UC_ERR_OK && e.nested_runs_in_hook > 0 && ++quiet_stops < kMaxQuietStops) {
      pc = at;
      continue;
    }
    if (err != UC_ERR_OK) {
      ThrowStop(Stop{Stop::kFault, GuestFault::Kind::kUndefinedInstruction, at, at,
                     std::string("unicorn: ") + uc_strerror(err)});
    }
    throw ExecutorError("unicorn: emulation stopped at " + Hex(at) + " for no recorded reason");
  }
}

}  // namespace

std::unique_ptr<Executor> CreateUnicornExecutor(const ExecutorOptions& options) {
  ExecutorOptions chosen = options;
  if (KnobSet("A64JIT_UNICORN_UNCOUNTED")) chosen.count_instructions = false;
  std::unique_ptr<UnicornExecutor> executor(new UnicornExecutor(chosen));
  InitExecutor(executor.get());
  return executor;
}

}  // namespace a64jit::emu
