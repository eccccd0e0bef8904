// expect: safe
// bounds: unwind=5 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// Character access to an int's bytes, which C allows: a memset-like loop
// writes 0xff into every byte of x (so x == -1), a thread writes byte 1 of
// y through an unsigned char pointer (so y == 0x100, little-endian), and
// main reads the bytes of z back.
#include <pthread.h>
#include <assert.h>

int x;
int y;
unsigned int z = 0x11223344u;

void *t(void *arg) {
  unsigned char *b = (unsigned char *)arg;
  b[1] = 1;
  return 0;
}

int main(void) {
  pthread_t h;
  unsigned char *p = (unsigned char *)&x;
  for (int i = 0; i < (int)sizeof x; i++)
    p[i] = 0xff;
  pthread_create(&h, 0, t, &y);
  pthread_join(h, 0);
  unsigned char *q = (unsigned char *)&z;
  assert(x == -1 && y == 0x100 && q[0] == 0x44 && q[3] == 0x11);
  return 0;
}
