// expect: unsafe
// SIZE_MAX is the largest size_t: adding one wraps to zero.
#include <assert.h>
#include <stdint.h>
#include <stddef.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  size_t n = SIZE_MAX - __VERIFIER_nondet_uchar() % 2;
  assert(n + 1 != 0);
  return 0;
}
