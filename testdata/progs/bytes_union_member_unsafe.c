// expect: unsafe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// A union whose members differ in size, accessed through one member only:
// the thread's store of 7 into a.h[1] is what main reads.
#include <pthread.h>
#include <assert.h>

union slot {
  unsigned short h[2];
  unsigned int w;
  long long ll;
};
union slot a;

void *t(void *arg) {
  a.h[1] = 7;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(a.h[1] != 7);
  return 0;
}
