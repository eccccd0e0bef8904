// expect: safe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// offsetof with a member designator that names a nested member and an
// array element (C11 7.19p3): in.v[2] lies at byte 16 and in.s at byte 4
// of struct outer on both data models (tail follows at 20 or 24). The
// thread writes both through a char pointer; main checks them and the
// offsets.
#include <pthread.h>
#include <assert.h>
#include <stddef.h>

struct inner {
  short s;
  int v[3];
};
struct outer {
  char c;
  struct inner in;
  long long tail;
};
struct outer o;

void *t(void *arg) {
  char *b = (char *)arg;
  *(int *)(b + offsetof(struct outer, in.v[2])) = 9;
  *(short *)(b + offsetof(struct outer, in.s)) = 3;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, &o);
  pthread_join(h, 0);
  assert(o.in.v[2] == 9 && o.in.s == 3 && o.in.v[1] == 0 && o.tail == 0);
  assert(offsetof(struct outer, in.v[2]) == 16 && offsetof(struct outer, in.v[1]) - offsetof(struct outer, in) == 8);
  return 0;
}
