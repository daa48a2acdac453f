// The fixed, readable addresses golden files lower with (golden/README.md lists them):
// nothing is executed, so they only have to be the same on every machine.
#ifndef A64JIT_GOLDEN_FAKE_ADDRESSES_H_
#define A64JIT_GOLDEN_FAKE_ADDRESSES_H_

#include "jit/hir/hir.h"
#include "jit/lower/lower.h"

namespace a64jit::golden {

// Replaces every address in `rt` by its stand-in: co_consts item i at 0x1000000 + 16 i,
// co_names item i at 0x2000000 + 16 i, site caches from 0x3000000, the code at 0x4000000,
// and the runtime's objects from 0x5000000, 16 bytes apart. The per-constant facts (small
// ints, kinds, one-character strs) are left as they are.
void UseFakeAddresses(lower::RuntimeAddresses* rt);

// For HIR text (no code object): the per-constant facts read from each constant's repr (an
// int, a float, a quoted str; anything else is kOther), then the stand-ins.
lower::RuntimeAddresses FakeAddressesOfReprs(const hir::CodeInfo& code);

}  // namespace a64jit::golden

#endif  // A64JIT_GOLDEN_FAKE_ADDRESSES_H_
