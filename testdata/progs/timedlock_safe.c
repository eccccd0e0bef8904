// expect: safe
// pthread_mutex_timedlock: on a free mutex it locks (0); on a mutex
// another thread holds it locks (0) or times out (ETIMEDOUT), and only
// with 0 does the thread hold it: the counter, updated only under the
// mutex, loses no update.
// gcc -pthread -m32 and -m64, 200 runs each: no assertion failed.
#include <pthread.h>
#include <assert.h>
#include <errno.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter, done;

void *t(void *a) {
  struct timespec ts = { 0, 0 };
  int r = pthread_mutex_timedlock(&m, &ts);
  assert(r == 0 || r == ETIMEDOUT);
  if (r == 0) {
    counter++;
    done++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t h;
  struct timespec ts = { 0, 0 };
  pthread_create(&h, 0, t, 0);
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  pthread_join(h, 0);
  assert(counter == 1 + done);
  assert(pthread_mutex_timedlock(&m, &ts) == 0);
  pthread_mutex_unlock(&m);
  return 0;
}
