// expect: unsafe
// bounds: unwind=3 threads=2
// Missing join. As join_order_safe.c, but the second thread does not wait
// for the first: if it runs before `first`, it reads result1 == 0 and
// main sees result2 == 0 (__VERIFIER_error is reachable).
#include <pthread.h>

extern void __VERIFIER_error(void);

int result1 = 0;
int result2 = 0;

void *first(void *arg) {
  result1 = 21;
  return 0;
}

void *second(void *arg) {
  result2 = result1 * 2;
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, first, 0);
  pthread_create(&h2, 0, second, 0);
  pthread_join(h2, 0);
  if (result2 != 42)
    __VERIFIER_error();
  pthread_join(h1, 0);
  return 0;
}
