// Direct access to a Unicorn 2.0 engine's guest registers, without a library call each.
//
// Why: every host call reads LR, SP and its argument registers and writes X0, and the block
// hook reads SP to check its alignment, each through uc_reg_read (a call and a switch over
// the register id). On Richards under a64jit-run that was about 6% of the run (perf,
// 2026-11-22). The registers live in the engine's CPUARMState as plain arrays (xregs[32]
// with SP in xregs[31], and the vector registers with D<n> as their low 64 bits); while
// emulation is stopped, and inside hooks (TCG writes its globals back before calling a
// helper), those arrays are the registers.
#ifndef A64JIT_EMULATION_UNICORN_REGISTERS_H_
#define A64JIT_EMULATION_UNICORN_REGISTERS_H_

#include <unicorn/unicorn.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace a64jit::emu {

constexpr int kGuestLr = 30;  // X30
constexpr int kGuestSp = 31;  // SP's index among the X registers here

// Unicorn's id of X<i> (i = 31: SP).
inline int XRegisterId(int i) {
  if (i == kGuestSp) return UC_ARM64_REG_SP;
  if (i == 29) return UC_ARM64_REG_X29;
  if (i == kGuestLr) return UC_ARM64_REG_X30;
  return UC_ARM64_REG_X0 + i;
}

// One engine's X registers (SP as X31) and the low 64 bits of its vector registers (D<n>):
// through the engine's arrays where they were found, else through uc_reg_read/write.
class GuestRegisters {
 public:
  // Finds the arrays by writing distinct values to all the registers through Unicorn and
  // looking for them in the engine's CPU, then sets them all to 0. Where the layout check
  // fails, every access goes through Unicorn. A64JIT_UNICORN_REG_CALLS=1 makes it so on
  // purpose (for measuring).
  void Attach(uc_engine* uc);
  bool direct() const { return x_ != nullptr; }

  uint64_t x(int i) const {
    if (x_ != nullptr) return x_[i];
    uint64_t v = 0;
    uc_reg_read(uc_, XRegisterId(i), &v);
    return v;
  }
  void set_x(int i, uint64_t v) {
    if (x_ != nullptr) {
      x_[i] = v;
    } else {
      uc_reg_write(uc_, XRegisterId(i), &v);
    }
  }
  uint64_t d(int i) const {
    uint64_t bits = 0;
    if (x_ != nullptr) {
      std::memcpy(&bits, d0_ + i * d_stride_, sizeof bits);
    } else {
      uc_reg_read(uc_, UC_ARM64_REG_D0 + i, &bits);
    }
    return bits;
  }
  uint64_t pc() const {
    if (pc_ != nullptr) return *pc_;
    uint64_t v = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PC, &v);
    return v;
  }
  // PC, written inside a hook without Unicorn's reaction to a PC write (uc_reg_write of PC
  // asks the run loop to leave cpu_exec and enter it again). Through uc_reg_write where the
  // word after the X registers was not found to be PC.
  void set_pc(uint64_t v) {
    if (pc_ != nullptr) {
      *pc_ = v;
    } else {
      uc_reg_write(uc_, UC_ARM64_REG_PC, &v);
    }
  }
  void set_d(int i, uint64_t bits) {
    if (x_ != nullptr) {
      std::memcpy(d0_ + i * d_stride_, &bits, sizeof bits);
    } else {
      uc_reg_write(uc_, UC_ARM64_REG_D0 + i, &bits);
    }
  }

 private:
  uc_engine* uc_ = nullptr;
  uint64_t* x_ = nullptr;   // CPUARMState::xregs
  uint64_t* pc_ = nullptr;  // CPUARMState::pc, the word after xregs in QEMU 5's layout
  uint8_t* d0_ = nullptr;   // the low 64 bits of V0; V<i>'s at d0_ + i * d_stride_
  size_t d_stride_ = 0;
};

}  // namespace a64jit::emu

#endif  // A64JIT_EMULATION_UNICORN_REGISTERS_H_
