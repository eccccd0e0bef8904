// expect: unsafe
// bounds: unwind=2
// Both threads violate an assertion while holding the mutex, so neither
// region ever releases it, and every run fails. The built-in backend once
// answered SAFE here: it constrained lock regions that never release the
// lock as if they did (backend/builtin/locks.go, regionHints).
#include <pthread.h>
#include <assert.h>

int g = 1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *t0(void *arg) {
  pthread_mutex_lock(&m);
  assert(g <= 0);
  pthread_mutex_unlock(&m);
  return 0;
}

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  assert(2 < g);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  return 0;
}
