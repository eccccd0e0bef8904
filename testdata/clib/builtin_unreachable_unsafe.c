// expect: unsafe
// The violation comes before the __builtin_unreachable() that ends the
// runs that reach it.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x & 1) {
    assert(!(x & 1));
    __builtin_unreachable();
  }
  return 0;
}
