// expect: unsafe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// An enum with a negative enumerator is int with gcc: (enum F)-1 is
// negative, so f > 0 is false (an unsigned model would prove it).
#include <pthread.h>
#include <assert.h>

enum F { N = -1, M, P };
enum F f;

void *t(void *arg) {
  f = (enum F)-1;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(f > 0);
  return 0;
}
