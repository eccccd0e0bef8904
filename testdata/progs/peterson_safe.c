// expect: safe
// bounds: unwind=3 threads=2
// Peterson's mutual exclusion for two threads. Each thread raises its flag,
// then gives the turn away, then waits while the other wants in and has the
// turn. Under interleaving (sequentially consistent) semantics at most one
// thread is in the critical section, which in_cs checks. Reading the two
// variables of the wait condition separately does not break the argument.
#include <pthread.h>
#include <assert.h>

int flag0 = 0, flag1 = 0;
int turn = 0;
int in_cs = 0;

void *p0(void *arg) {
  flag0 = 1;
  turn = 1;
  while (flag1 == 1 && turn == 1) {
  }
  in_cs = in_cs + 1;
  assert(in_cs == 1);
  in_cs = in_cs - 1;
  flag0 = 0;
  return 0;
}

void *p1(void *arg) {
  flag1 = 1;
  turn = 0;
  while (flag0 == 1 && turn == 0) {
  }
  in_cs = in_cs + 1;
  assert(in_cs == 1);
  in_cs = in_cs - 1;
  flag1 = 0;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, p0, 0);
  pthread_create(&b, 0, p1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
