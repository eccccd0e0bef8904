// expect: safe
// bounds: unwind=3 threads=2
// Dekker's algorithm: a thread that wants to enter backs off (lowers its
// flag) while the other one has the turn, and hands the turn over when it
// leaves. Mutual exclusion holds under interleaving semantics; in_cs counts
// the threads inside the critical section.
#include <pthread.h>
#include <assert.h>

int flag0 = 0, flag1 = 0;
int turn = 0;
int in_cs = 0;

void *p0(void *arg) {
  flag0 = 1;
  while (flag1 == 1) {
    if (turn != 0) {
      flag0 = 0;
      while (turn != 0) {
      }
      flag0 = 1;
    }
  }
  in_cs++;
  assert(in_cs == 1);
  in_cs--;
  turn = 1;
  flag0 = 0;
  return 0;
}

void *p1(void *arg) {
  flag1 = 1;
  while (flag0 == 1) {
    if (turn != 1) {
      flag1 = 0;
      while (turn != 1) {
      }
      flag1 = 1;
    }
  }
  in_cs++;
  assert(in_cs == 1);
  in_cs--;
  turn = 0;
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
