// expect: unsafe
// A value whose bytes read the same both ways (0 among them) is its own
// byte swap: the assertion fails for it.
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  assert(__builtin_bswap32(x) != x);
  return 0;
}
