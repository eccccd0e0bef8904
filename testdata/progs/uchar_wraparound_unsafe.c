// expect: unsafe
// bounds: unwind=3 threads=2
// Unsigned char wrap-around. Two threads each add a small nondet amount
// (0..5) to `level`, starting at 250, under a lock. When the amounts sum to
// 6 or more, 250 + 6 wraps to 0 and the check level >= 250 fails.
#include <pthread.h>
#include <assert.h>

extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int cond);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
unsigned char level = 250;

void *add(void *arg) {
  unsigned char d = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(d <= 5);
  pthread_mutex_lock(&m);
  level = level + d;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(level >= 250);
  return 0;
}
