// expect: unsafe
// bounds: unwind=3 threads=3
// Atomic sections, as atomic_section_safe.c, but main checks after joining
// only the two threads that increment by 1: the third one's add may not
// have run yet, so x can be 2 (the sections keep each increment whole, so
// x is never seen between a read and its write). Truth: the schedule a, b,
// main, c is a run of the program (nothing orders c before main's
// assertion).
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
  assert(x != 2);
  pthread_join(c, 0);
  return 0;
}
