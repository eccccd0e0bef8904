// expect: unsafe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// An enum without a negative enumerator is unsigned int with gcc, so
// (enum E)-1 is not negative: a model with signed int enums proves this.
#include <pthread.h>
#include <assert.h>

enum E { A, B };
enum E e;

void *t(void *arg) {
  e = (enum E)-1;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(e < 0);
  return 0;
}
