// expect: safe
// bounds: unwind=17 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// A char pointer walks byte by byte over int x[4] (16 bytes, little-endian
// on i386 and x86-64) after a thread stored x[1] = 0x0201: the walk sees
// exactly two non-zero bytes, at offsets 4 (0x01) and 5 (0x02).
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
  int nonzero = 0, weighted = 0;
  for (int i = 0; i < (int)sizeof x; i++) {
    if (p[i] != 0) {
      nonzero++;
      weighted += i * p[i];
    }
  }
  assert(nonzero == 2 && weighted == 4 * 1 + 5 * 2);
  return 0;
}
