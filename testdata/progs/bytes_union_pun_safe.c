// expect: safe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// A union read through a member of another type than the one written
// (C11 6.5.2.3: the bytes are reinterpreted): the thread writes the word,
// main reads its bytes and halves, little-endian.
#include <pthread.h>
#include <assert.h>

union u {
  unsigned int w;
  unsigned char b[4];
  unsigned short h[2];
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
  assert(v.b[0] == 4 && v.b[3] == 1 && v.h[1] == 0x0102);
  return 0;
}
