// expect: safe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// Issue 26's example: the thread reaches r.val through a char pointer and
// offsetof (a byte offset: 16 on both data models), then writes it as an
// int; after the join main sees r.val == 42 and nothing else moved (a
// model moving by scalars lands on spare[11]).
#include <pthread.h>
#include <assert.h>
#include <stddef.h>

struct rec {
  char tag;
  int pad[3];
  int val;
  int spare[12];
};
struct rec r;

void *t(void *arg) {
  int *pv = (int *)((char *)arg + offsetof(struct rec, val));
  *pv = 42;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, &r);
  pthread_join(h, 0);
  assert(r.val == 42 && r.pad[2] == 0 && r.tag == 0);
  return 0;
}
