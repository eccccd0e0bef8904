// expect: unsafe
// bounds: unwind=17 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// The walk of bytes_walk_int_array_safe.c asserting what a model with one
// cell per int (or a big-endian one) would see: the byte at offset 4 is
// the low byte of x[1], 0x01, not 0x0201 nor 0x02.
#include <pthread.h>
#include <assert.h>

int x[4];

void *t(void *arg) {
  x[1] = 0x0201;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  unsigned char *p = (unsigned char *)x;
  int at = -1;
  for (int i = 0; i < (int)sizeof x; i++) {
    if (p[i] != 0 && at < 0)
      at = i;
  }
  assert(at != 4 || p[at] != 1);
  return 0;
}
