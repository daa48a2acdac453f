/* Two objects' worth of functions for qemu_profile_test's static_symbols.py check: built as
 * hidden_a.o (HIDDEN_A) and hidden_b.o, archived in that order and linked into a shared
 * library in the other order, then stripped, so the static functions keep no name in the
 * library and sit elsewhere than the archive's order puts them. */
#ifdef HIDDEN_A
__attribute__((noinline)) static long scramble_a(long x) { return (x * 2654435761L) ^ (x >> 7); }
__attribute__((noinline)) static long fold_a(long x, long n) {
  for (long i = 0; i < n; i++) x = scramble_a(x + i);
  return x;
}
long entry_a(long x) { return fold_a(x, 5) + scramble_a(x); }
#else
__attribute__((noinline)) static long mix_b(long x, long y) { return (x << 13) - (y ^ 0x5bd1e995L); }
__attribute__((noinline)) static long walk_b(long x, long n) {
  for (long i = 0; i < n; i++) x = mix_b(x, i) + mix_b(i, x);
  return x;
}
long entry_b(long x) { return walk_b(x, 3) - mix_b(x, 1); }
#endif
