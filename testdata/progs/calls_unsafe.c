// expect: unsafe
// bounds: unwind=3 threads=2
// calls_safe.c without the lock in inc and dec: the lost update (a reads
// g = 0, b reads 0 and writes -1, a writes 1) ends with g = 2.
// The window is a few instructions wide, so gcc's runs rarely show it (the
// argument above decides); the other engines find it, lazy
// sequentialisation within 3 rounds (main joins in the third).
#include <pthread.h>
#include <assert.h>

int g, h;

void inc(int *p) {
  int v = *p;
  *p = v + 1;
}

void dec(int *p) {
  int v = *p;
  *p = v - 1;
}

int twice(int x) {
  if (x > 0)
    return twice(x - 1) + 2;
  return 0;
}

int __VERIFIER_atomic_add(int *p, int v) {
  *p += v;
  return *p;
}

void finish(int r) {
  if (r)
    pthread_exit((void *)0);
}

void work(void (*f)(int *), int last) {
  f(&g);
  finish(last);
  f(&g);
  __VERIFIER_atomic_add(&h, twice(1));
  return;
}

void *up(void *arg) {
  work(inc, 0);
  return 0;
}

void *down(void *arg) {
  work(dec, 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, up, 0);
  pthread_create(&b, 0, down, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(g == 1 && h == 2);
  return 0;
}
