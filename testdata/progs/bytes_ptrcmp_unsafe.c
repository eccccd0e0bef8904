// expect: unsafe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// One byte past &a[0].i is byte 5 of the array, not &a[1] (byte 8): a
// model stepping by scalars reaches a[1].c and proves this assertion.
#include <pthread.h>
#include <assert.h>

struct s {
  char c;
  int i;
};
struct s a[2];
char *p1;

void *t(void *arg) {
  p1 = (char *)&a[0].i + 1;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(p1 == (char *)&a[1]);
  return 0;
}
