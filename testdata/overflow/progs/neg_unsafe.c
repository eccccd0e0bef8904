// expect: overflow
// nondet: 1
// -INT_MIN is undefined: a thread negates INT_MIN when k == 3, -5
// otherwise. Decided by gcc -fsanitize=signed-integer-overflow, -m32 and
// -m64, over every choice.
#include <pthread.h>
#include <limits.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int v, w;

void *negate(void *arg) {
  w = -v;
  return 0;
}

int main(void) {
  pthread_t t;
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= k && k <= 3);
  v = k == 3 ? INT_MIN : -5;
  pthread_create(&t, 0, negate, 0);
  pthread_join(t, 0);
  return 0;
}
