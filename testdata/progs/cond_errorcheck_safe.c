// expect: safe
// Condition variables over an error-checking mutex: main waits for the
// flag in the usual loop and owns the mutex after each wait; a wait on
// the mutex by a thread that does not hold it is EPERM (glibc returns at
// once, without waiting). A timed wait returns 0 or ETIMEDOUT, with the
// mutex held again either way.
// gcc -pthread -m32 and -m64, 200 runs each: no assertion failed.
#include <pthread.h>
#include <assert.h>
#include <errno.h>
#include <time.h>

pthread_mutex_t m;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, perm;

void *t(void *a) {
  perm = pthread_cond_wait(&c, &m);
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t at;
  pthread_t h;
  struct timespec ts = { 0, 0 };
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &at);
  pthread_create(&h, 0, t, 0);
  pthread_mutex_lock(&m);
  while (!ready)
    pthread_cond_wait(&c, &m);
  int r = pthread_cond_timedwait(&c, &m, &ts);
  assert(r == 0 || r == ETIMEDOUT);
  assert(pthread_mutex_lock(&m) == EDEADLK);
  pthread_mutex_unlock(&m);
  pthread_join(h, 0);
  assert(perm == EPERM);
  return 0;
}
