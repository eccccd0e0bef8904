// expect: safe
// A result stored through a pointer that is not a void ** variable's
// address (an int * object through a void ** cast, and through a pointer
// variable that may be null): the stored value is still the thread's.
// Checked: gcc -O0 -pthread, 300 runs, no assertion failed.
#include <pthread.h>
#include <assert.h>

int g = 5;

void *t(void *arg) { return &g; }

int main(void) {
  pthread_t h1, h2;
  void *r = 0;
  void **pr = &r;
  pthread_create(&h1, 0, t, 0);
  pthread_create(&h2, 0, t, 0);
  pthread_join(h1, pr);
  pthread_join(h2, 0);
  assert(r == &g);
  assert(*(int *)r == 5);
  return 0;
}
