/* A guest program with known work for qemu_profile_test: spin() runs a loop n times and
 * bump() is called n times through a function pointer (one blr and one ret each). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long spin(long n) {
  long s = 0;
  for (long i = 0; i < n; i++) s += i ^ (s >> 3);
  return s;
}

__attribute__((noinline)) long bump(long x) { return x + 1; }

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  long s = spin(n);
  long (*volatile call)(long) = bump;
  for (long i = 0; i < n; i++) s = call(s);
  printf("%ld\n", s);
  return 0;
}
