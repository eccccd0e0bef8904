// expect: unsafe
// The members of a union share one storage: the thread's store to u.a is
// the value main reads as u.b after the join, so the assertion fails in
// every run (it was TRUE when members were separate variables).
// Checked: gcc -O0 -pthread, 1000 runs, the assertion failed in all.
#include <pthread.h>
#include <assert.h>

union U { int a; int b; } u;

void *t(void *arg) { u.a = 7; return 0; }

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(u.b != 7);
  return 0;
}
