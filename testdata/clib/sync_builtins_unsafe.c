// expect: unsafe
// __sync_fetch_and_add returns the value before the addition: the
// assertion that it returns the sum fails in every run.
#include <assert.h>
#include <pthread.h>
int n;
void *worker(void *arg) {
  int old = __sync_fetch_and_add(&n, 1);
  assert(old == n);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
