// expect: unsafe
// All 32 bits of 0xffffffff are set: the assertion fails when the
// nondeterministic byte is 0xff.
#include <assert.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char b = __VERIFIER_nondet_uchar();
  unsigned int x = 0xffffff00u | b;
  assert(__builtin_clz(x) + __builtin_popcount(x) < 32);
  return 0;
}
