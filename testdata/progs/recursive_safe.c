// expect: safe
// A recursive mutex (pthread_mutexattr_settype): a function that locks it
// is called with it held; another thread's update waits until both locks
// are released; the owner's trylock succeeds; an unlock by a thread that
// does not hold it is EPERM; the attribute reads back its kind.
// gcc -pthread -m32 and -m64, 200 runs each: no assertion failed.
#include <pthread.h>
#include <assert.h>
#include <errno.h>

pthread_mutex_t m;
int counter, perm;

void add(void) {
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
}

void *t(void *a) {
  perm = pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  add();
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t at;
  pthread_t h;
  int kind;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutexattr_gettype(&at, &kind);
  assert(kind == PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &at);
  pthread_mutexattr_destroy(&at);
  pthread_mutex_lock(&m);
  pthread_create(&h, 0, t, 0);
  add();
  assert(pthread_mutex_trylock(&m) == 0);
  assert(counter == 1);
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  pthread_join(h, 0);
  assert(counter == 2 && perm == EPERM);
  return 0;
}
