// expect: unsafe
// pthread_once with two different once controls runs the routine twice:
// the count reaches 2.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>

pthread_once_t o1 = PTHREAD_ONCE_INIT, o2 = PTHREAD_ONCE_INIT;
int calls;

void init(void) {
  calls++;
}

void *t1(void *a) {
  pthread_once(&o1, init);
  return 0;
}

void *t2(void *a) {
  pthread_once(&o2, init);
  pthread_once(&o1, init);
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(calls == 1);
  return 0;
}
