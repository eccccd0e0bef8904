// expect: safe
// Threads created detached (thread attribute) or detached with
// pthread_detach run like any other and are never joined: main waits for
// their flags instead. The attribute reads back as detached.
// gcc -pthread -m32 and -m64, 200 runs each: no assertion failed.
#include <pthread.h>
#include <assert.h>

volatile int done1, done2;
int x, y;

void *t1(void *a) {
  x = 1;
  done1 = 1;
  return 0;
}

void *t2(void *a) {
  y = 1;
  done2 = 1;
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_attr_t attr;
  int st;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_getdetachstate(&attr, &st);
  assert(st == PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 1 << 20);
  pthread_create(&h1, &attr, t1, 0);
  pthread_attr_destroy(&attr);
  pthread_create(&h2, 0, t2, 0);
  pthread_detach(h2);
  while (!done1 || !done2)
    ;
  assert(x == 1 && y == 1);
  return 0;
}
