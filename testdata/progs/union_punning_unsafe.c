// expect: unsafe
// bounds: unwind=2 threads=1
// Issue 26: unions stored in one member's cells (program.ChooseStorage):
// a byte written through the char member is a byte of the int member,
// an initialiser of the first member is the int's low byte, a short read
// as unsigned short. truth: gcc -pthread -m32/-m64, 200 runs each: assertion 1 fails every run.
#include <assert.h>
#include <pthread.h>
union u { unsigned int i; unsigned char c[4]; } x;
union v { unsigned char b; int w; } y = { 7 };
union w { short s; unsigned short us; } z;
void *t(void *a) { x.c[2] = 0x55; return 0; }
int main(void) {
  pthread_t h; x.i = 0x11223344;
  pthread_create(&h, 0, t, 0); pthread_join(h, 0);
  assert(x.i == 0x11223344);
  assert(x.c[0] == 0x44);
  assert(y.w == 7);
  y.w = 0x1ff; assert(y.b == 0xff);
  z.s = -1; assert(z.us == 65535);
  return 0; }
