// expect: safe
// bounds: unwind=3 threads=2
// Join ordering. The second thread joins the first one (through the handle
// main stored before creating it) before reading its result, and main joins
// the second thread before checking: result2 is always 42.
#include <pthread.h>
#include <assert.h>

pthread_t h1;
int result1 = 0;
int result2 = 0;

void *first(void *arg) {
  result1 = 21;
  return 0;
}

void *second(void *arg) {
  pthread_join(h1, 0);
  result2 = result1 * 2;
  return 0;
}

int main(void) {
  pthread_t h2;
  pthread_create(&h1, 0, first, 0);
  pthread_create(&h2, 0, second, 0);
  pthread_join(h2, 0);
  assert(result2 == 42);
  return 0;
}
