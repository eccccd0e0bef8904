// expect: unsafe
// pthread_cond_timedwait with a deadline in the past and no signal: it
// returns ETIMEDOUT (with the mutex held again), and the assertion that
// it was woken fails in every run. (In the model a timed wait returns 0
// or ETIMEDOUT, a free choice.)
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

int main(void) {
  struct timespec ts = { 0, 0 };
  pthread_mutex_lock(&m);
  int r = pthread_cond_timedwait(&c, &m, &ts);
  pthread_mutex_unlock(&m);
  assert(r == 0);
  return 0;
}
