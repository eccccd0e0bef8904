// expect: unsafe
// The result depends on the schedule: t1 returns &a only when it reads x
// before t2 writes it. When t2 runs first the assertion fails.
// Checked: gcc -O0 -pthread, 300 runs: the assertion failed in 299 (t2,
// created first, usually runs first) and held in one.
#include <pthread.h>
#include <assert.h>

int x, a, b;

void *t1(void *arg) { if (x == 0) return &a; return &b; }
void *t2(void *arg) { x = 1; return 0; }

int main(void) {
  pthread_t h1, h2;
  void *r;
  pthread_create(&h2, 0, t2, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h1, &r);
  assert(r == &a);
  return 0;
}
