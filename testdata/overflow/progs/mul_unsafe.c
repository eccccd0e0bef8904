// expect: overflow
// nondet: 1
// A thread squares 46000 + 200*k, k in 0..3, and its negation: 46400^2 =
// 2152960000 > INT_MAX (k >= 2), 46200^2 fits. Decided by gcc
// -fsanitize=signed-integer-overflow, -m32 and -m64, over every choice.
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int sq, nsq;

void *square(void *arg) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= k && k <= 3);
  int x = 46000 + 200 * k;
  int y = -x;
  sq = x * x;
  nsq = y * x;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, square, 0);
  pthread_join(t, 0);
  return 0;
}
