// expect: unsafe
// Each thread records pthread_self(); the first thread's id is its own
// handle, not the second's, so the assertion fails in every run.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>

pthread_t seen[2];
int ids[2] = {0, 1};

void *t(void *arg) {
  seen[*(int *)arg] = pthread_self();
  return 0;
}

int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t, &ids[0]);
  pthread_create(&h1, 0, t, &ids[1]);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  assert(pthread_equal(seen[0], h1));
  return 0;
}
