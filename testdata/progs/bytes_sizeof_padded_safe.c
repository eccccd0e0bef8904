// expect: safe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// sizeof and offsetof of padded structs on both data models, told apart
// by the size of a pointer: struct p (char, int, char) is 12 bytes on
// both; struct ll (char, long long) is 12 on i386 (long long is 4-aligned
// in a struct there) and 16 on x86-64, with x at byte 4 or 8. A thread
// writes the long long through a char pointer and that byte offset.
#include <pthread.h>
#include <assert.h>
#include <stddef.h>

struct p {
  char a;
  int i;
  char b;
};
struct ll {
  char c;
  long long x;
};
struct ll v[2];

void *t(void *arg) {
  *(long long *)((char *)arg + offsetof(struct ll, x)) = 5;
  return 0;
}

int main(void) {
  pthread_t h;
  int lp64 = sizeof(void *) == 8;
  assert(sizeof(struct p) == 12 && offsetof(struct p, b) == 8);
  assert(sizeof(struct ll) == (lp64 ? 16 : 12));
  assert(offsetof(struct ll, x) == (lp64 ? 8 : 4));
  assert(sizeof v == 2 * sizeof(struct ll));
  pthread_create(&h, 0, t, (char *)v + sizeof(struct ll));
  pthread_join(h, 0);
  assert(v[1].x == 5 && v[0].x == 0);
  return 0;
}
