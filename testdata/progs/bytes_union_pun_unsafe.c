// expect: unsafe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// The first byte of the word 0x01020304 is 4 on i386 and x86-64
// (little-endian), not 1.
#include <pthread.h>
#include <assert.h>

union u {
  unsigned int w;
  unsigned char b[4];
};
union u v;

void *t(void *arg) {
  v.w = 0x01020304u;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(v.b[0] == 1);
  return 0;
}
