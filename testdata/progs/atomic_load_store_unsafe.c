// expect: unsafe
// x = x + 1 on an _Atomic variable is an atomic load and an atomic store,
// not one atomic read-modify-write: two threads can both read 0 and both
// store 1.
// Checked: gcc -pthread with a sched_yield() between the load and the
// store (same semantics, wider window): the assertion failed in 112 of
// 3000 runs; by construction the interleaving load1 load2 store1 store2
// ends with x == 1.
#include <pthread.h>
#include <assert.h>

_Atomic int x;

void *inc(void *arg) { x = x + 1; return 0; }

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, inc, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x == 2);
  return 0;
}
