// expect: unsafe
// pthread_mutex_timedlock on a mutex that main holds until the thread
// has ended, with a deadline in the past: it times out (ETIMEDOUT), and
// the assertion that it got the mutex fails in every run. (The model has
// no clock: a busy timed lock may time out or wait, a free choice.)
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int r = -1;

void *t(void *a) {
  struct timespec ts = { 0, 0 };
  r = pthread_mutex_timedlock(&m, &ts);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_mutex_lock(&m);
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(r == 0);
  return 0;
}
