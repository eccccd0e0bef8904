// expect: safe
// The SV-COMP library as the tasks define it: reach_error through
// __assert_fail, __VERIFIER_assert with abort, __VERIFIER_assume, and exit
// ending the runs that would reach the error.
#include <stdlib.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "svcomp_lib_safe.c", 3, "reach_error"); }
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
  ERROR: {reach_error(); abort();}
  }
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x < 10);
  if (x == 5)
    exit(0);
  if (x < 0)
    reach_error();
  __VERIFIER_assert(x != 5);
  if (x == 7)
    abort();
  __VERIFIER_assert(x != 7);
  return 0;
}
