// expect: unsafe
// A recursive mutex (glibc's static initializer) locked twice and
// unlocked once is still held: the other thread's trylock fails (EBUSY),
// and the assertion that it succeeded fails in every run.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#define _GNU_SOURCE
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
int r;

void *t(void *a) {
  r = pthread_mutex_trylock(&m);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(r == 0);
  return 0;
}
