// A QEMU TCG plugin for qemu-user (7.2, plugin API version 1) that counts, per translated
// block, how often it ran: from that, guest instructions and indirect branches (ret, br,
// blr) per function. Under QEMU those two numbers are what a run costs: a block's
// instructions run at TCG speed, and every indirect branch goes through QEMU's block lookup
// helper. At exit it writes one line per executed block, "vaddr insns count last_insn", to
// the file named by the `out` argument, and the host's /proc/self/maps next to it (.maps):
// qemu-user maps an aarch64 guest on an x86-64 host at guest address == host address, so
// the report (report.py) finds the guest's ELF files there.
//
// Debian ships no qemu-plugin.h, so the few entry points used are declared here from QEMU's
// documented plugin API; QEMU resolves them by name when it loads the plugin.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

extern "C" {
using qemu_plugin_id_t = uint64_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
using TbTransCallback = void (*)(qemu_plugin_id_t, qemu_plugin_tb*);
using AtExitCallback = void (*)(qemu_plugin_id_t, void*);
constexpr int kInlineAddU64 = 0;  // enum qemu_plugin_op: QEMU_PLUGIN_INLINE_ADD_U64

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, TbTransCallback cb);
void qemu_plugin_register_vcpu_tb_exec_inline(qemu_plugin_tb* tb, int op, void* ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, AtExitCallback cb, void* userdata);
size_t qemu_plugin_tb_n_insns(const qemu_plugin_tb* tb);
uint64_t qemu_plugin_tb_vaddr(const qemu_plugin_tb* tb);
qemu_plugin_insn* qemu_plugin_tb_get_insn(const qemu_plugin_tb* tb, size_t idx);
const void* qemu_plugin_insn_data(const qemu_plugin_insn* insn);

__attribute__((visibility("default"))) extern const int qemu_plugin_version;
__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const void* info, int argc,
                                                               char** argv);
}

const int qemu_plugin_version = 1;  // visibility comes from the declaration above

namespace {

// One per translation. QEMU adds 1 to `count` inline each time the block runs; records are
// never freed (QEMU may run a block until exit).
struct Block {
  uint64_t count = 0;
  uint64_t vaddr = 0;
  uint32_t insns = 0;
  uint32_t last_insn = 0;
};

std::mutex g_mutex;
std::vector<Block*>* g_blocks = new std::vector<Block*>();
std::string* g_out = new std::string("tb_profile.txt");

void OnTranslate(qemu_plugin_id_t, qemu_plugin_tb* tb) {
  auto* b = new Block();
  b->vaddr = qemu_plugin_tb_vaddr(tb);
  b->insns = static_cast<uint32_t>(qemu_plugin_tb_n_insns(tb));
  if (b->insns > 0) {
    std::memcpy(&b->last_insn, qemu_plugin_insn_data(qemu_plugin_tb_get_insn(tb, b->insns - 1)),
                sizeof b->last_insn);
  }
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_blocks->push_back(b);
  }
  qemu_plugin_register_vcpu_tb_exec_inline(tb, kInlineAddU64, &b->count, 1);
}

void CopyFile(const char* from, const std::string& to) {
  FILE* in = std::fopen(from, "r");
  FILE* out = std::fopen(to.c_str(), "w");
  if (in != nullptr && out != nullptr) {
    char buf[65536];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, in)) > 0;) std::fwrite(buf, 1, n, out);
  }
  if (in != nullptr) std::fclose(in);
  if (out != nullptr) std::fclose(out);
}

void OnExit(qemu_plugin_id_t, void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  FILE* f = std::fopen(g_out->c_str(), "w");
  if (f == nullptr) {
    std::fprintf(stderr, "tb_profile: cannot write %s\n", g_out->c_str());
    return;
  }
  for (const Block* b : *g_blocks) {
    if (b->count == 0) continue;
    std::fprintf(f, "%llx %u %llu %08x\n", static_cast<unsigned long long>(b->vaddr), b->insns,
                 static_cast<unsigned long long>(b->count), b->last_insn);
  }
  std::fclose(f);
  CopyFile("/proc/self/maps", *g_out + ".maps");
}

}  // namespace

int qemu_plugin_install(qemu_plugin_id_t id, const void*, int argc, char** argv) {
  for (int i = 0; i < argc; i++) {
    if (std::strncmp(argv[i], "out=", 4) == 0) {
      *g_out = argv[i] + 4;
    } else {
      std::fprintf(stderr, "tb_profile: unknown argument %s (expected out=FILE)\n", argv[i]);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, OnTranslate);
  qemu_plugin_register_atexit_cb(id, OnExit, nullptr);
  return 0;
}
