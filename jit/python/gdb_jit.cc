#include "jit/python/gdb_jit.h"

#include <elf.h>

#include <cstring>
#include <memory>

// The symbols gdb looks for, with C names and the layout of its JIT interface (version 1):
// gdb puts a breakpoint in __jit_debug_register_code and, when it is hit, reads
// relevant_entry and action_flag from __jit_debug_descriptor.
extern "C" {
enum JitAction : uint32_t { kJitNoAction = 0, kJitRegister = 1, kJitUnregister = 2 };
struct jit_code_entry {
  jit_code_entry* next_entry;
  jit_code_entry* prev_entry;
  const char* symfile_addr;
  uint64_t symfile_size;
};
struct jit_descriptor {
  uint32_t version;
  uint32_t action_flag;
  jit_code_entry* relevant_entry;
  jit_code_entry* first_entry;
};
__attribute__((visibility("default")))
jit_descriptor __jit_debug_descriptor = {1, kJitNoAction, nullptr, nullptr};
// Empty, never inlined, never folded away: the breakpoint's place.
__attribute__((visibility("default"), noinline, used)) void __jit_debug_register_code() {
  __asm__ volatile("" ::: "memory");
}
}

namespace a64jit::python {

namespace {

// DWARF call-frame information (.debug_frame) for one function with codegen's frame record.
class FrameInfo {
 public:
  std::vector<uint8_t> Make(uint64_t start, uint64_t size) {
    Cie();
    Fde(start, size);
    return std::move(out_);
  }

 private:
  static constexpr uint8_t kDefCfa = 0x0c, kDefCfaRegister = 0x0d, kDefCfaOffset = 0x0e;
  static constexpr uint8_t kAdvanceLoc = 0x40, kOffset = 0x80;
  static constexpr int kSp = 31, kFp = 29, kLr = 30;

  void U8(uint8_t v) { out_.push_back(v); }
  void U32(uint32_t v) { Raw(&v, 4); }
  void U64(uint64_t v) { Raw(&v, 8); }
  void Raw(const void* p, size_t n) {
    out_.insert(out_.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
  }
  void Uleb(uint64_t v) {
    do {
      uint8_t b = v & 0x7f;
      v >>= 7;
      U8(v != 0 ? (b | 0x80) : b);
    } while (v != 0);
  }
  // Starts an entry (its length filled by End), padded to 8 bytes with DW_CFA_nop.
  size_t Begin() {
    const size_t at = out_.size();
    U32(0);
    return at;
  }
  void End(size_t at) {
    while ((out_.size() - at) % 8 != 0) U8(0);
    const uint32_t length = static_cast<uint32_t>(out_.size() - at - 4);
    std::memcpy(&out_[at], &length, 4);
  }
  void Cie() {
    const size_t at = Begin();
    U32(0xffffffff);  // CIE_id of .debug_frame
    U8(1);            // version
    U8(0);            // no augmentation
    Uleb(4);          // code alignment: instructions
    U8(0x78);         // data alignment -8 (SLEB128)
    U8(kLr);          // the return address is in x30
    U8(kDefCfa);      // on entry CFA = sp
    Uleb(kSp);
    Uleb(0);
    End(at);
  }
  void Fde(uint64_t start, uint64_t size) {
    const size_t at = Begin();
    U32(0);  // the CIE at offset 0
    U64(start);
    U64(size);
    U8(kAdvanceLoc | 1);  // after stp x29, x30, [sp, #-16]!
    U8(kDefCfaOffset);
    Uleb(16);
    U8(kOffset | kFp);  // x29 at CFA - 16
    Uleb(2);
    U8(kOffset | kLr);  // x30 at CFA - 8
    Uleb(1);
    U8(kAdvanceLoc | 1);  // after mov x29, sp: CFA = x29 + 16 for the rest
    U8(kDefCfaRegister);
    Uleb(kFp);
    End(at);
  }

  std::vector<uint8_t> out_;
};

// An ELF64 relocatable object: .text (NOBITS at the code's address), .debug_frame,
// .symtab, .strtab, .shstrtab.
class ElfWriter {
 public:
  std::vector<uint8_t> Make(const std::string& name, uint64_t start, uint64_t size) {
    const std::vector<uint8_t> frame = FrameInfo().Make(start, size);
    static constexpr char kSectionNames[] = "\0.text\0.debug_frame\0.symtab\0.strtab\0.shstrtab";
    const std::string shstr(kSectionNames, sizeof kSectionNames);
    // "[JIT]": an upper-case letter keeps gdb from taking "__" for Ada's encoded "." (it
    // would show a64jit:__main__:f as a64jit:.main.:f).
    const std::string str = std::string(1, '\0') + name + "[JIT]" + '\0';
    Elf64_Sym syms[2] = {};
    syms[1].st_name = 1;
    syms[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
    syms[1].st_shndx = 1;
    syms[1].st_value = 0;  // relocatable: from the start of .text, which is at `start`
    syms[1].st_size = size;

    out_.resize(sizeof(Elf64_Ehdr));
    const uint64_t frame_at = Append(frame.data(), frame.size());
    const uint64_t sym_at = Append(syms, sizeof syms);
    const uint64_t str_at = Append(str.data(), str.size());
    const uint64_t shstr_at = Append(shstr.data(), shstr.size());
    Elf64_Shdr sh[6] = {};
    sh[1] = Section(1, SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, start, 0, size, 16);
    sh[2] = Section(7, SHT_PROGBITS, 0, 0, frame_at, frame.size(), 8);
    sh[3] = Section(20, SHT_SYMTAB, 0, 0, sym_at, sizeof syms, 8);
    sh[3].sh_link = 4;  // .strtab
    sh[3].sh_info = 1;  // the first global symbol
    sh[3].sh_entsize = sizeof(Elf64_Sym);
    sh[4] = Section(28, SHT_STRTAB, 0, 0, str_at, str.size(), 1);
    sh[5] = Section(36, SHT_STRTAB, 0, 0, shstr_at, shstr.size(), 1);
    const uint64_t sh_at = Append(sh, sizeof sh);
    Header(sh_at);
    return std::move(out_);
  }

 private:
  uint64_t Append(const void* p, size_t n) {
    while (out_.size() % 8 != 0) out_.push_back(0);
    const uint64_t at = out_.size();
    out_.insert(out_.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
    return at;
  }
  static Elf64_Shdr Section(uint32_t name, uint32_t type, uint64_t flags, uint64_t addr,
                            uint64_t offset, uint64_t size, uint64_t align) {
    Elf64_Shdr s = {};
    s.sh_name = name;
    s.sh_type = type;
    s.sh_flags = flags;
    s.sh_addr = addr;
    s.sh_offset = offset;
    s.sh_size = size;
    s.sh_addralign = align;
    return s;
  }
  void Header(uint64_t sh_at) {
    Elf64_Ehdr h = {};
    std::memcpy(h.e_ident, ELFMAG, SELFMAG);
    h.e_ident[EI_CLASS] = ELFCLASS64;
    h.e_ident[EI_DATA] = ELFDATA2LSB;
    h.e_ident[EI_VERSION] = EV_CURRENT;
    h.e_ident[EI_OSABI] = ELFOSABI_NONE;
    h.e_type = ET_REL;
    h.e_machine = EM_AARCH64;
    h.e_version = EV_CURRENT;
    h.e_shoff = sh_at;
    h.e_ehsize = sizeof(Elf64_Ehdr);
    h.e_shentsize = sizeof(Elf64_Shdr);
    h.e_shnum = 6;
    h.e_shstrndx = 5;
    std::memcpy(out_.data(), &h, sizeof h);
  }

  std::vector<uint8_t> out_;
};

struct Registered {
  std::unique_ptr<jit_code_entry> entry;
  std::vector<uint8_t> object;
};

std::vector<Registered>& Objects() {
  static auto* objects = new std::vector<Registered>();  // never freed: gdb may read them
  return *objects;
}

}  // namespace

std::vector<uint8_t> JitDebugObject(const std::string& name, uint64_t start, uint64_t size) {
  return ElfWriter().Make(name, start, size);
}

void RegisterWithDebugger(const std::string& name, const void* start, size_t size) {
  Registered r;
  r.object = JitDebugObject(name, reinterpret_cast<uintptr_t>(start), size);
  r.entry = std::make_unique<jit_code_entry>();
  r.entry->symfile_addr = reinterpret_cast<const char*>(r.object.data());
  r.entry->symfile_size = r.object.size();
  r.entry->next_entry = __jit_debug_descriptor.first_entry;
  if (r.entry->next_entry != nullptr) r.entry->next_entry->prev_entry = r.entry.get();
  __jit_debug_descriptor.first_entry = r.entry.get();
  __jit_debug_descriptor.relevant_entry = r.entry.get();
  __jit_debug_descriptor.action_flag = kJitRegister;
  Objects().push_back(std::move(r));  // the vector's buffers move, the object bytes do not
  __jit_debug_register_code();
  __jit_debug_descriptor.action_flag = kJitNoAction;
}

}  // namespace a64jit::python
