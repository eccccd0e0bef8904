// expect: safe
// bounds: unwind=4 threads=2
// Stores through a symbolic index. Each thread stores its id into one cell
// of a shared array chosen nondeterministically, without reading the array;
// a store through a symbolic index writes each cell conditionally. Every
// cell holds 0, 1 or 2 at the end, and a cell that holds 2 was written by
// the second thread, whose index main learns after the join.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int a[3];
int where[3];

void *put(void *arg) {
  int id = (int)(long)arg;
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 2)
    i = 0;
  where[id] = i;
  a[i] = id;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int k;
  pthread_create(&t1, 0, put, (void *)1);
  pthread_create(&t2, 0, put, (void *)2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  for (k = 0; k < 3; k++) {
    assert(a[k] >= 0 && a[k] <= 2);
    assert(a[k] != 2 || where[2] == k);
  }
  return 0;
}
