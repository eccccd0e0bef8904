// expect: safe
// pthread_exit in main ends main there: the statement after it never
// runs, so x is never 2; the worker runs to its end after main exited
// (the process ends when the last thread ends).
// gcc -pthread -m32 and -m64, 200 runs each: no assertion failed.
#include <pthread.h>
#include <assert.h>

int x;

void *t(void *arg) {
  assert(x != 2);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_exit(0);
  x = 2;
  return 0;
}
