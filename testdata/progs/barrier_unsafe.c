// expect: unsafe
// A barrier of two used for two rounds: in round k thread 1 writes a[k]
// before the barrier and thread 2 reads it after, which is ordered; but
// thread 1 writes a[1] = 2 after the second barrier, while thread 2 reads
// a[1] after that barrier too: thread 2 may read before the write.
// gcc -pthread -m32 and -m64, 1000 runs each: the last assertion failed
// in 335 and 291 runs (a race); the earlier ones never.
#include <pthread.h>
#include <assert.h>

pthread_barrier_t b;
int a[2];

void *t1(void *arg) {
  for (int k = 0; k < 2; k++) {
    a[k] = 1;
    pthread_barrier_wait(&b);
  }
  a[1] = 2;
  return 0;
}

void *t2(void *arg) {
  for (int k = 0; k < 2; k++) {
    pthread_barrier_wait(&b);
    assert(a[k] >= 1);
  }
  assert(a[1] == 2);
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_barrier_init(&b, 0, 2);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  return 0;
}
