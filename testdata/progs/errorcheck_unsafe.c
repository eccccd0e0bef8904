// expect: unsafe
// An unlock of an error-checking mutex by a thread that does not hold it
// fails (EPERM) and leaves the mutex held: the assertion that it
// succeeded fails in every run.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int r;

void *t(void *a) {
  r = pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t at;
  pthread_t h;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &at);
  pthread_mutex_lock(&m);
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(r == 0);
  return 0;
}
