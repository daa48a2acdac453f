#include "jit/python/jitdump.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace a64jit::python {

namespace {

// perf's `-k 1` clock: CLOCK_MONOTONIC, in nanoseconds.
uint64_t Timestamp() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

struct Header {
  uint32_t magic, version, total_size, elf_mach, pad1, pid;
  uint64_t timestamp, flags;
};
static_assert(sizeof(Header) == Jitdump::kHeaderSize, "jitdump header layout");

struct RecordHeader {
  uint32_t id, total_size;
  uint64_t timestamp;
};

struct CodeLoad {
  RecordHeader header;
  uint32_t pid, tid;
  uint64_t vma, code_addr, code_size, code_index;
};
static_assert(sizeof(CodeLoad) == 56, "JIT_CODE_LOAD layout (name and code follow)");

}  // namespace

void JitdumpFile::Open(const std::string& dir, int pid) {
  Close();
  path_ = dir + "/jit-" + std::to_string(pid) + ".dump";
  file_ = std::fopen(path_.c_str(), "w+");
  if (file_ == nullptr) {
    throw std::runtime_error("cannot create " + path_ + ": " + std::strerror(errno));
  }
  const Header h{Jitdump::kMagic,
                 Jitdump::kVersion,
                 Jitdump::kHeaderSize,
                 Jitdump::kElfMachAarch64,
                 0,
                 static_cast<uint32_t>(pid),
                 Timestamp(),
                 0};
  Write(&h, sizeof h);
  std::fflush(file_);
  const long page = sysconf(_SC_PAGESIZE);
  void* m = mmap(nullptr, static_cast<size_t>(page), PROT_READ | PROT_EXEC, MAP_PRIVATE,
                 fileno(file_), 0);
  marker_ = m == MAP_FAILED ? nullptr : m;  // without it perf inject misses the file, no more
  next_index_ = 0;
}

void JitdumpFile::Write(const void* data, size_t size) {
  if (std::fwrite(data, 1, size, file_) != size) {
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
  }
}

void JitdumpFile::Append(const CodeRegion& region) {
  if (file_ == nullptr) return;
  const size_t name_size = region.name.size() + 1;
  CodeLoad r{};
  r.header.id = Jitdump::kCodeLoad;
  r.header.total_size = static_cast<uint32_t>(sizeof r + name_size + region.size);
  r.header.timestamp = Timestamp();
  r.pid = static_cast<uint32_t>(getpid());
  r.tid = static_cast<uint32_t>(syscall(SYS_gettid));
  r.vma = r.code_addr = region.start;
  r.code_size = region.size;
  r.code_index = next_index_++;
  Write(&r, sizeof r);
  Write(region.name.c_str(), name_size);
  Write(reinterpret_cast<const void*>(region.start), region.size);
  std::fflush(file_);
}

void JitdumpFile::Close() {
  if (file_ == nullptr) return;
  const RecordHeader close{Jitdump::kCodeClose, sizeof(RecordHeader), Timestamp()};
  std::fwrite(&close, 1, sizeof close, file_);
  Abandon();
}

void JitdumpFile::Abandon() {
  if (file_ != nullptr) std::fclose(file_);  // every record was flushed: nothing is written
  file_ = nullptr;
  if (marker_ != nullptr) munmap(marker_, static_cast<size_t>(sysconf(_SC_PAGESIZE)));
  marker_ = nullptr;
}

}  // namespace a64jit::python
