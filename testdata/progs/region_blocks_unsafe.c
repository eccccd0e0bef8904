// expect: unsafe
// bounds: unwind=2
// One thread blocks forever inside its critical section (an assumption
// that never holds), the other violates an assertion inside its own. Runs
// in which the second thread takes the mutex first fail.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);
int g = 1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *t0(void *arg) {
  pthread_mutex_lock(&m);
  assert(g <= 0);
  pthread_mutex_unlock(&m);
  return 0;
}

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  __VERIFIER_assume(g == 5);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  return 0;
}
