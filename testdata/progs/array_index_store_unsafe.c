// expect: unsafe
// bounds: unwind=4 threads=2
// Stores through a symbolic index (the unsafe twin of array_index_store_safe.c).
// Both threads may pick the same cell; when the first thread stores last
// the cell holds 1, otherwise 2: the assertion that no cell the first
// thread picked holds 2 fails when the second stores after it.
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
    assert(a[k] != 2 || where[1] != k);
  }
  return 0;
}
