// expect: overflow
// nondet: 2
// INT_MIN / -1 and INT_MIN % -1 are undefined (C11 6.5.5p6): a thread
// divides INT_MIN + (k1 & 1) by -1 or 1 (k2 < 2: -1). Decided by gcc
// -fsanitize=signed-integer-overflow, -m32 and -m64, over every choice.
#include <pthread.h>
#include <limits.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int q, r;

void *divide(void *arg) {
  int k1 = __VERIFIER_nondet_int();
  int k2 = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= k1 && k1 <= 3 && 0 <= k2 && k2 <= 3);
  int n = INT_MIN + (k1 & 1);
  int d = k2 < 2 ? -1 : 1;
  q = n / d;
  r = n % d;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, divide, 0);
  pthread_join(t, 0);
  return 0;
}
