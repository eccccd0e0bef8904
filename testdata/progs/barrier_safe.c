// expect: safe
// A barrier of two: each thread writes its variable before the barrier
// and reads the other's after it, so both reads see 1; exactly one of the
// two waits returns PTHREAD_BARRIER_SERIAL_THREAD.
// gcc -pthread -m32 and -m64, 200 runs each: no assertion failed.
#include <pthread.h>
#include <assert.h>

pthread_barrier_t b;
int x, y, serial;

void *t1(void *a) {
  x = 1;
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD)
    serial++;
  assert(y == 1);
  return 0;
}

void *t2(void *a) {
  y = 1;
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD)
    serial++;
  assert(x == 1);
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_barrier_init(&b, 0, 2);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(serial == 1);
  pthread_barrier_destroy(&b);
  return 0;
}
