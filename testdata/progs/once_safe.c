// expect: safe
// pthread_once runs the routine once, and a caller that finds it running
// waits until it has returned: both threads see the initialised value and
// the routine ran once.
// gcc -pthread -m32 and -m64, 200 runs each: no assertion failed.
#include <pthread.h>
#include <assert.h>

pthread_once_t once = PTHREAD_ONCE_INIT;
int ready, calls;

void init(void) {
  calls++;
  ready = 1;
}

void *t(void *a) {
  pthread_once(&once, init);
  assert(ready == 1);
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t, 0);
  pthread_create(&h2, 0, t, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(calls == 1);
  return 0;
}
