// expect: unsafe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// offsetof(struct outer, in.v[2]) is 16 bytes on both data models (c,
// padding, in.s, padding, in.v[0], in.v[1]); a model counting scalars
// computes 4 and proves this assertion.
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
unsigned long off;

void *t(void *arg) {
  off = offsetof(struct outer, in.v[2]);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(off != 16);
  return 0;
}
