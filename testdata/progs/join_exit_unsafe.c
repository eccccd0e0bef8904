// expect: unsafe
// The value a thread passes to pthread_exit is what pthread_join stores:
// the thread given 1 exits with &b, so r1 == &a fails in every run (it was
// once an opaque value, and the counterexample then was UNKNOWN).
// Checked: gcc -O0 -pthread, 300 runs, the assertion failed in all.
#include <pthread.h>
#include <assert.h>

int a, b, one = 1, zero = 0;

void *t(void *arg) {
  int k = *(int *)arg;
  if (k)
    pthread_exit(&b);
  return &a;
}

int main(void) {
  pthread_t h1, h2;
  void *r1, *r2;
  pthread_create(&h1, 0, t, &one);
  pthread_create(&h2, 0, t, &zero);
  pthread_join(h1, &r1);
  pthread_join(h2, &r2);
  assert(r2 == &a);
  assert(r1 == &a);
  return 0;
}
