// expect: unsafe
// pthread_exit in main ends main only: the other threads run on (the
// process ends when the last thread ends), so the worker's assertion is
// reached after main has exited and fails in every run.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>

int x;

void *t(void *arg) {
  x = 1;
  assert(x == 0);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_exit(0);
  x = 2;
  return 0;
}
