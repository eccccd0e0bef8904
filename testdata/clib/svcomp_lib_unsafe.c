// expect: unsafe
// reach_error is reachable for x == 7, which __VERIFIER_assume allows.
#include <stdlib.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "svcomp_lib_unsafe.c", 3, "reach_error"); }
extern void __VERIFIER_assume(int);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  int x = __VERIFIER_nondet_uchar() % 8;
  __VERIFIER_assume(x != 3);
  if (x == 7)
    reach_error();
  return 0;
}
