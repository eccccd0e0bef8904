// expect: safe
// popcount, parity, ffs, clz and ctz (and their l/ll forms) of non-zero
// values; ffs(0) is 0 (clz and ctz of 0 are undefined and not used).
// (popcount(x) + popcount(~x) == 32 holds too but is a hard problem for
// a bit-vector solver: not asserted here.)
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned long long y = __VERIFIER_nondet_ulonglong();
  int s = __VERIFIER_nondet_int();
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
  if (x != 0) {
    int c = __builtin_clz(x), t = __builtin_ctz(x);
    assert(x >> (31 - c) == 1);
    assert(((x >> t) & 1) == 1);
    assert(__builtin_ffs((int)x) == t + 1);
  }
  if (s != 0)
    assert(__builtin_ffs(s) == __builtin_ctz((unsigned)s) + 1);
  if (y != 0)
    assert(y >> (63 - __builtin_clzll(y)) == 1);
  return 0;
}
