// expect: overflow
// nondet: 2
// Two threads each add 10^8 times a choice k in 0..3 to a shared int
// that starts at 2*10^9: any k >= 2 (or two k >= 1 in a row) takes it
// past INT_MAX. Decided by gcc -fsanitize=signed-integer-overflow, -m32
// and -m64, over every choice (overflow_test.go).
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int c = 2000000000;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *add(void *arg) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= k && k <= 3);
  int d = 100000000 * k;
  pthread_mutex_lock(&m);
  c = c + d;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
