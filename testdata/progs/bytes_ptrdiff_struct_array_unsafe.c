// expect: unsafe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// The byte difference (char *)&a[2] - (char *)&a[0] is 16 (struct s is 8
// bytes with its padding), not 4, the number of scalars between them,
// which is what a model counting cells computes.
#include <pthread.h>
#include <assert.h>

struct s {
  char c;
  int i;
};
struct s a[4];
long d;

void *t(void *arg) {
  d = (char *)arg - (char *)&a[0];
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, &a[2]);
  pthread_join(h, 0);
  assert(d == 4);
  return 0;
}
