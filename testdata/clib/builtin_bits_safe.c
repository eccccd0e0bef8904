// expect: safe
// popcount, parity, ffs, clz and ctz (and their l/ll forms) of constants
// and popcount and parity of any value; ffs(0) is 0 (clz and ctz of 0 are
// undefined and not used; clz, ctz and ffs of any non-zero value:
// builtin_bits2_safe.c).
// (popcount(x) + popcount(~x) == 32 holds too but is a hard problem for
// a bit-vector solver: not asserted here.)
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  assert((__builtin_popcount(x) == 0) == (x == 0));
  assert(__builtin_popcount(x & 0xf0u) == __builtin_popcount((x >> 4) & 0xfu));
  assert(__builtin_popcount(0xf0f0u) == 8 && __builtin_popcountll(~0ULL) == 64);
  assert(__builtin_parity(x) == (__builtin_popcount(x) & 1));
  assert(__builtin_parityll(3ULL << 40) == 0 && __builtin_parityl(7L) == 1);
  assert(__builtin_popcountl(-1L) == 8 * (int)sizeof(long));
  assert(__builtin_ffs(0) == 0);
  assert(__builtin_ffs(8) == 4 && __builtin_ffs(-1) == 1);
  assert(__builtin_clz(1u) == 31 && __builtin_ctz(0x80000000u) == 31);
  assert(__builtin_clzll(1ULL) == 63 && __builtin_ctzll(1ULL << 40) == 40);
  assert(__builtin_clzl(1UL) == 8 * (int)sizeof(long) - 1);
  return 0;
}
