// expect: unsafe
// bounds: unwind=3 threads=2
// Lost update. Two threads increment the shared counter without a lock.
// counter++ is a read followed by a write: if both threads read 0 before
// either writes back, the final value is 1 and the assertion fails.
#include <pthread.h>
#include <assert.h>

int counter = 0;

void *worker(void *arg) {
  counter++;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 2);
  return 0;
}
