// expect: safe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// An enum with a negative enumerator is int with gcc: (enum F)-1 is below
// 0 and below every enumerator but N. Next to it, an enum without one is
// unsigned, so the same value converted compares the other way.
#include <pthread.h>
#include <assert.h>

enum F { N = -1, M, P };
enum E { A, B };
enum F f;

void *t(void *arg) {
  f = (enum F)-1;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(f < 0 && f == N && f < M && f / 2 == 0);
  assert((enum E)f > 0);
  return 0;
}
