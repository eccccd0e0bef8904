// expect: safe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// An enum without a negative enumerator is unsigned int with gcc (i386 and
// x86-64): (enum E)-1 is 4294967295, greater than 0, and halves to
// 2147483647. A thread stores it; main compares.
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
  assert(e > 0 && e > B && sizeof(enum E) == 4);
  assert(e / 2 == 2147483647u && (int)e == -1);
  return 0;
}
