// Extra entries of the shared stubs: the moves of a call's first arguments, made by the stub
// instead of at every call site.
//
// Compiled code calls its shared stubs (the call stub, jit/lower/call_stub.h; the site stubs,
// jit/lower/site_stubs.h) with arguments it keeps in the same places nearly everywhere: the
// thread state and the frame are the function's parameters, live across calls, so allocation
// puts them in x19 and x20; a call's argument vector is a stack slot at SP (the frame codegen.h
// lays out puts slots lowest, sp_addresses.h addresses them from SP). Each such stub is placed
// after words that make those moves, `mov x0, x19; mov x1, sp` before the call stub and `mov x0,
// x20` before a site stub. Entering at a word runs it and the words after it, so a site calls the
// first word from which every move is one it would have made, and places its other arguments
// itself. The moves run either way, in the stub instead of in the site: 4 bytes less a site for
// each, and no more instructions a call.
#ifndef A64JIT_JIT_RUNTIME_STUB_ENTRIES_H_
#define A64JIT_JIT_RUNTIME_STUB_ENTRIES_H_

#include <cstdint>
#include <map>
#include <vector>

namespace a64jit::runtime {

// One word before a stub, `mov x<arg>, x<from>`, or `mov x<arg>, sp`: code generation places
// them (CompileOptions::entry_moves).
struct EntryMove {
  static constexpr int kFromSp = 31;  // codegen's kSpId
  int arg;
  int from;
};

// The stubs that have extra entries, by their own entry, each with its moves in the order of
// their words.
using StubEntryTable = std::map<uint64_t, std::vector<EntryMove>>;

inline std::vector<EntryMove> CallStubMoves() { return {{0, 19}, {1, EntryMove::kFromSp}}; }
inline std::vector<EntryMove> SiteStubMoves() { return {{0, 20}}; }

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_RUNTIME_STUB_ENTRIES_H_
