// expect: unsafe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// struct ll (char, long long) has padding on both data models: 12 bytes
// on i386, 16 on x86-64, never the 9 of its members nor the 16/12 of the
// other model. The thread computes what main asserts wrong.
#include <pthread.h>
#include <assert.h>

struct ll {
  char c;
  long long x;
};
int wrong;

void *t(void *arg) {
  int lp64 = sizeof(void *) == 8;
  wrong = sizeof(struct ll) == (lp64 ? 12 : 16) || sizeof(struct ll) == 9;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(wrong);
  return 0;
}
