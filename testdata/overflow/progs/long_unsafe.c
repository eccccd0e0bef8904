// expect: overflow
// nondet: 2
// 64-bit signed arithmetic (long long in both data models): LLONG_MAX - 5
// + k1 plus 3 overflows for k1 >= 3; 3037000499 + k2 squared overflows
// for k2 >= 1 (3037000499^2 < LLONG_MAX < 3037000500^2). Decided by gcc
// -fsanitize=signed-integer-overflow, -m32 and -m64, over every choice.
#include <pthread.h>
#include <limits.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

long long a, b;

void *big(void *arg) {
  int k1 = __VERIFIER_nondet_int();
  int k2 = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= k1 && k1 <= 3 && 0 <= k2 && k2 <= 3);
  long long x = LLONG_MAX - 5 + k1;
  long long y = 3037000499LL + k2;
  a = x + 3;
  b = y * y;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, big, 0);
  pthread_join(t, 0);
  return 0;
}
