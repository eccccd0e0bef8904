// expect: unsafe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// Issue 26's example with the failing assertion (a cell-addressed model
// moved 16 cells to r.pad[2] and proved this): the thread writes r.val
// through a char pointer plus offsetof, so after the join r.val == 42.
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
  assert(r.val != 42);
  return 0;
}
