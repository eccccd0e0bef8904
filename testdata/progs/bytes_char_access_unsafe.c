// expect: unsafe
// bounds: unwind=5 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// A thread writes byte 1 of y through an unsigned char pointer: y becomes
// 0x100 (little-endian), not 1, the value a model storing into the whole
// int as one cell would give.
#include <pthread.h>
#include <assert.h>

int y;

void *t(void *arg) {
  unsigned char *b = (unsigned char *)arg;
  b[1] = 1;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, &y);
  pthread_join(h, 0);
  assert(y == 1 || y == 0);
  return 0;
}
