// expect: unsafe
// A detached thread runs on its own: main does not wait for it, and
// reads its variable too early.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in
// most runs.
#include <pthread.h>
#include <assert.h>

int x;

void *t(void *a) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&h, &attr, t, 0);
  assert(x == 1);
  return 0;
}
