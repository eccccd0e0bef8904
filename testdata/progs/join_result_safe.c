// expect: safe
// pthread_join stores what the joined thread returned: each thread returns
// its argument, so the results are &a and &b in join order, and the heap
// block a third thread allocates and fills is read through its result.
// Checked: gcc -O0 -pthread, 300 runs, no assertion failed.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

int a, b;

void *t(void *arg) { int *p = arg; *p = 1; return arg; }

void *mk(void *arg) { int *p = malloc(sizeof(int)); if (p == 0) return 0; *p = 42; return p; }

int main(void) {
  pthread_t h1, h2, h3;
  void *r1, *r2, *r3;
  pthread_create(&h1, 0, t, &a);
  pthread_create(&h2, 0, t, &b);
  pthread_create(&h3, 0, mk, 0);
  pthread_join(h2, &r2);
  pthread_join(h1, &r1);
  pthread_join(h3, &r3);
  assert(r1 == &a && r2 == &b);
  assert(*(int *)r1 == 1);
  assert(r3 == 0 || *(int *)r3 == 42);
  return 0;
}
