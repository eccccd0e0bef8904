// expect: safe
// clz, ctz and ffs of any non-zero value: the highest and lowest set bit
// (the other bit builtins: builtin_bits_safe.c).
#include <assert.h>
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  unsigned long long y = __VERIFIER_nondet_ulonglong();
  int s = __VERIFIER_nondet_int();
  if (s != 0) {
    unsigned x = (unsigned)s;
    assert(x >> (31 - __builtin_clz(x)) == 1);
    assert(((x >> __builtin_ctz(x)) & 1) == 1);
  }
  if (s != 0)
    assert(__builtin_ffs(s) == __builtin_ctz((unsigned)s) + 1);
  if (y != 0)
    assert(y >> (63 - __builtin_clzll(y)) == 1);
  return 0;
}
