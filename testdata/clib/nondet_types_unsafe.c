// expect: unsafe
// __VERIFIER_nondet_ushort may return every unsigned short, 65535 too.
#include <assert.h>
extern unsigned short __VERIFIER_nondet_ushort(void);
int main(void) {
  assert(__VERIFIER_nondet_ushort() != 65535);
  return 0;
}
