// expect: safe
// bounds: unwind=3 threads=3
// Atomic sections. Two threads increment x inside
// __VERIFIER_atomic_begin()/__VERIFIER_atomic_end(), a third one through the
// atomic function __VERIFIER_atomic_add, whose whole body runs without
// interruption. No increment is lost: x ends as 1 + 1 + 5.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int x = 0;

void __VERIFIER_atomic_add(int d) {
  int t = x;
  x = t + d;
}

void *inc(void *arg) {
  int t;
  __VERIFIER_atomic_begin();
  t = x;
  x = t + 1;
  __VERIFIER_atomic_end();
  return 0;
}

void *add5(void *arg) {
  __VERIFIER_atomic_add(5);
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_create(&c, 0, add5, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  assert(x == 7);
  return 0;
}
