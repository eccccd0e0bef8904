// expect: overflow
// nondet: 1
// 1 << 31 shifts a one into the sign bit, undefined in C99 and C11 (CBMC's
// signed shl overflow; gcc -fsanitize=shift): a thread shifts 1 by 28 + k.
// Decided by gcc -fsanitize=shift, -m32 and -m64, over every choice.
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int s, r;

void *shift(void *arg) {
  r = 1 << s;
  return 0;
}

int main(void) {
  pthread_t t;
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= k && k <= 3);
  s = 28 + k;
  pthread_create(&t, 0, shift, 0);
  pthread_join(t, 0);
  return 0;
}
