// expect: safe
// bounds: unwind=3 threads=2
// Enumerations have gcc's types (i386 and x86-64): an enum without a
// negative constant is unsigned int, with one it is int, and an enum
// whose constants do not fit in 32 bits is a 64-bit type; its constants
// are int when they fit in int. So (enum color)-1 is UINT_MAX, greater
// than every constant, while (enum sign)-1 stays negative. A thread stores
// the converted values; main checks them, and the same facts on constant
// expressions (which the C parser would otherwise fold in its own types).
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

enum color { RED, GREEN, BLUE };
enum sign { NEG = -1, ZERO, POS };
enum big { SMALL, HUGE = 0x80000000u };
enum wide { WNEG = -1, WBIG = 0x80000000u };

enum color c;
enum sign s;
enum wide w;

void *writer(void *arg) {
  c = (enum color)-1;
  s = (enum sign)-1;
  w = (enum wide)-1;
  return 0;
}

int main(void) {
  pthread_t t;
  enum color any = __VERIFIER_nondet_int();
  assert(any >= 0);
  assert((enum color)-1 > 0);
  assert((enum sign)-1 < 0);
  assert(RED - 1 < 0);
  assert(SMALL - 1 < 0);
  assert(HUGE > 0);
  assert(WBIG > 0 && WNEG < 0);
  assert(sizeof(enum color) == 4 && sizeof(enum big) == 4 && sizeof(enum wide) == 8);
  pthread_create(&t, 0, writer, 0);
  pthread_join(t, 0);
  assert(c > BLUE);
  assert(c == 4294967295u);
  assert(s < ZERO);
  assert(w < 0 && w == -1);
  return 0;
}
